// The scenario runner: builds the Cluster for a Scenario and a seed, schedules CREATE TABLE
// (t=0), the setup (t=1000 ms + 10 ms each), the scripted steps and the random workload,
// then drives the timed simulation in two phases:
//   safety   (t < limits.time_ms_max): message faults and crash points as configured;
//   liveness (after): network faults stop ("net.*" chance decisions answer no without a
//            draw), crash points stop, partitions heal, crashed nodes restart, stale caches
//            are released; the run ends once the cluster is quiescent (no procedure, op,
//            message or client request pending) after at least limits.settle_ms, or when the
//            liveness budget (limits.liveness_ms) or steps_max is spent;
//   probes   (once quiescent after settle_ms) liveness write probes (liveness_probes.h): one
//            INSERT per distinct partition-key tuple of the acknowledged writes (capped at 64,
//            plus one for every final region the cap left out), with fresh time index
//            values, probe i through frontend i mod F, each retried 1 s after a rejected or
//            unknown outcome (3 attempts); the run then ends at the next quiescence, or when
//            the liveness budget is spent. A probe never acknowledged is INV-LIVE ("row is not
//            writable"). Probes are ordinary writes in History (ids from probe_write_first).
// After every step PublishedRuleWatch checks INV-RULE once per newly published rule.
// Then the checker (checker/check, through run_check.h) judges the History and the final state.
// Same binary + scenario + seed (+ profile and rule overrides) => byte-identical trace; a
// replay of the recorded ChoiceList reproduces it without the random driver.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "checker/check/violation.h"
#include "checker/run/run_story.h"
#include "checker/scenario/scenario.h"
#include "sim/choice_list.h"
#include "sim/crash_points.h"
#include "sim/network.h"
#include "sim/result.h"
#include "sim/trace.h"

namespace repartsim::model {
class Cluster;
}

namespace repartsim::run {

// What RunConfig::after_step sees after each step of a run.
struct StepView {
  model::Cluster& cluster;  // mutable only for test seams (a planted nondeterminism)
  uint64_t step = 0;        // index of the step just taken
  int64_t now_ms = 0;
  bool healed = false;         // the liveness phase has begun
  uint64_t crashes = 0;        // crash points fired so far
  size_t rule_violations = 0;  // INV-RULE findings so far (PublishedRuleWatch)
  // Liveness phase only: a hash of the run's own state that the cluster's fingerprint does
  // not hold and that decides how the run goes on (when the phase began, the probes'
  // progress); 0 in the safety phase.
  uint64_t liveness_key = 0;
};

// kCapped: limits.steps_max ended the run before its liveness phase did (RunReport::capped)
// and nothing else failed it: what was checked holds, liveness was not judged.
// Steps at one virtual millisecond that end a run as a livelock (INV-LIVE) at once. The
// longest legitimate burst of the bundled and random scenarios is about 500.
inline constexpr uint64_t kLivelockSteps = 2000;
// kBusyWindows consecutive windows of kBusySteps steps (windows end at multiples of
// kBusySteps), each spanning less than kBusyWindowMs of virtual time, end a run as a livelock
// (a retry loop without backoff). The longest legitimate busy stretch seen, invalidation
// storms in random/restart_replay_faults seed 29, spans about two such windows and ends.
inline constexpr uint64_t kBusySteps = 5000;
inline constexpr uint64_t kBusyWindows = 4;
inline constexpr int64_t kBusyWindowMs = 1000;

enum class Outcome : uint8_t { kPass, kSafety, kLiveness, kNondeterminism, kCapped };
// "pass", "safety", "liveness", "nondeterminism", "capped".
const char* OutcomeName(Outcome outcome);

struct RunConfig {
  uint64_t seed = 0;
  std::optional<std::string> profile;               // overrides the scenario's profile
  std::vector<std::pair<std::string, bool>> rules;  // applied after the scenario's rules
  const sim::ChoiceList* replay = nullptr;          // replay these choices (seed still
                                                    // drives the workload and swarm mix)
  bool keep_trace = false;         // keep every trace line (excerpts, divergence, jsonl)
  std::FILE* trace_out = nullptr;  // also stream text trace lines here
  size_t excerpt_lines_max = 12;   // trace lines attached to each violation
  // Evaluate every query predicate, and every region's rows against its expression at
  // quiescence, with SQLite as well as the model's evaluator, and stop with an invariant
  // break (exit 70) if they disagree (Oracle and OwnershipChecker::set_cross_check); for tests.
  bool oracle_cross_check = false;
  // For tests: the checker's oracle forgets no version (QueryWatch::set_forget), so no write's
  // rows are packed, and no passed query is retired; a run's verdict and report are the same
  // either way.
  bool oracle_keeps_everything = false;
  // Exploration seams (repartsim explore, shrink, --check-determinism). `chooser`, when set,
  // answers every decision instead of the seeded random driver (still recorded in
  // RunReport::choices). `after_step` runs after every step; returning false ends the run
  // there: RunReport::cut is set and the run is not checked.
  sim::Chooser* chooser = nullptr;
  std::function<bool(const StepView&)> after_step;
  // Called with the decisions taken so far when the run breaks an assertion (exit 70), before
  // the process exits: explore saves them so the path can be replayed. Not with `replay`.
  std::function<void(const sim::ChoiceList&)> on_internal_error;
};

struct HistoryCounts {
  uint64_t writes = 0, acked = 0, rejected = 0, unknown = 0, pending = 0;
  uint64_t queries = 0, queries_ok = 0, queries_failed = 0;
  uint64_t ddls = 0, ddls_done = 0, ddls_failed = 0, ddls_rejected = 0, ddls_unknown = 0;
  // Liveness probes: rows probed, of them acknowledged, and write attempts (in `writes` too).
  uint64_t probes = 0, probes_acked = 0, probe_writes = 0;
};

struct RunReport {
  std::string scenario;  // name
  std::string path;
  std::string profile;  // base profile name
  std::string rules;    // overrides vs the base profile, "name=on,..."
  std::string faults;   // the effective fault mix (after swarm)
  // The features a `shape: swarm` scenario drew for this seed (scenario/swarm_shape.h), in
  // draw order; empty for other scenarios.
  std::vector<std::pair<std::string, std::string>> shape;
  std::string shape_yaml;  // the drawn scenario as YAML (DrawShapedScenario), not in ToJson
  Outcome outcome = Outcome::kPass;
  std::vector<check::Violation> violations;  // decisive first; READ-ANOMALY included, last
  sim::RunSummary summary;
  int64_t time_ms = 0;        // virtual time at the end
  int64_t heal_time_ms = -1;  // when the liveness phase began, -1 if never
  uint64_t heal_step = 0;
  bool quiescent = false;
  bool cut = false;  // RunConfig::after_step ended the run (nothing checked)
  // limits.steps_max ended the run before it became quiescent, in the safety phase or the
  // liveness phase: what needs quiescence (INV-ACK's scan, the probes, INV-LIVE for what is
  // pending) is not checked, so a cap is never judged as a liveness violation. A run whose
  // last kLivelockSteps steps all ran at one virtual millisecond (a loop that lets no time
  // pass, which no cap would end) stops there: `livelock_steps` holds that count and the run
  // is checked for INV-LIVE, never capped.
  bool capped = false;
  uint64_t livelock_steps = 0;
  int64_t livelock_window_ms = 0;  // > 0: those steps spanned this many virtual ms (kBusySteps)
  std::string end_reason;          // "quiescent", "liveness budget spent", "steps_max", ...
  std::string nondeterminism;      // the replay mismatch, when outcome is kNondeterminism
  std::map<std::string, sim::CrashPointStats::Counts> crash_points;
  sim::NetworkCounters network;
  HistoryCounts history;
  uint64_t probe_write_first = 0;        // History write ids >= this are probes (0: none)
  sim::ChoiceList choices;               // recorded (random runs) for replay
  std::vector<std::string> trace_lines;  // when RunConfig::keep_trace
  // The violations grouped by cause, told (run_story.h); when RunConfig::keep_trace.
  std::vector<Story> stories;

  // "seed=.. steps=.. prng_draws=.. trace_hash=0x.. outcome=.."
  std::string SummaryLine() const;
  // The distinct invariant names reported, sorted ("INV-NOOMIT", ...).
  std::vector<std::string> InvariantNames() const;
  // The invariants reported that `expectation` does not allow (Expectation::Allows), sorted.
  std::vector<std::string> Unexpected(const scenario::Expectation& expectation) const;
  // Returns true iff the run meets `expectation`: nothing unexpected was reported and, for
  // violation X, X was reported (READ-ANOMALY counts even though it does not fail a run).
  bool Meets(const scenario::Expectation& expectation) const;
  // {scenario, path, profile, rules, faults, outcome, summary{seed,steps,prng_draws,
  //  trace_hash}, time_ms, end_reason, violations[], crash_points{site:{hits,crashes}},
  //  network{...}, history{...}}
  nlohmann::json ToJson() const;
};

// Runs `scenario` once. Errors only for a bad profile or rule override in `config`.
sim::Result<RunReport> RunScenario(const scenario::Scenario& scenario, const RunConfig& config);

}  // namespace repartsim::run
