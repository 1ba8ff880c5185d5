#include "tools/demo/toy_demo.h"

#include <algorithm>

namespace repartsim::demo {

sim::RunOptions ToyRunOptions(uint64_t seed, sim::DriverKind driver) {
  sim::RunOptions options;
  options.driver = driver;
  options.steps_max = 5000;
  options.time_ms_max = 1000;
  options.seed = seed;
  return options;
}

sim::CrashPlan ToyCrashPlan() { return sim::CrashPlan(sim::Ratio{1, 150}); }

ToyRunResult RunToy(uint64_t seed, sim::Chooser& chooser, sim::Trace& trace, sim::DriverKind driver,
                    const ToyConfig& config, const sim::CrashPlan& plan) {
  ToySystem system(config);
  ToyRunResult result;
  sim::Simulation<ToySystem> sim(system, chooser, trace, plan, result.crash_stats,
                                 ToyRunOptions(seed, driver));
  result.run = sim.Run();
  result.tokens_finished = system.tokens_finished();
  result.crashes = system.crashes();
  result.final_fingerprint = system.Fingerprint();
  result.network = system.network().counters();
  return result;
}

ToyDemoResult RunToySweep(uint64_t seed_first, uint64_t seed_count) {
  ToyDemoResult demo;
  std::vector<uint64_t> hashes;
  hashes.reserve(seed_count);
  for (uint64_t i = 0; i < seed_count; ++i) {
    const uint64_t seed = seed_first + i;
    sim::RandomChooser chooser(seed);
    sim::Trace trace;
    const ToyRunResult r = RunToy(seed, chooser, trace);
    demo.summaries.push_back(r.run.summary.ToString());
    ++demo.runs;
    demo.total_steps += r.run.steps;
    hashes.push_back(r.run.summary.trace_hash);
  }
  std::sort(hashes.begin(), hashes.end());
  demo.distinct_hashes =
      static_cast<uint64_t>(std::unique(hashes.begin(), hashes.end()) - hashes.begin());
  return demo;
}

}  // namespace repartsim::demo
