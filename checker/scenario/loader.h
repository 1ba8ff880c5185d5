// The strict scenario loader: YAML text -> a validated Scenario, or the FIRST error located
// at `file:line:col` (1-based) with the key path, e.g.
//   scenarios/x.yaml:12:5: error: unknown key 'wirters'; expected one of: ... (at workload.wirters)
// Errors: YAML syntax (yaml-cpp's message at its mark), unknown keys, missing required keys,
// wrong types, bad SQL (the parser's error re-located into the YAML file), and impossible
// references (unknown node, frontend index out of range, unknown rule switch, unknown crash
// site, unknown invariant, steps after the safety phase). Never throws: yaml-cpp exceptions
// are caught here. The format is documented in scenarios/README.md.
#pragma once

#include <string>
#include <string_view>

#include "checker/scenario/scenario.h"
#include "sim/result.h"

namespace repartsim::scenario {

// Parses `text`; `file` names the source in error locations and becomes Scenario::path.
sim::Result<Scenario> ParseScenario(std::string_view text, const std::string& file);
// Reads and parses `path`. Unreadable: "cannot read scenario file" at path:0:0.
sim::Result<Scenario> LoadScenarioFile(const std::string& path);

}  // namespace repartsim::scenario
