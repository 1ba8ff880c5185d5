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
#include <optional>
#include <string>
#include <vector>

#include "checker/run/runner.h"
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

// The invariants `report` names, in report order (the decisive one first), each once.
std::vector<std::string> InvariantsDecisiveFirst(const run::RunReport& report);

// What SaveCounterexample wrote and found.
struct SavedCounterexample {
  std::string choices_path;             // `base`.choices: `repartsim replay` reproduces the run
  std::string yaml_path;                // `base`.yaml: `repartsim run` reproduces it
  std::vector<std::string> invariants;  // the run's, decisive first
  size_t decisions = 0;                 // non-default decisions pinned in the YAML
  // Running the YAML on its own (the spec's seed) reports the run's decisive invariant first
  // (false when the run reported none, e.g. nondeterminism).
  bool reproduced = false;
  // The first failure, if any; nothing after it was done. input_error: the original scenario
  // could not be read again (exit 64); write_error: a file could not be written (exit 73).
  std::optional<sim::Error> input_error;
  std::optional<sim::Error> write_error;
};

// Writes the failing run `report` (of spec.scenario_path under spec's seed, profile and rules;
// spec.invariants is filled here) as a choice file and a counterexample scenario next to
// `base`, then runs the scenario to check that it reproduces.
SavedCounterexample SaveCounterexample(CounterexampleSpec spec, const run::RunReport& report,
                                       const std::string& base);

}  // namespace repartsim::campaign
