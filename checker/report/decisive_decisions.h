// The decisions that made a counterexample, told with what they did: for each non-default
// decision of a run (the ones a counterexample scenario pins in faults.decisions), the step
// it was taken in and the trace line it caused there. explore prints them under its
// counterexample, so the faults and orderings that matter read as a short trace:
//   #12 net.lease_gap = yes, step 65 (t=6402 ms): metasrv net.lease_gap id=41 ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/run/explore.h"
#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"

namespace repartsim::report {

// The step each recorded decision of `choices` was taken in, by replaying them under
// `config` (its seed, profile and rules; its replay, chooser and after_step are replaced).
// Decisions taken before the first step count as step 0. Empty when the run cannot be
// replayed (a bad profile or rule).
std::vector<uint64_t> DecisionSteps(const scenario::Scenario& s, run::RunConfig config,
                                    const sim::ChoiceList& choices);

// One line per non-default decision of `choices` (at most `lines_max`, then a line saying how
// many more): its index, label and value, its step and time, and the trace line of that step
// it caused (the line of the fault it decided, the crash of a crash site, the event a
// scheduling choice ran), its node named ("dn1", "metasrv"). `steps` as DecisionSteps gave
// them; `trace` the run's kept trace.
std::vector<std::string> DecisiveDecisionsText(const scenario::Scenario& s,
                                               const sim::ChoiceList& choices,
                                               const std::vector<uint64_t>& steps,
                                               const std::vector<std::string>& trace,
                                               size_t lines_max);

// DecisiveDecisionsText of explore's counterexample `r` (its choices and kept trace) of `s`,
// with the steps DecisionSteps finds under the search's seed, profile and rules.
std::vector<std::string> DecisiveDecisions(const scenario::Scenario& s,
                                           const run::ExploreConfig& config,
                                           const run::RunReport& r, size_t lines_max);

// A run of the scenario file `path` (seed `seed`, the file's own profile) and the text that
// tells it, a line each, indented by two spaces: each story's cause ("story: ..."), then its
// decisive decisions ("decision #..."), at most `decisions_max`. shrink prints it under its
// shrunk scenario.
struct ToldRun {
  run::RunReport report;
  std::string text;
};
sim::Result<ToldRun> TellScenarioFile(const std::string& path, uint64_t seed, size_t decisions_max);

}  // namespace repartsim::report
