// Fixture for the determinism lint: a planted std::rand call. The lint must report line 6;
// tests/CMakeLists.txt runs it with --expect-failure. This file is never compiled.
#include <cstdlib>

int PlantedDraw() {
  return std::rand() % 6;
}
