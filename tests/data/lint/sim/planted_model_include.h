// Fixture for the layering lint: the engine (sim/) must know nothing of the model, so this
// include of a model header is a finding at line 6 and the include of sim/ is not.
// tests/CMakeLists.txt runs it with --expect-failure. This file is never compiled.
#pragma once

#include "model/protocol/protocol.h"
#include "sim/time.h"
