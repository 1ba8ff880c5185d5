// Sweep throughput: runs per second of the bundled split scenario, sequentially (the unit
// of `sweep --jobs 1`) and with 2 worker processes (`--jobs 2`: fork, as the sweep verb
// does). Each benchmark iteration runs kRuns seeds; items_per_second is runs/s.
#include <benchmark/benchmark.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tools/bench/repo_root.h"

namespace {

constexpr uint64_t kRuns = 8;

const repartsim::scenario::Scenario& Split() {
  static const repartsim::scenario::Scenario s =
      repartsim::scenario::LoadScenarioFile(repartsim::bench::RepoRoot(__FILE__) +
                                            "/scenarios/split/split_with_writers.yaml")
          .value();
  return s;
}

void RunSeeds(uint64_t first, uint64_t stride, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    repartsim::run::RunConfig config;
    config.seed = first + i * stride;
    auto report = repartsim::run::RunScenario(Split(), config);
    benchmark::DoNotOptimize(report.value().summary.trace_hash);
  }
}

void BM_SweepSplit(benchmark::State& state) {
  const uint64_t jobs = static_cast<uint64_t>(state.range(0));
  Split();
  uint64_t base = 0;
  for (auto _ : state) {
    std::vector<pid_t> pids;
    for (uint64_t w = 1; w < jobs; ++w) {
      const pid_t pid = fork();
      if (pid == 0) {
        RunSeeds(base + w, jobs, kRuns / jobs);
        _exit(0);
      }
      pids.push_back(pid);
    }
    RunSeeds(base, jobs, kRuns / jobs);
    for (pid_t pid : pids) waitpid(pid, nullptr, 0);
    base += kRuns;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kRuns));
}
BENCHMARK(BM_SweepSplit)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
