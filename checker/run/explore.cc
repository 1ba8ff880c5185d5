#include "checker/run/explore.h"

#include <algorithm>

#include "checker/scenario/crash_sites.h"
#include "model/cluster/cluster.h"
#include "model/protocol/protocol.h"
#include "sim/fingerprint.h"

namespace repartsim::run {

sim::Result<ExploreReport> ExploreScenario(const scenario::Scenario& s,
                                           const ExploreConfig& config) {
  ExploreReport out;
  for (const std::string& site : scenario::KnownCrashSites()) out.crash_points[site];
  RunConfig base;
  base.seed = config.seed;
  base.profile = config.profile;
  base.rules = config.rules;
  base.on_internal_error = config.on_internal_error;
  std::optional<sim::Error> error;
  auto protocol = model::Protocol::FromProfileName(config.profile.value_or(s.profile));
  if (!protocol.ok()) return protocol.error();
  const std::optional<scenario::Expectation> expectation =
      s.ExpectationFor(protocol.value().base_name());
  std::optional<RunReport> failing;
  sim::explore::Explorer explorer(config.policy, config.order, config.states_max,
                                  config.memory_max);
  auto run = [&](sim::explore::ExploreChooser& chooser) {
    RunConfig rc = base;
    rc.chooser = &chooser;
    rc.after_step = [&](const StepView& v) {
      // The search's time and memory bounds, checked inside a path (one long path overran them).
      if (!explorer.Continue(chooser)) return false;
      if (v.healed && !config.liveness_dedup) return true;
      // The replayed prefix was visited by the run that first took it: no key needed.
      if (!chooser.past_prefix()) return true;
      if (v.healed) {
        // No fault or crash is asked in the liveness phase: the budgets left do not matter.
        ++out.liveness_states;
        const uint64_t depth =
            config.policy.depth_max == UINT32_MAX ? 0 : uint64_t{chooser.branches().size()};
        const uint64_t key = sim::Hasher()
                                 .Add(v.cluster.Fingerprint())
                                 .Add(v.liveness_key)
                                 .Add(depth)
                                 .Add(static_cast<uint64_t>(v.rule_violations))
                                 .Finish();
        return explorer.Visit(key, chooser, false);
      }
      // Two runs at the same cluster state have the same future only with the same budgets
      // left: crashes and faults used, and (under a depth bound) branching decisions taken.
      // With subsumption the explorer compares the budgets itself; the key keeps the crashes
      // that the budget did not spend (a scripted crash_at).
      const uint64_t depth =
          config.policy.depth_max == UINT32_MAX ? 0 : uint64_t{chooser.branches().size()};
      sim::Hasher key;
      key.Add(v.cluster.Fingerprint());
      if (config.policy.subsumption) {
        key.Add(v.crashes - chooser.crashes_used());
      } else {
        key.Add(v.crashes).Add(chooser.faults_used());
      }
      key.Add(depth).Add(static_cast<uint64_t>(v.rule_violations));
      return explorer.Visit(key.Finish(), chooser);
    };
    auto report = RunScenario(s, rc);
    if (!report.ok()) {
      error = report.error();
      return sim::explore::RunVerdict{true};
    }
    RunReport& r = report.value();
    out.steps += r.summary.steps;
    out.run_steps_max = std::max(out.run_steps_max, r.summary.steps);
    for (const auto& [site, counts] : r.crash_points) {
      sim::CrashPointStats::Counts& c = out.crash_points[site];
      c.hits += counts.hits > 0;
      c.crashes += counts.crashes > 0;
    }
    const bool failed =
        !r.cut && (expectation ? !r.Unexpected(*expectation).empty()
                               : r.outcome != Outcome::kPass && r.outcome != Outcome::kCapped);
    if (failed) failing = std::move(r);
    return sim::explore::RunVerdict{failed};
  };
  auto progress = [&](const sim::explore::ExploreStats& stats) {
    return !config.progress || config.progress(stats);
  };
  out.stats = explorer.Run(run, progress);
  if (error) return *error;
  if (failing) {
    // Replay the recorded decisions with the trace kept: the report `run` would print.
    RunConfig rc = base;
    rc.replay = &failing->choices;
    rc.keep_trace = true;
    auto replayed = RunScenario(s, rc);
    if (!replayed.ok()) return replayed.error();
    out.counterexample = std::move(replayed).value();
    out.counterexample->choices = failing->choices;
  }
  return out;
}

}  // namespace repartsim::run
