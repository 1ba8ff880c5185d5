// Fixture for the layering lint: model/ includes nothing of checker/, which sits above it, so
// the model's cluster including the checker's runner is a finding. The lint must report line 8
// and no other: the includes of its own room's allowed layers and of sim/ are allowed.
// tests/CMakeLists.txt runs it with --expect-failure. This file is never compiled.
#pragma once

#include "model/datanode/datanode.h"
#include "checker/campaign/verdict.h"
#include "sim/time.h"
