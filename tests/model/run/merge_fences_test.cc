// Goal: the seeds of scenarios/random/merge_faults.yaml that found drop-tombstones,
// route-fenced-reads and the end of operating-region registrations (docs/findings.md M1, M2)
// pass under `reference`, and each fails again, with its exact first invariant, when the
// switch that fixed it is turned off alone. Method: run each seed through the scenario
// runner with one rule override at a time.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/check/violation.h"
#include "model/scenario/loader.h"
#include "model/run/runner.h"

namespace repartsim::scenario {
namespace {

class MergeFencesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded =
        LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/random/merge_faults.yaml");
    ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
    scenario_ = std::move(loaded).value();
  }

  // The set of invariants seed `seed` reports under reference with `rules` applied.
  std::set<std::string> Invariants(uint64_t seed, std::vector<std::pair<std::string, bool>> rules) {
    RunConfig config;
    config.seed = seed;
    config.profile = "reference";
    config.rules = std::move(rules);
    auto report = RunScenario(scenario_, config);
    EXPECT_TRUE(report.ok());
    std::set<std::string> names;
    if (!report.ok()) return names;
    for (const check::Violation& v : report.value().violations) {
      names.insert(std::string(check::InvariantName(v.invariant)));
    }
    return names;
  }

  Scenario scenario_;
};

TEST_F(MergeFencesTest, ReferencePassesTheSeedsThatFoundTheFences) {
  for (uint64_t seed : {423u, 953u, 2559u, 2880u}) {
    EXPECT_EQ(Invariants(seed, {}), std::set<std::string>{}) << "seed " << seed;
  }
}

TEST_F(MergeFencesTest, WithoutDropTombstonesAStaleCreateLosesAnAcknowledgedRow) {
  EXPECT_EQ(Invariants(423, {{"drop-tombstones", false}}),
            (std::set<std::string>{"INV-ACK", "INV-NOOMIT"}));
}

TEST_F(MergeFencesTest, WithoutRouteFencedReadsAnOldPlanMissesOrDoublesRows) {
  EXPECT_EQ(Invariants(2880, {{"route-fenced-reads", false}}),
            std::set<std::string>{"INV-NOOMIT"});
  EXPECT_EQ(Invariants(2559, {{"route-fenced-reads", false}}),
            std::set<std::string>{"INV-NODUP"});
}

}  // namespace
}  // namespace repartsim::scenario
