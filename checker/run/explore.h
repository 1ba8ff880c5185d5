// Exhaustive exploration of one scenario (repartsim explore): the generic search of
// sim/explore/explorer.h over the decisions of the scenario runner. Each run is an ordinary
// RunScenario run (the timed driver, both phases, the same checks as `run`) whose decisions
// come from the search instead of the seed; the seed still draws the random workload and the
// swarm mix, so a scenario with scripted steps only explores the same tree for every seed.
// The branching decisions are the scenario's possible faults (every Chance whose ratio is
// neither 0 nor 1: crash points, drops, delays, resets, pauses, lease gaps) and every Choose
// (delay lengths, backoff noise), shaped by the DecisionPolicy (value sampling, crash and
// fault budgets, depth). After each safety-phase step the state key (the cluster's
// Fingerprint, the crashes so far and the INV-RULE findings so far) is visited; a visited state
// ends the run. Liveness-phase steps are visited, optionally, with a key of their own (the
// fingerprint, the time the phase began and the probes' progress, StepView::liveness_key); no fault
// or crash is asked there, so the budgets spent do not count), if ExploreConfig::liveness_dedup. A
// run that reaches its end is checked as `run` checks it; a run that reports an invariant the
// scenario's expectation for the profile does not allow (any violation when it states none) stops
// the search with that run as the counterexample. Limits: the key leaves out the crash-point hit
// counters, so a scenario with a scripted `crash_at` may merge states that differ in how close the
// scripted crash is, and the step count (steps_max) is in no key.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"
#include "sim/explore/explorer.h"
#include "sim/result.h"

namespace repartsim::run {

struct ExploreConfig {
  uint64_t seed = 0;
  std::optional<std::string> profile;
  std::vector<std::pair<std::string, bool>> rules;
  sim::explore::DecisionPolicy policy;
  sim::explore::Order order = sim::explore::Order::kDepthFirst;
  uint64_t states_max = UINT64_MAX;
  // The bound on the search's own memory (its queue and tables, estimated).
  uint64_t memory_max = sim::explore::kExploreMemoryMaxDefault;
  // Liveness-phase steps are visited too, keyed by the fingerprint and the probes' progress
  // (StepView::liveness_key); off (the default), the liveness phase of every run is run to
  // its end. Off by default: virtual time is in the fingerprint and two paths seldom meet
  // again after a fault, so the cuts rarely pay for the fingerprints (docs/explore.md).
  bool liveness_dedup = false;
  // Called after every run with the running totals; returning false stops the search.
  std::function<bool(const sim::explore::ExploreStats&)> progress;
  // RunConfig::on_internal_error of every path: a path that breaks an assertion (exit 70) is
  // a counterexample too, and this keeps its decisions before the process exits.
  std::function<void(const sim::ChoiceList&)> on_internal_error;
};

struct ExploreReport {
  sim::explore::ExploreStats stats;
  uint64_t steps = 0;            // simulation steps executed, replayed prefixes included
  uint64_t run_steps_max = 0;    // the longest run, in steps
  uint64_t liveness_states = 0;  // of the states, those of the liveness phase
  // Per known crash site: in how many runs it was hit, in how many it crashed.
  std::map<std::string, sim::CrashPointStats::Counts> crash_points;
  // The failing run, replayed from its recorded choices with the trace kept.
  std::optional<RunReport> counterexample;
};

// Errors only for a bad profile or rule override in `config`.
sim::Result<ExploreReport> ExploreScenario(const scenario::Scenario& scenario,
                                           const ExploreConfig& config);

}  // namespace repartsim::run
