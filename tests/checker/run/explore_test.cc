// Goal: `explore` over the bundled small split (scenarios/explore/split_small.yaml): under
// reference the tree with one network fault and no crash is exhausted with no violation, with
// exact run and state counts (a change in them means the model's decisions or fingerprint
// changed); with version-fence-unversioned off the search finds INV-OWN, the counterexample
// replays from its recorded choices, and a scenario pinning its non-default decisions
// (faults.decisions) reproduces it with an ordinary run.
// Method: ExploreScenario with fixed policies; the counts were measured once and are exact.
// The full default policy (one crash, one fault) is in explore_slow_test.cc.
#include "checker/run/explore.h"

#include <gtest/gtest.h>

#include "checker/check/violation.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace explore_test {

scenario::Scenario Load() {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/explore/split_small.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  return s.value();
}

ExploreReport ExploreIt(const scenario::Scenario& s, uint32_t crash_budget,
                        sim::explore::Order order,
                        std::vector<std::pair<std::string, bool>> rules = {},
                        bool subsumption = true) {
  ExploreConfig config;
  config.policy.crash_budget = crash_budget;
  config.policy.subsumption = subsumption;
  config.order = order;
  config.rules = std::move(rules);
  auto r = ExploreScenario(s, config);
  EXPECT_TRUE(r.ok());
  return r.value();
}

TEST(ExploreTest, ReferenceExhaustsOneFaultWithoutViolation) {
  const scenario::Scenario s = Load();
  const ExploreReport x = ExploreIt(s, 0, sim::explore::Order::kDepthFirst);
  EXPECT_TRUE(x.stats.exhausted);
  EXPECT_EQ(x.stats.stop_reason, "exhausted");
  EXPECT_FALSE(x.counterexample.has_value());
  EXPECT_EQ(x.stats.runs, 145u);
  EXPECT_EQ(x.stats.runs_cut, 116u);
  EXPECT_EQ(x.stats.subsumed, 37u);
  EXPECT_EQ(x.stats.states, 2758u);
  EXPECT_EQ(x.stats.unique, 2642u);
  EXPECT_EQ(x.stats.depth_max, 49u);
  // Breadth-first visits the same tree in another order.
  const ExploreReport b = ExploreIt(s, 0, sim::explore::Order::kBreadthFirst);
  EXPECT_TRUE(b.stats.exhausted);
  EXPECT_EQ(b.stats.runs, 145u);
  EXPECT_EQ(b.stats.unique, 2642u);
  // Without budget subsumption only exact repeats are cut: more states, the same runs.
  const ExploreReport exact = ExploreIt(s, 0, sim::explore::Order::kDepthFirst, {}, false);
  EXPECT_TRUE(exact.stats.exhausted);
  EXPECT_EQ(exact.stats.runs, 145u);
  EXPECT_EQ(exact.stats.runs_cut, 115u);
  EXPECT_EQ(exact.stats.subsumed, 0u);
  EXPECT_EQ(exact.stats.states, 2826u);
  EXPECT_EQ(exact.stats.unique, 2711u);
  // With liveness dedup the liveness-phase states are visited too: a few more cuts, a few
  // fewer steps, every run still checked that reaches its end.
  ExploreConfig live;
  live.policy.crash_budget = 0;
  live.liveness_dedup = true;
  auto l = ExploreScenario(s, live);
  ASSERT_TRUE(l.ok());
  EXPECT_TRUE(l.value().stats.exhausted);
  EXPECT_EQ(l.value().stats.runs, 145u);
  EXPECT_EQ(l.value().stats.runs_cut, 120u);
  EXPECT_EQ(l.value().stats.states, 3699u);
  EXPECT_EQ(l.value().stats.unique, 3579u);
  EXPECT_EQ(l.value().liveness_states, 941u);
  EXPECT_EQ(l.value().steps, 9438u);
  EXPECT_EQ(x.steps, 9567u);
}

// The lease race left to the explorer (scenarios/explore/lease_gap_new_region.yaml): under
// greptime breadth-first finds INV-ACK with the same two non-default decisions (the lease
// reply's gap and its length) whether or not subsumption cuts the states reached before with
// less spent, which here are most cuts.
TEST(ExploreTest, LeaseGapShortestCounterexampleSurvivesSubsumption) {
  auto loaded = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                           "/scenarios/explore/lease_gap_new_region.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
  for (bool subsumption : {true, false}) {
    SCOPED_TRACE(subsumption ? "subsumption" : "exact");
    const ExploreReport x =
        ExploreIt(loaded.value(), 1, sim::explore::Order::kBreadthFirst, {}, subsumption);
    EXPECT_TRUE(x.stats.failed);
    EXPECT_EQ(x.stats.runs, 35u);
    EXPECT_EQ(x.stats.states, subsumption ? 471u : 580u);
    EXPECT_EQ(x.stats.subsumed, subsumption ? 33u : 0u);
    ASSERT_TRUE(x.counterexample.has_value());
    ASSERT_FALSE(x.counterexample->violations.empty());
    EXPECT_EQ(x.counterexample->violations.front().invariant, check::Invariant::kAck);
    EXPECT_EQ(x.stats.failing_prefix.size(), 11u);
    std::vector<std::string> non_default;
    for (size_t i = 0; i < x.counterexample->choices.size(); ++i) {
      const sim::Choice& c = x.counterexample->choices.at(i);
      if (c.value != 0) non_default.emplace_back(x.counterexample->choices.label(c));
    }
    EXPECT_EQ(non_default, (std::vector<std::string>{"net.lease_gap", "net.lease_gap_ms"}));
  }
}

TEST(ExploreTest, FenceOffFindsInvOwnAndTheCounterexampleReproduces) {
  scenario::Scenario s = Load();
  const ExploreReport x =
      ExploreIt(s, 0, sim::explore::Order::kDepthFirst, {{"version-fence-unversioned", false}});
  EXPECT_TRUE(x.stats.failed);
  EXPECT_EQ(x.stats.runs, 96u);
  ASSERT_TRUE(x.counterexample.has_value());
  const RunReport& r = *x.counterexample;
  EXPECT_EQ(r.outcome, Outcome::kSafety);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations.front().invariant, check::Invariant::kOwn);
  EXPECT_TRUE(r.nondeterminism.empty());

  // The non-default decisions alone, as a scenario would pin them, give the same run.
  for (size_t i = 0; i < r.choices.size(); ++i) {
    const sim::Choice& c = r.choices.at(i);
    if (c.value != 0) {
      s.faults.decisions.push_back({i, std::string(r.choices.label(c)), c.value});
    }
  }
  ASSERT_EQ(s.faults.decisions.size(), 2u);
  EXPECT_EQ(s.faults.decisions[0].label, "net.delay");
  EXPECT_EQ(s.faults.decisions[1].label, "net.delay_ms");
  RunConfig config;
  config.rules = {{"version-fence-unversioned", false}};
  auto pinned = RunScenario(s, config);
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ(pinned.value().summary.trace_hash, r.summary.trace_hash);
  ASSERT_FALSE(pinned.value().violations.empty());
  EXPECT_EQ(pinned.value().violations.front().invariant, check::Invariant::kOwn);
  EXPECT_EQ(pinned.value().summary.prng_draws, 0u);
}

}  // namespace explore_test
}  // namespace
}  // namespace repartsim::run
