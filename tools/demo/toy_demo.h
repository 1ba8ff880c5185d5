// Runs of the toy system for tests, benchmarks and the `repartsim demo` job.
// RunToy drives one ToySystem with the given chooser and trace under the standard toy limits
// and crash plan; the seed only labels the summary (the chooser holds the randomness).
// RunToySweep runs seeds [seed_first, seed_first + seed_count) with RandomChooser(seed),
// timed driver, trace hashed but not kept; deterministic for a given range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/chooser.h"
#include "sim/crash_points.h"
#include "sim/simulation.h"
#include "sim/trace.h"
#include "tools/demo/toy_system.h"

namespace repartsim::demo {

// Standard limits of a toy run: time_ms_max 1000, steps_max 5000.
sim::RunOptions ToyRunOptions(uint64_t seed, sim::DriverKind driver);
// Standard crash plan: every toy crash point at 1/150.
sim::CrashPlan ToyCrashPlan();

struct ToyRunResult {
  sim::RunResult run;
  uint64_t tokens_finished = 0;
  uint64_t crashes = 0;
  uint64_t final_fingerprint = 0;
  sim::NetworkCounters network;
  sim::CrashPointStats crash_stats;
};

ToyRunResult RunToy(uint64_t seed, sim::Chooser& chooser, sim::Trace& trace,
                    sim::DriverKind driver = sim::DriverKind::kTimed, const ToyConfig& config = {},
                    const sim::CrashPlan& plan = ToyCrashPlan());

struct ToyDemoResult {
  std::vector<std::string> summaries;  // sim::RunSummary::ToString() per seed, in seed order
  uint64_t runs = 0;
  uint64_t total_steps = 0;
  uint64_t distinct_hashes = 0;  // distinct trace_hash values among the runs
};

ToyDemoResult RunToySweep(uint64_t seed_first, uint64_t seed_count);

}  // namespace repartsim::demo
