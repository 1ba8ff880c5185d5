#include "tests/paths.h"

namespace repartsim::testing {

const char* SourceDir() { return REPARTSIM_SOURCE_DIR_VALUE; }
const char* BinaryPath() { return REPARTSIM_BINARY_VALUE; }

}  // namespace repartsim::testing
