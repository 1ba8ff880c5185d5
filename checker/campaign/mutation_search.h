// The mutation search behind `repartsim mutants` (docs/rules.md "Checking the checker"): for
// every rule switch that is on in `reference`, a mutant is `reference` with that one switch off;
// each searches a fixed budget until some run reports a finding (an invariant the scenario's
// reference expectation does not allow, or a READ-ANOMALY) and is `killed`, or `survived`. The
// same budget with every switch on (the reference row) must find nothing.
// The budget, in search order: the library runs (seed-major over the scenarios), then explore
// of the scenarios tagged `explore`. Library runs of scenarios whose expect.with_rules names
// the mutant go first, so a documented kill is found by the scenario that documents it.
// SearchAll runs one row per process (worker_pool.h, one task per process), so an internal
// error of one mutant is that row's `error`.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checker/campaign/repro_command.h"
#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"

namespace repartsim::campaign {

struct BudgetItem {
  size_t scenario = 0;
  uint64_t seed = 0;
};

struct Budget {
  std::vector<scenario::Scenario> scenarios;  // limits.steps_max capped
  std::vector<BudgetItem> items;              // the library runs, in search order
  std::vector<size_t> explore;                // scenarios explored, in order
  std::string seeds;                          // "first K of each scenario's range" or "A..B"
  uint64_t seeds_per_scenario = 0;            // 0 with --seeds
  uint64_t steps_max = 0;
  uint64_t explore_states = 0;
  bool every_finding = false;  // --every-finding: the library is not stopped at the first kill
  bool swarm_only = false;     // --swarm: only the scenarios tagged random, no explore
  // Milliseconds of wall time for the rows' timings (the verb passes a steady clock); unset:
  // every row takes 0 ms. Never read for a decision.
  std::function<int64_t()> now_ms;

  int64_t NowMs() const { return now_ms ? now_ms() : 0; }

  std::string Describe() const;

  nlohmann::ordered_json ToJson() const;
};

// One row: the reference (rule empty) or one mutant.
struct MutantRow {
  std::string rule;  // "" for the reference row
  // reference: clean | violation; mutant: killed | survived | capped; error. A mutant is
  // `capped` when it found nothing and more of its runs reached steps_max before their liveness
  // phase ended than the reference's did (SearchAll): the cap, not the checker, may have hidden
  // what it breaks.
  std::string result;
  std::string invariant;
  std::string message;
  std::string stage;  // run | explore
  std::string path;
  std::string scenario;
  uint64_t seed = 0;
  uint64_t violation_step = 0;
  uint64_t explore_runs = 0;  // runs of the explore that found it
  uint64_t runs = 0;          // runs until found (or the whole budget)
  uint64_t steps = 0;         // simulated steps until found (or the whole budget)
  uint64_t capped = 0;        // of `runs`, those with outcome capped (run::Outcome::kCapped)
  int64_t ms = 0;
  std::string repro;
  std::string annotation;       // the finding scenario's expect.with_rules entry for this switch
  bool annotation_met = false;  // the finding run meets that entry
  std::string error;            // result "error": how the row's process died
  // A row that found nothing, when the budget holds a `shape: swarm` scenario: the features
  // ("name=value", scenario/swarm_shape.h) that none of its runs drew, sorted.
  std::vector<std::string> features_not_drawn;
  bool shapes = false;  // some run of the row drew a shape
  // --every-finding: every scenario of the library with a finding, in budget order.
  struct Finding {
    std::string path;
    std::vector<uint64_t> seeds;
    std::set<std::string> invariants;
    std::string annotation;  // its expect.with_rules entry for the switch, "" when none
    // That entry as the bundled-scenario test applies it: no finding run reports what it does
    // not allow, and at least one reproduces its violation.
    bool allowed = true;
    bool reproduced = false;
    bool Met() const { return allowed && reproduced; }
  };
  std::vector<Finding> findings;

  bool Found() const { return result == "killed" || result == "violation"; }
  // A kill by a scenario whose expect.with_rules names this switch and whose run meets it.
  bool Documented() const { return result == "killed" && !annotation.empty() && annotation_met; }

  nlohmann::ordered_json ToJson() const;

  static MutantRow FromJson(const nlohmann::json& j);
};

// Fills budget.items: seed-major (the k-th seed of every scenario before the (k+1)-th of any),
// over `range` for every scenario, or else the first `per_scenario` seeds of each one's range.
// Returns false, with budget.items empty, when that is more than kMutantRunsMax runs.
inline constexpr uint64_t kMutantRunsMax = 10'000'000;
[[nodiscard]] bool PlanItems(Budget& budget,
                             const std::optional<std::pair<uint64_t, uint64_t>>& range,
                             uint64_t per_scenario);

// Searches the budget with every switch on (`rule` empty) or with `rule` off.
MutantRow Search(const Budget& budget, const std::string& rule);

// Searches every rule of `rules` ("" = the reference) in its own process, at most `jobs` at
// once; rows come back in `rules` order. When rules.front() is the reference (""), a mutant
// that survived with more capped runs than the reference is marked `capped`. `progress` (optional)
// is called in this process as each row finishes, with the count done so far.
std::vector<MutantRow> SearchAll(
    const Budget& budget, const std::vector<std::string>& rules, uint32_t jobs,
    const std::function<void(size_t done, size_t total, const MutantRow& row)>& progress);

}  // namespace repartsim::campaign
