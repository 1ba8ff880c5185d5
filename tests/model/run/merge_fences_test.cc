// Goal: seeds of scenarios/random/merge_faults.yaml that need drop-tombstones and
// route-fenced-reads (docs/findings.md M1, M2) pass under `reference`, and each fails again,
// with its exact invariants, when that switch alone is off. (The seeds were re-drawn when DDL
// became a frontend call and again with the transport timing: sweeps of seeds 0..9999 with
// each switch off found these.) Method: run each seed through the scenario
// runner with one rule override at a time.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/check/violation.h"
#include "model/run/runner.h"
#include "model/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace merge_fences_test {

class MergeFencesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                             "/scenarios/random/merge_faults.yaml");
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

  scenario::Scenario scenario_;
};

TEST_F(MergeFencesTest, ReferencePassesTheSeedsThatFoundTheFences) {
  for (uint64_t seed : {1989u, 5185u, 9784u}) {
    EXPECT_EQ(Invariants(seed, {}), std::set<std::string>{}) << "seed " << seed;
  }
}

// Seed 9784: a CreateRegion of CREATE TABLE, delayed past the merge, re-creates the
// merged-away region 2 on dn3 at 12,892 ms; a stale frontend's write is acknowledged by it and
// lost when a heartbeat closes it. Under reference its tombstone refuses the CreateRegion.
TEST_F(MergeFencesTest, WithoutDropTombstonesAStaleCreateLosesAnAcknowledgedRow) {
  EXPECT_EQ(Invariants(9784, {{"drop-tombstones", false}}), std::set<std::string>{"INV-ACK"});
}

// Since the transport timing of docs/protocol.md section 12, seeds 0..9999 show the doubled
// row only (1989, 5185); the missed-rows variant (seed 4449 before) was not drawn again.
TEST_F(MergeFencesTest, WithoutRouteFencedReadsAnOldPlanDoublesRows) {
  EXPECT_EQ(Invariants(1989, {{"route-fenced-reads", false}}), std::set<std::string>{"INV-NODUP"});
  EXPECT_EQ(Invariants(5185, {{"route-fenced-reads", false}}), std::set<std::string>{"INV-NODUP"});
}

}  // namespace merge_fences_test
}  // namespace
}  // namespace repartsim::run
