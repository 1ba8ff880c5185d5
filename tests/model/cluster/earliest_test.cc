// Goal: Cluster::Earliest (the timed driver's fast path) picks exactly the event that
// sim::EarliestEvent picks from the whole Enabled() list, in every state a bundled run passes
// through: pauses, held messages, armed steps, lease gaps, crashes and restarts included.
// Method: every bundled scenario, seeds 0 and 1 under the reference profile; after each step
// (the state the next step starts from) both picks are compared field by field, and the
// number of compared states is checked to be non-trivial.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "model/cluster/cluster.h"
#include "tests/checker/scenario/bundled_scenarios.h"

namespace repartsim::model {
namespace {
namespace earliest_test {

std::string Describe(const sim::EnabledEvent& e) {
  return "at=" + std::to_string(e.at.ms) + " seq=" + std::to_string(e.seq) +
         " node=" + std::to_string(e.node) + " kind=" + std::to_string(e.kind) +
         " ref=" + std::to_string(e.ref);
}

// "" when both picks agree in `cluster`'s current state, else both picks.
std::string Mismatch(const Cluster& cluster) {
  std::vector<sim::EnabledEvent> all;
  cluster.Enabled(all);
  sim::EnabledEvent fast;
  const bool found = cluster.Earliest(fast);
  if (all.empty()) return found ? "Earliest found " + Describe(fast) + " in an empty list" : "";
  if (!found) return "Earliest found nothing, the list has " + std::to_string(all.size());
  const sim::EnabledEvent& slow = all[sim::EarliestEvent(all)];
  if (fast.at == slow.at && fast.seq == slow.seq && fast.node == slow.node &&
      fast.kind == slow.kind && fast.ref == slow.ref) {
    return "";
  }
  return "Earliest " + Describe(fast) + " vs EarliestEvent " + Describe(slow);
}

TEST(EarliestTest, PicksWhatEarliestEventPicksInEveryStateOfTheBundledRuns) {
  uint64_t states = 0;
  for (const std::string& path : scenario::BundledScenarios()) {
    auto loaded = scenario::LoadScenarioFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
    for (uint64_t seed : {0, 1}) {
      std::string first;
      run::RunConfig config;
      config.seed = seed;
      config.profile = "reference";
      config.after_step = [&](const run::StepView& view) {
        ++states;
        if (first.empty()) {
          const std::string m = Mismatch(view.cluster);
          if (!m.empty()) first = "step " + std::to_string(view.step) + ": " + m;
        }
        return true;
      };
      auto report = run::RunScenario(loaded.value(), config);
      ASSERT_TRUE(report.ok());
      EXPECT_EQ(first, "") << path << " seed " << seed;
    }
  }
  EXPECT_GT(states, 100000u);
}

// A fresh cluster: both picks agree on the first heartbeat (dn1 at 1 ms).
TEST(EarliestTest, AgreesOnAFreshClusterFirstHeartbeat) {
  Cluster cluster(ClusterConfig{}, Protocol::Reference());
  EXPECT_EQ(Mismatch(cluster), "");
  sim::EnabledEvent e;
  ASSERT_TRUE(cluster.Earliest(e));  // heartbeats are always enabled
  EXPECT_EQ(e.kind, Cluster::kHeartbeat);
  EXPECT_EQ(e.at.ms, 1);
}

}  // namespace earliest_test
}  // namespace
}  // namespace repartsim::model
