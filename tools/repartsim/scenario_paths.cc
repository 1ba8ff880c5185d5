#include "tools/repartsim/scenario_paths.h"

#include <string_view>

#include "checker/campaign/scenario_files.h"
#include "checker/scenario/seed_range.h"
#include "tools/repartsim/cli_error.h"

namespace repartsim::tools {

sim::Result<std::pair<uint64_t, uint64_t>> ParseRange(const std::string& text,
                                                      const std::vector<std::string>& args) {
  if (auto range = scenario::ParseSeedRange(text)) return *range;
  return sim::Error{{"<command line>", 1, ArgumentColumn(args, text)},
                    "--seeds expects A..B with 0 <= A <= B < 2^64, got '" + text + "'"};
}

sim::Result<std::vector<std::string>> ExpandScenarioPaths(const std::vector<std::string>& paths,
                                                          const std::vector<std::string>& args) {
  std::string culprit;
  auto files = campaign::ScenarioFiles(paths, &culprit);
  if (files.ok()) return files;
  return sim::Error{{"<command line>", 1, ArgumentColumn(args, culprit)}, files.error().message};
}

}  // namespace repartsim::tools
