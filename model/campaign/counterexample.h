// Counterexample scenarios, written by `explore` and `shrink`: the original scenario YAML
// with the failing run pinned down, so a plain `repartsim run FILE` reproduces it:
//   - profile and rules: the run's (overrides written out as rules);
//   - faults.decisions: every non-default decision of the run (ScriptedChooser), so no
//     randomness is left; the fault ratios stay as they were, because they decide which
//     decisions are asked at all;
//   - expect: the found invariant for that profile (the others it reported are tolerated);
//   - name, description: say where it came from;
//   - seeds: the run's seed (it still drives a random workload, if the scenario has one).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/run/runner.h"
#include "sim/choice_list.h"
#include "sim/result.h"

namespace repartsim::campaign {

struct CounterexampleSpec {
  std::string scenario_path;  // the original scenario file
  std::string origin;         // e.g. "explore (dfs, crash budget 1)"
  uint64_t seed = 0;
  std::string profile;
  std::vector<std::pair<std::string, bool>> rules;  // the run's overrides
  std::vector<std::string> invariants;              // reported by the failing run, decisive first
};

// The non-default entries of `choices` as scripted decisions (index = position in the list).
std::vector<sim::ScriptedDecision> NonDefaultDecisions(const sim::ChoiceList& choices);

// `decisions` as the YAML sequence a scenario's `faults.decisions` holds (one flow map each).
YAML::Node DecisionsNode(const std::vector<sim::ScriptedDecision>& decisions);

// The counterexample scenario as YAML text.
sim::Result<std::string> CounterexampleYaml(const CounterexampleSpec& spec,
                                            const std::vector<sim::ScriptedDecision>& decisions);

// Loads `path`, runs it (seed, the file's own profile) and returns its report; the caller
// compares the invariants.
sim::Result<run::RunReport> RunScenarioFile(const std::string& path, uint64_t seed);

}  // namespace repartsim::campaign
