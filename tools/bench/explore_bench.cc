// Exhaustive exploration (issue 15): states/s and unique states of `repartsim explore` on
// scenarios/explore/split_small.yaml (reference profile, 3 values per numeric choice), one
// exhaustive search per benchmark iteration, side by side for each budget setting. Counters:
// states (visits past the replayed prefixes), unique (distinct state keys), runs, steps
// (simulated, replays included) per search, and states/s and steps/s per core (CPU time).
// Each budget setting runs with the default reductions, without budget subsumption, and with
// liveness dedup (checker/run/explore.h), side by side; the full default policy (one crash, one
// fault: about 40 s) is left to tests/checker/run/explore_slow_test.cc.
// The search must end exhausted; a violation or a stop fails the benchmark.
//   build/bench/explore_bench                             (about 15 s on an idle core)
//   build/bench/explore_bench --benchmark_filter=crash0
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "checker/run/explore.h"
#include "checker/scenario/loader.h"
#include "tools/bench/repo_root.h"

namespace {

using repartsim::run::ExploreConfig;

const repartsim::scenario::Scenario& SplitSmall() {
  static const repartsim::scenario::Scenario s =
      repartsim::scenario::LoadScenarioFile(repartsim::bench::RepoRoot(__FILE__) +
                                            "/scenarios/explore/split_small.yaml")
          .value();
  return s;
}

// Which reductions a search uses: the default (budget subsumption on, liveness dedup off),
// without subsumption (only exact repeats cut), or with liveness dedup added.
enum class Reductions { kDefault, kNoSubsumption, kLivenessDedup };

// One exhaustive search per iteration with the given crash and fault budgets.
void BM_Explore(benchmark::State& state, uint32_t crash_budget, uint32_t fault_budget,
                Reductions reductions) {
  const repartsim::scenario::Scenario& s = SplitSmall();
  ExploreConfig config;
  config.policy.crash_budget = crash_budget;
  config.policy.fault_budget = fault_budget;
  config.policy.subsumption = reductions != Reductions::kNoSubsumption;
  config.liveness_dedup = reductions == Reductions::kLivenessDedup;
  uint64_t states = 0, unique = 0, runs = 0, steps = 0;
  for (auto _ : state) {
    auto report = repartsim::run::ExploreScenario(s, config);
    if (!report.ok() || !report.value().stats.exhausted) {
      state.SkipWithError("the search did not end exhausted");
      return;
    }
    states = report.value().stats.states;
    unique = report.value().stats.unique;
    runs = report.value().stats.runs;
    steps = report.value().steps;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["states"] = benchmark::Counter(static_cast<double>(states));
  state.counters["unique"] = benchmark::Counter(static_cast<double>(unique));
  state.counters["runs"] = benchmark::Counter(static_cast<double>(runs));
  state.counters["steps"] = benchmark::Counter(static_cast<double>(steps));
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(states) * n, benchmark::Counter::kIsRate);
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(steps) * n, benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_Explore, crash0, 0, 1, Reductions::kDefault)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Explore, crash0_no_subsumption, 0, 1, Reductions::kNoSubsumption)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Explore, crash0_liveness_dedup, 0, 1, Reductions::kLivenessDedup)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Explore, fault0, 1, 0, Reductions::kDefault)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Explore, fault0_no_subsumption, 1, 0, Reductions::kNoSubsumption)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Explore, fault0_liveness_dedup, 1, 0, Reductions::kLivenessDedup)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
