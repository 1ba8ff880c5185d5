// Command-line pieces shared by the verbs that run many scenarios (sweep, mutants): the
// scenario paths named on the command line and a seed range.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/result.h"

namespace repartsim::tools {

// The scenario files named on the command line: files as given, directories expanded to
// every *.yaml under them (recursively, sorted). Errors are located at the path on the
// command line (`args`, argv[1..]): "cannot read directory D: ...", "directory D holds no
// *.yaml scenario".
sim::Result<std::vector<std::string>> ExpandScenarioPaths(const std::vector<std::string>& paths,
                                                          const std::vector<std::string>& args);

// "A..B" with 0 <= A <= B < 2^64. Error located at `text` on the command line:
// "--seeds expects A..B with 0 <= A <= B < 2^64, got 'x'".
sim::Result<std::pair<uint64_t, uint64_t>> ParseRange(const std::string& text,
                                                      const std::vector<std::string>& args);

}  // namespace repartsim::tools
