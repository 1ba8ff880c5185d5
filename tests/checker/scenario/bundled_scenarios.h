// The bundled scenario files (scenarios/**.yaml), sorted by path: what the scenario tests
// run. Header-only; REPARTSIM_SOURCE_DIR is defined for tests.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/paths.h"

namespace repartsim::scenario {

inline std::vector<std::string> BundledScenarios() {
  std::vector<std::string> paths;
  const std::string root = std::string(REPARTSIM_SOURCE_DIR) + "/scenarios";
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.path().extension() == ".yaml") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace repartsim::scenario
