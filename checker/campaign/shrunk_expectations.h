// The expectations a shrunk scenario keeps from the scenario it was shrunk from (shrink.h). A
// shrunk file runs one seed, so what its source's `expect` says of other seeds cannot all hold
// there: an `expect.with_rules` entry whose `seeds` exclude that seed is dropped, and one whose
// seeds hold it is narrowed to it (its `seeds` key goes: the file's own `seeds` is that one
// seed). An entry found by explore is dropped (shrink checks runs, not searches), and so is an
// entry that the shrunk file's own rules (shrink --rule) make a no-op or a duplicate. What is
// left is judged by runs of the shrunk scenario at its seed (CheckExpectations), and what a run
// misses is dropped too: the written file states only what holds at its seed, and `repartsim
// shrink` verifies the written file with the same checks.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/scenario/scenario.h"

namespace repartsim::campaign {

// One expectation a scenario states, judged by one run at a seed.
struct ExpectationCheck {
  std::string name;  // "expect.reference", "expect.with_rules[1]"
  std::string profile;
  std::optional<size_t> rule_index;  // the with_rules entry; nullopt: expect.<profile>
  std::string statement;  // "reference with time-ordered-sequences=off: violation: INV-NOOMIT"
  bool met = false;
  std::string found;  // what the run gave: "INV-ACK, INV-NOOMIT (outcome=safety)", "pass"
};

// The steps a with_rules entry's run may take (limits.steps_max capped), as the bundled-scenario
// test and `repartsim mutants` cap them: a switch whose absence makes a procedure loop ends the
// run with INV-LIVE instead of running for minutes.
inline constexpr uint64_t kRuleCheckStepsMax = 10000;

// Judges every expectation `s` states (each profile's `expect`, each with_rules entry not found
// by explore) by one run of `s` at `seed` under that profile (and the entry's rules, steps
// capped at kRuleCheckStepsMax): met iff the run reports nothing the expectation does not allow
// and, for `violation: X`, reports X. Profiles in name order, then the with_rules entries in
// file order.
std::vector<ExpectationCheck> CheckExpectations(const scenario::Scenario& s, uint64_t seed);

// An expectation of the source scenario that the shrunk file leaves out, and why.
struct DroppedExpectation {
  std::string name;       // in the source: "expect.reference", "expect.with_rules[2]"
  std::string statement;  // as ExpectationCheck::statement
  std::string reason;     // "its seeds 9..11 exclude seed 3", "the shrunk run gives pass"
};

// What NarrowRuleExpectations did to the with_rules entries.
struct NarrowedExpectations {
  std::vector<DroppedExpectation> dropped;
  std::vector<size_t> source_index;  // the source's index of each with_rules entry kept
};

// Narrows the with_rules entries of the shrunk scenario's YAML `root` (its `expect` as copied
// from `source`, the loaded source scenario) to seed `seed`, as the header says: removes
// `seeds` from the entries kept and drops the others from `root`. `extra_rules` are the rules
// the shrunk file adds to the source's (shrink --rule).
NarrowedExpectations NarrowRuleExpectations(
    const scenario::Scenario& source, const std::vector<std::pair<std::string, bool>>& extra_rules,
    uint64_t seed, YAML::Node& root);

// Removes from the shrunk scenario's YAML `root` the expectations that `checks` (CheckExpectations
// of that YAML, loaded) found unmet, except the one named `keep` (the shrunk profile's, which the
// caller checks). `source_index` maps root's with_rules entries to the source's
// (NarrowedExpectations). Returns what was removed, named as in the source.
std::vector<DroppedExpectation> DropUnmet(const std::vector<ExpectationCheck>& checks,
                                          const std::string& keep,
                                          const std::vector<size_t>& source_index,
                                          YAML::Node& root);

}  // namespace repartsim::campaign
