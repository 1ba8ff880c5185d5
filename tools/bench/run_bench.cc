// Whole checked runs (issue 17): the cost of one run of scenarios/split/split_with_writers.yaml
// (cluster set-up, the timed run through both phases, the end-of-run checker), per run and
// per simulated step, against the engine-only floor kernel (tick_model.h: driver, queue pop
// and push, one decision, one formatted trace line). The split runs at two workload lengths:
// the safety phase (and the workload in it) lasts 12 s, as bundled, or 96 s; a cost linear in
// run length gives the same cost per step at both. Each benchmark iteration is one run, seeds
// 0..9 in turn. Peak heap is the largest number of bytes live at once during a run, counted
// by this executable's operator new/delete (malloc_usable_size of every block) in one more run
// of each length after the timed ones: the counting (atomic updates on every allocation) is
// off while the runs are timed, so it does not weigh on the runs/s figures.
// After the Google Benchmark table it prints a summary: ns per run and per step, runs/s per
// core (CPU time), the ratio per step to the floor, the 96 s / 12 s per-step cost ratio and
// the 96 s / 12 s peak heap ratio. BM_SplitRunBoundedKeys runs the same with a workload of 60
// keys, so that the table stops growing; BM_SplitRunSteadyState also flushes, compacts and
// collects every 4 s, so that memtables, WALs and files stop growing too: the ratios without
// the data's growth.
//   build/bench/run_bench                      (about 10 s on an idle core)
//   build/bench/run_bench --benchmark_filter=Split/12000
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "checker/scenario/scenario_limits.h"
#include "sim/chooser.h"
#include "sim/input_file.h"
#include "sim/simulation.h"
#include "tools/bench/repo_root.h"
#include "tools/bench/tick_model.h"

// ---- heap accounting ---------------------------------------------------------------------------
namespace {
std::atomic<int64_t> g_live{0};
std::atomic<int64_t> g_peak{0};
bool g_counting = false;  // set only while no other thread allocates (between runs)

void* Allocate(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  if (!g_counting) return p;
  const int64_t live = g_live += static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  return p;
}
void Release(void* p) {
  if (p == nullptr) return;
  if (g_counting) g_live -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}
}  // namespace

void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, size_t) noexcept { Release(p); }
void operator delete[](void* p, size_t) noexcept { Release(p); }

namespace repartsim {
namespace {

// How the workload of the split differs from the bundled one.
enum class Variant {
  kBundled,
  kBoundedKeys,  // 60 keys only (host h0 or h1, ts 0, a 0..29): the table stops growing a few
                 // seconds in and later writes replace rows
  kSteadyState,  // the same 60 keys, every region (the split's new one too) flushed and then
                 // compacted every 4 s from 6 s on, and GC every 4 s with no lingering time, as a
                 // database does in the background: memtables, WALs and files stop growing too
};

// The bundled split scenario with its safety phase (and workload) lasting `length_ms`.
const scenario::Scenario& Split(int64_t length_ms, Variant variant = Variant::kBundled) {
  static std::map<std::pair<int64_t, Variant>, scenario::Scenario> cache;
  auto it = cache.find({length_ms, variant});
  if (it == cache.end()) {
    const std::string path = bench::RepoRoot(__FILE__) + "/scenarios/split/split_with_writers.yaml";
    std::string text;
    if (variant == Variant::kSteadyState) {
      // The flushes and compactions are scenario steps: read the file and add them.
      text = sim::ReadInputFile(path, scenario::kScenarioBytesMax, "scenario file").value();
      std::string steps;
      for (int64_t at = 6000; at < length_ms; at += 4000) {
        // `writable`: the split's new region too (`all` names the table's initial regions).
        steps += "  - {at_ms: " + std::to_string(at) + ", flush: writable}\n";
        steps += "  - {at_ms: " + std::to_string(at + 100) + ", compact: all}\n";
      }
      text.insert(text.find("workload:"), steps);
      // GC deletes the compacted inputs (no lingering), every 4 s too.
      const std::string cluster = "cluster: {datanodes: 3, frontends: 2}";
      const size_t at = text.find(cluster);
      if (at != std::string::npos) {
        text.replace(at, cluster.size(),
                     "cluster: {datanodes: 3, frontends: 2, gc_interval_ms: 4000, "
                     "gc_lingering_ms: 0}");
      }
      // The loader refuses steps after the safety phase: lengthen it in the text too.
      const std::string bundled_limit = "time_ms_max: 12000";
      const size_t limit = text.find(bundled_limit);
      if (limit != std::string::npos) {
        text.replace(limit, bundled_limit.size(), "time_ms_max: " + std::to_string(length_ms));
      }
    }
    scenario::Scenario s = variant == Variant::kSteadyState
                               ? scenario::ParseScenario(text, path).value()
                               : scenario::LoadScenarioFile(path).value();
    s.limits.time_ms_max = length_ms;
    s.workload.end_ms = length_ms;
    if (variant != Variant::kBundled) {
      s.workload.columns["host"].strings = {"h0", "h1"};
      s.workload.columns["ts"].min = 0;
      s.workload.columns["ts"].max = 0;
    }
    it = cache.emplace(std::make_pair(length_ms, variant), std::move(s)).first;
  }
  return it->second;
}

void RunSplit(benchmark::State& state, Variant variant) {
  const scenario::Scenario& s = Split(state.range(0), variant);
  uint64_t steps = 0;
  uint64_t runs = 0;
  for (auto _ : state) {
    run::RunConfig config;
    config.seed = runs % 10;
    auto report = run::RunScenario(s, config);
    if (!report.ok() || report.value().outcome != run::Outcome::kPass) {
      state.SkipWithError("the split run did not pass");
      break;
    }
    steps += report.value().summary.steps;
    ++runs;
  }
  // The peak heap of seed 0, counted after the timed loop (which has stopped the clock),
  // relative to the bytes live when the run starts.
  g_live.store(0);
  g_peak.store(0);
  g_counting = true;
  {
    run::RunConfig config;
    auto report = run::RunScenario(s, config);
    benchmark::DoNotOptimize(report.ok());
  }
  g_counting = false;
  const int64_t peak_max = g_peak.load();
  state.SetItemsProcessed(static_cast<int64_t>(steps));  // items = steps
  state.counters["steps_per_run"] = benchmark::Counter(
      static_cast<double>(steps) / static_cast<double>(std::max<uint64_t>(1, runs)));
  state.counters["peak_heap_MB"] = benchmark::Counter(static_cast<double>(peak_max) / 1e6);
}
void BM_SplitRun(benchmark::State& state) { RunSplit(state, Variant::kBundled); }
BENCHMARK(BM_SplitRun)->Arg(12000)->Arg(96000)->Unit(benchmark::kMillisecond);
void BM_SplitRunBoundedKeys(benchmark::State& state) { RunSplit(state, Variant::kBoundedKeys); }
BENCHMARK(BM_SplitRunBoundedKeys)->Arg(12000)->Arg(96000)->Unit(benchmark::kMillisecond);
void BM_SplitRunSteadyState(benchmark::State& state) { RunSplit(state, Variant::kSteadyState); }
BENCHMARK(BM_SplitRunSteadyState)->Arg(12000)->Arg(96000)->Unit(benchmark::kMillisecond);

// The floor: one engine step of the tick model (16 timers) with its trace line formatted.
void BM_Floor(benchmark::State& state) {
  sim::TickModel model;
  for (uint32_t i = 0; i < 16; ++i) model.timers.Push(sim::AtMs(i), i);
  sim::RandomChooser chooser(1);
  sim::Trace trace;
  sim::CrashPlan plan;
  sim::CrashPointStats stats;
  sim::RunOptions options;
  options.steps_max = ~uint64_t{0};
  options.time_ms_max = int64_t{1} << 60;
  sim::Simulation<sim::TickModel> sim(model, chooser, trace, plan, stats, options);
  for (auto _ : state) benchmark::DoNotOptimize(sim.Step());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Floor);

// Keeps each benchmark's CPU time per iteration and counters for the summary.
class Capture : public benchmark::ConsoleReporter {
 public:
  struct Figures {
    double cpu_ns = 0;  // per iteration
    std::map<std::string, double> counters;
  };
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      Figures f;
      f.cpu_ns = run.GetAdjustedCPUTime() * (run.time_unit == benchmark::kMillisecond ? 1e6 : 1.0);
      for (const auto& [name, counter] : run.counters) f.counters[name] = counter.value;
      figures[run.benchmark_name()] = f;
    }
  }
  std::map<std::string, Figures> figures;
};

void PrintSummary(const Capture& capture) {
  const auto find = [&](const std::string& name) -> const Capture::Figures* {
    auto it = capture.figures.find(name);
    return it == capture.figures.end() ? nullptr : &it->second;
  };
  const Capture::Figures* floor = find("BM_Floor");
  std::printf("\nsummary (CPU time; scenarios/split/split_with_writers.yaml, seeds 0..9)\n");
  const std::pair<const char*, const char*> variants[] = {
      {"", "split"}, {"BoundedKeys", "split, 60 keys"}, {"SteadyState", "split, steady state"}};
  for (const auto& [variant, label_text] : variants) {
    std::map<int64_t, std::pair<double, double>> per_step_and_peak;
    const std::string label = label_text;
    for (int64_t length : {12000, 96000}) {
      const Capture::Figures* f =
          find(std::string("BM_SplitRun") + variant + "/" + std::to_string(length));
      if (f == nullptr) continue;
      const double steps = f->counters.at("steps_per_run");
      const double ns_step = f->cpu_ns / steps;
      const double peak = f->counters.at("peak_heap_MB");
      per_step_and_peak[length] = {ns_step, peak};
      std::printf(
          "%s %2lld s: %9.0f ns/run  %6.0f steps/run  %6.0f ns/step  %7.1f runs/s per core  "
          "peak heap %6.2f MB",
          label.c_str(), static_cast<long long>(length / 1000), f->cpu_ns, steps, ns_step,
          1e9 / f->cpu_ns, peak);
      if (floor != nullptr) std::printf("  %5.1fx floor/step", ns_step / floor->cpu_ns);
      std::printf("\n");
    }
    if (per_step_and_peak.size() == 2) {
      const auto& a = per_step_and_peak.at(12000);
      const auto& b = per_step_and_peak.at(96000);
      std::printf("%s, 96 s / 12 s: per-step cost %.2fx, peak heap %.2fx\n", label.c_str(),
                  b.first / a.first, b.second / a.second);
    }
  }
  if (floor != nullptr)
    std::printf("floor: %.0f ns/event (tick model, trace line formatted)\n", floor->cpu_ns);
}

}  // namespace
}  // namespace repartsim

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  repartsim::Capture capture;
  benchmark::RunSpecifiedBenchmarks(&capture);
  repartsim::PrintSummary(capture);
  benchmark::Shutdown();
  return 0;
}
