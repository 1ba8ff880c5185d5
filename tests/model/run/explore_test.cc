// Goal: `explore` over the bundled small split (scenarios/explore/split_small.yaml): under
// reference the tree with one network fault and no crash is exhausted with no violation, with
// exact run and state counts (a change in them means the model's decisions or fingerprint
// changed); with version-fence-unversioned off the search finds INV-OWN, the counterexample
// replays from its recorded choices, and a scenario pinning its non-default decisions
// (faults.decisions) reproduces it with an ordinary run.
// Method: ExploreScenario with fixed policies; the counts were measured once and are exact.
// The full default policy (one crash, one fault) is in explore_slow_test.cc.
#include "model/run/explore.h"

#include <gtest/gtest.h>

#include "model/check/violation.h"
#include "model/scenario/loader.h"

namespace repartsim::scenario {
namespace {

Scenario Load() {
  auto s =
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/explore/split_small.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  return s.value();
}

ExploreReport ExploreIt(const Scenario& s, uint32_t crash_budget, sim::explore::Order order,
                        std::vector<std::pair<std::string, bool>> rules = {}) {
  ExploreConfig config;
  config.policy.crash_budget = crash_budget;
  config.order = order;
  config.rules = std::move(rules);
  auto r = ExploreScenario(s, config);
  EXPECT_TRUE(r.ok());
  return r.value();
}

TEST(ExploreTest, ReferenceExhaustsOneFaultWithoutViolation) {
  const Scenario s = Load();
  const ExploreReport x = ExploreIt(s, 0, sim::explore::Order::kDepthFirst);
  EXPECT_TRUE(x.stats.exhausted);
  EXPECT_EQ(x.stats.stop_reason, "exhausted");
  EXPECT_FALSE(x.counterexample.has_value());
  EXPECT_EQ(x.stats.runs, 145u);
  EXPECT_EQ(x.stats.runs_cut, 115u);
  EXPECT_EQ(x.stats.states, 2826u);
  EXPECT_EQ(x.stats.unique, 2711u);
  EXPECT_EQ(x.stats.depth_max, 49u);
  // Breadth-first visits the same tree in another order.
  const ExploreReport b = ExploreIt(s, 0, sim::explore::Order::kBreadthFirst);
  EXPECT_TRUE(b.stats.exhausted);
  EXPECT_EQ(b.stats.runs, 145u);
  EXPECT_EQ(b.stats.unique, 2711u);
}

TEST(ExploreTest, FenceOffFindsInvOwnAndTheCounterexampleReproduces) {
  Scenario s = Load();
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

}  // namespace
}  // namespace repartsim::scenario
