// Fixture for the layering lint: checker/campaign may include the model layers its line of
// checker/layers.txt names, and model/node is not one of them (campaigns read runs, never a
// node). The lint must report line 8 and no other. tests/CMakeLists.txt runs it with
// --expect-failure. This file is never compiled.
#pragma once

#include "checker/check/oracle.h"
#include "model/node/history.h"
#include "sim/time.h"
