// What `repartsim mutants` reports of a mutation search (mutation_search.h): the score (killed
// over the switches mutated, how many kills the killing scenario documents, whether the
// reference row is clean), the table a person reads (the budget line, one row per mutant, each
// kill with its repro and whether expect.with_rules documents it, every finding of
// --every-finding, the score line) and the JSON report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "checker/campaign/mutation_search.h"

namespace repartsim::campaign {

struct MutationScore {
  size_t killed = 0;
  size_t total = 0;  // switches mutated
  size_t documented = 0;
  size_t capped = 0;  // mutants not killed whose runs the step cap cut more than the reference's
  double percent = 100.0;  // killed / total; 100 when nothing was mutated
  bool reference_clean = true;
  bool died = false;  // some row's process died (result "error")

  // 0 reference clean and the score at least `min_score`; 1 not; 70 a row's process died.
  int ExitCode(std::optional<double> min_score) const;
  bool Below(std::optional<double> min_score) const;
  // "mutation score: K/N killed (P%), D documented by the killing scenario's expect.with_rules"
  // (", C capped" when some mutant is capped).
  std::string Line() const;
};

// REQUIRES: rows.front() is the reference row, then one row per mutated switch.
MutationScore Score(const std::vector<MutantRow>& rows);

// "path seed N", "explore path (run N)", the row's error, or "-".
std::string FoundBy(const MutantRow& row);

// The table (ending with the score line).
std::string MutantsText(const Budget& budget, const std::vector<MutantRow>& rows);

// The JSON report of the binary `version` and `binary` (its build id); `exit_code` and
// `wall_ms` as the verb ends.
nlohmann::ordered_json MutantsJson(const std::string& version, const std::string& binary,
                                   const Budget& budget, const std::vector<MutantRow>& rows,
                                   std::optional<double> min_score, int exit_code, int64_t wall_ms);

// Switches on in reference that guard code no run reaches yet, so that no scenario can kill
// them: not mutants unless named with --only, and every report lists them with the reason
// (the switch's section of docs/rules.md says the same).
struct DeadProtection {
  std::string name;
  std::string why;
};
const std::vector<DeadProtection>& DeadProtections();

// The switches `mutants` turns off: every switch on in reference but the dead protections, or
// those of `only` (in the order named, each once). nullopt and `*bad` set when `only` names
// a switch that is not on in reference.
std::optional<std::vector<std::string>> MutatedSwitches(const std::vector<std::string>& only,
                                                        std::string* bad);

// Adds a scenario to the budget: its steps capped at budget.steps_max, explored when tagged
// `explore`.
void AddToBudget(Budget& budget, scenario::Scenario scenario);

}  // namespace repartsim::campaign
