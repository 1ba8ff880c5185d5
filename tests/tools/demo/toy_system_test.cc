// Goal: the toy system behaves as documented (tokens travel the ring, crashes lose volatile
// state and restart from durable state, faults are visible in counters), is a value type
// whose copies evolve identically, and RunToySweep reports consistent aggregates.
// Method: runs with faults switched off or scripted, exact trace lines and counters checked.
#include <gtest/gtest.h>

#include <algorithm>

#include "tools/demo/toy_demo.h"

namespace repartsim::demo {
namespace {
namespace toy_system_test {

ToyConfig CalmConfig() {
  ToyConfig config;
  config.faults = sim::FaultProfile{};
  config.partition_ratio = sim::Ratio::Never();
  return config;
}

bool HasLine(const sim::Trace& trace, std::string_view needle) {
  return std::any_of(trace.lines().begin(), trace.lines().end(),
                     [&](const std::string& l) { return l.find(needle) != std::string::npos; });
}

TEST(ToySystemTest, WithoutFaultsEveryTokenFinishes) {
  sim::RandomChooser chooser(1);
  sim::Trace trace;
  trace.KeepLines(true);
  const ToyRunResult r =
      RunToy(1, chooser, trace, sim::DriverKind::kTimed, CalmConfig(), sim::CrashPlan());
  EXPECT_EQ(r.run.outcome, sim::RunOutcome::kTimeMax);
  EXPECT_EQ(r.tokens_finished, 3u);
  EXPECT_EQ(r.crashes, 0u);
  EXPECT_EQ(chooser.choice_count(), 0u);  // nothing unforced was asked
  EXPECT_EQ(r.network.dropped_fault + r.network.dropped_partition + r.network.dropped_down, 0u);
  EXPECT_EQ(trace.lines()[0], "0 0 n0 start token=0");
  EXPECT_EQ(trace.lines()[3], "3 1 n1 recv from=0 msg=ping token=0 hops=0");
  EXPECT_TRUE(HasLine(trace, "finish token=2"));
}

TEST(ToySystemTest, ScriptedCrashLosesVolatileStateAndRestartsFromDurable) {
  sim::CrashPlan plan;
  plan.Script("toy.recv", 1);
  sim::RandomChooser chooser(1);
  sim::Trace trace;
  trace.KeepLines(true);
  const ToyRunResult r = RunToy(1, chooser, trace, sim::DriverKind::kTimed, CalmConfig(), plan);
  EXPECT_EQ(r.crashes, 1u);
  EXPECT_EQ(trace.lines()[3], "3 1 n1 recv from=0 msg=ping token=0 hops=0");
  // n1's own ping of token 1 (to n2) was still in flight: it is lost with the crash.
  EXPECT_EQ(trace.lines()[4], "3 1 n1 crash site=toy.recv lost_msgs=1");
  EXPECT_TRUE(HasLine(trace, "51 n1 restart incarnation=1"));
  // n0 retransmits its unacknowledged ping, so token 0 still finishes; token 1 is gone for
  // good because the only record of it (n1's outstanding list) was volatile.
  EXPECT_TRUE(HasLine(trace, "n0 retry token=0 hops=0"));
  EXPECT_TRUE(HasLine(trace, "finish token=0"));
  EXPECT_FALSE(HasLine(trace, "finish token=1"));
  EXPECT_EQ(r.tokens_finished, 2u);
  EXPECT_EQ(r.crash_stats.Get("toy.recv").crashes, 1u);
}

TEST(ToySystemTest, NodeCrashAndRestartKeepOnlyDurableState) {
  ToyNode node;
  node.persisted_hops = {3, 0};
  node.persisted_received = 4;
  node.seen_hops = {5, 2};
  node.received = 9;
  node.outstanding.push_back(OutstandingPing{});
  node.Crash();
  EXPECT_EQ(node.status(), NodeStatus::kDown);
  EXPECT_EQ(node.seen_hops, (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(node.received, 0u);
  EXPECT_TRUE(node.outstanding.empty());
  node.Restart();
  EXPECT_EQ(node.status(), NodeStatus::kUp);
  EXPECT_EQ(node.seen_hops, (std::vector<uint32_t>{3, 0}));
  EXPECT_EQ(node.received, 4u);
  EXPECT_EQ(node.incarnation, 1u);
}

TEST(ToySystemTest, DefaultFaultsShowUpInCounters) {
  sim::NetworkCounters total;
  uint64_t crashes = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    sim::RandomChooser chooser(seed);
    sim::Trace trace;
    const ToyRunResult r = RunToy(seed, chooser, trace);
    total.dropped_fault += r.network.dropped_fault;
    total.dropped_partition += r.network.dropped_partition;
    total.dropped_down += r.network.dropped_down;
    total.duplicated += r.network.duplicated;
    total.delayed += r.network.delayed;
    crashes += r.crashes;
  }
  EXPECT_GT(total.dropped_fault, 0u);
  EXPECT_GT(total.dropped_partition, 0u);
  EXPECT_GT(total.dropped_down, 0u);
  EXPECT_GT(total.duplicated, 0u);
  EXPECT_GT(total.delayed, 0u);
  EXPECT_GT(crashes, 0u);
}

TEST(ToySystemTest, CopiedModelEvolvesIdenticallyUnderCopiedChoosers) {
  ToySystem system{ToyConfig{}};
  sim::RandomChooser chooser(9);
  sim::Trace trace;
  sim::CrashPlan plan = ToyCrashPlan();
  sim::CrashPointStats stats;
  sim::Simulation<ToySystem> sim(system, chooser, trace, plan, stats,
                                 ToyRunOptions(9, sim::DriverKind::kTimed));
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(sim.Step());
  ToySystem copy = system;
  sim::RandomChooser chooser_copy = chooser;
  EXPECT_EQ(copy.Fingerprint(), system.Fingerprint());
  sim::Trace trace_copy;
  sim::CrashPointStats stats_copy;
  sim::RunOptions options = ToyRunOptions(9, sim::DriverKind::kTimed);
  sim::Simulation<ToySystem> sim_copy(copy, chooser_copy, trace_copy, plan, stats_copy, options);
  // The copy's driver starts at step 0 and time 0, which cannot change decisions: the model
  // carries its own clock-stamped events.
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(sim.Step());
    ASSERT_TRUE(sim_copy.Step());
    ASSERT_EQ(copy.Fingerprint(), system.Fingerprint()) << "step " << i;
  }
}

TEST(ToySystemTest, FingerprintDistinguishesStates) {
  ToySystem a{ToyConfig{}};
  ToySystem b{ToyConfig{}};
  EXPECT_EQ(a.Fingerprint(), b.Fingerprint());
  sim::RandomChooser chooser(1);
  sim::Trace trace;
  sim::CrashPlan plan;
  sim::CrashPointStats stats;
  sim::Simulation<ToySystem> sim(a, chooser, trace, plan, stats, sim::RunOptions{});
  ASSERT_TRUE(sim.Step());
  EXPECT_NE(a.Fingerprint(), b.Fingerprint());
}

TEST(ToyDemoTest, SweepReportsPerSeedSummariesAndAggregates) {
  const ToyDemoResult a = RunToySweep(10, 25);
  const ToyDemoResult b = RunToySweep(10, 25);
  EXPECT_EQ(a.runs, 25u);
  ASSERT_EQ(a.summaries.size(), 25u);
  EXPECT_EQ(a.summaries[0].rfind("seed=10 steps=", 0), 0u);
  EXPECT_EQ(a.summaries[24].rfind("seed=34 steps=", 0), 0u);
  EXPECT_EQ(a.distinct_hashes, 25u);
  EXPECT_GT(a.total_steps, 25u * 100);
  EXPECT_EQ(a.summaries, b.summaries);
  EXPECT_EQ(a.total_steps, b.total_steps);
  sim::RandomChooser chooser(10);
  sim::Trace trace;
  EXPECT_EQ(a.summaries[0], RunToy(10, chooser, trace).run.summary.ToString());
}

}  // namespace toy_system_test
}  // namespace
}  // namespace repartsim::demo
