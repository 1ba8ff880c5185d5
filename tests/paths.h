// Where the tests find the repository and the built CLI. Both paths are compiled into one small
// object (tests/paths.cc) instead of into every test source, so no test object depends on where
// the checkout sits: a second clone of the tree reuses the test objects from ccache.
// REPARTSIM_SOURCE_DIR and REPARTSIM_BINARY expand to `const char*` calls, usable wherever a
// `std::string` or `std::filesystem::path` is built from them (not in literal concatenation).
#pragma once

namespace repartsim::testing {

// The repository root, an absolute path.
const char* SourceDir();
// The built repartsim executable, an absolute path.
const char* BinaryPath();

}  // namespace repartsim::testing

#define REPARTSIM_SOURCE_DIR (::repartsim::testing::SourceDir())
#define REPARTSIM_BINARY (::repartsim::testing::BinaryPath())
