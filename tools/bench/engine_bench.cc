// Engine throughput: simulated events per second of the toy system (timed and untimed
// drivers, trace hashed only or lines kept), the driver loop on a minimal one-timer model,
// and bare priority-queue steps as the baseline the engine's per-event cost is compared to
// (the engine's per-event cost should stay a small multiple of it). Reports items_per_second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <queue>
#include <tuple>
#include <vector>

#include "sim/chooser.h"
#include "sim/event_queue.h"
#include "sim/simulation.h"
#include "tools/bench/tick_model.h"
#include "tools/demo/toy_demo.h"

namespace repartsim::sim {
namespace {

void RunToyBench(benchmark::State& state, DriverKind driver, bool keep_lines) {
  uint64_t seed = 1;
  uint64_t steps = 0;
  for (auto _ : state) {
    RandomChooser chooser(seed);
    Trace trace;
    trace.KeepLines(keep_lines);
    const demo::ToyRunResult r = demo::RunToy(seed, chooser, trace, driver);
    benchmark::DoNotOptimize(r.run.summary.trace_hash);
    steps += r.run.steps;
    ++seed;
  }
  state.SetItemsProcessed(static_cast<int64_t>(steps));
  state.counters["steps_per_run"] =
      benchmark::Counter(static_cast<double>(steps) / static_cast<double>(state.iterations()));
}

void BM_ToyRunTimed(benchmark::State& state) { RunToyBench(state, DriverKind::kTimed, false); }
void BM_ToyRunTimedKeepLines(benchmark::State& state) {
  RunToyBench(state, DriverKind::kTimed, true);
}
void BM_ToyRunUntimed(benchmark::State& state) { RunToyBench(state, DriverKind::kUntimed, false); }

// Minimal model (tick_model.h): isolates the driver overhead.
void DriverStep(benchmark::State& state, bool log) {
  const uint32_t width = static_cast<uint32_t>(state.range(0));
  TickModel model;
  model.log = log;
  for (uint32_t i = 0; i < width; ++i) model.timers.Push(AtMs(i), i);
  RandomChooser chooser(1);
  Trace trace;
  CrashPlan plan;
  CrashPointStats stats;
  RunOptions options;
  options.steps_max = ~uint64_t{0};
  options.time_ms_max = int64_t{1} << 60;
  Simulation<TickModel> sim(model, chooser, trace, plan, stats, options);
  for (auto _ : state) benchmark::DoNotOptimize(sim.Step());
  state.SetItemsProcessed(state.iterations());
}

void BM_DriverStepTickModel(benchmark::State& state) { DriverStep(state, true); }
// The same step without the trace line: driver + queue + one Chooser decision.
void BM_DriverStepTickModelNoTrace(benchmark::State& state) { DriverStep(state, false); }

// Baseline: one pop + one push on std::priority_queue ordered by (time, seq), with the
// same delay draw as the tick model.
void BM_BarePriorityQueueStep(benchmark::State& state) {
  using Item = std::tuple<int64_t, uint64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  const uint32_t width = static_cast<uint32_t>(state.range(0));
  uint64_t seq = 0;
  for (uint32_t i = 0; i < width; ++i) queue.emplace(i, seq++, i);
  Prng prng(1);
  for (auto _ : state) {
    const Item top = queue.top();
    queue.pop();
    queue.emplace(std::get<0>(top) + 1 + static_cast<int64_t>(prng.Below(8)), seq++,
                  std::get<2>(top));
    benchmark::DoNotOptimize(queue.top());
  }
  state.SetItemsProcessed(state.iterations());
}

// The engine's EventQueue alone, same workload as the baseline.
void BM_EventQueueStep(benchmark::State& state) {
  EventQueue<uint32_t> queue;
  const uint32_t width = static_cast<uint32_t>(state.range(0));
  for (uint32_t i = 0; i < width; ++i) queue.Push(AtMs(i), i);
  Prng prng(1);
  for (auto _ : state) {
    const auto e = queue.Pop();
    queue.Push(e.at + Ms(1 + static_cast<int64_t>(prng.Below(8))), e.payload);
    benchmark::DoNotOptimize(queue.Top());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_TraceRecordHashOnly(benchmark::State& state) {
  Trace trace;
  uint64_t i = 0;
  for (auto _ : state) {
    trace.SetClock(i, AtMs(static_cast<int64_t>(i)));
    trace.Record(3, "recv", Detail().Add("from", uint64_t{1}).Add("token", i).view());
    ++i;
  }
  benchmark::DoNotOptimize(trace.hash());
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_ToyRunTimed);
BENCHMARK(BM_ToyRunTimedKeepLines);
BENCHMARK(BM_ToyRunUntimed);
BENCHMARK(BM_DriverStepTickModel)->Arg(4)->Arg(16);
BENCHMARK(BM_DriverStepTickModelNoTrace)->Arg(4)->Arg(16);
BENCHMARK(BM_BarePriorityQueueStep)->Arg(4)->Arg(16);
BENCHMARK(BM_EventQueueStep)->Arg(4)->Arg(16);
BENCHMARK(BM_TraceRecordHashOnly);

}  // namespace
}  // namespace repartsim::sim

BENCHMARK_MAIN();
