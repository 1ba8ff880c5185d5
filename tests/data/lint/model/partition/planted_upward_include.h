// Fixture for the layering lint: model/partition is the bottom layer, so its include of the
// cluster (the top of the model) runs up the layers. The lint must report line 8 and no other:
// the include of sim/ and of its own folder are allowed. tests/CMakeLists.txt runs it with
// --expect-failure. This file is never compiled.
#pragma once

#include "model/partition/value.h"
#include "model/cluster/cluster.h"
#include "sim/time.h"
