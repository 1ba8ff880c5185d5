// Goal: a run that limits.steps_max ends before its liveness phase ends is `capped`, never
// INV-LIVE, whether the cap falls in the liveness phase (random/restart_replay_faults seed 29
// at 1,300 steps, after faults healed at step 1128; before, such a cut was reported as "procedure
// 2 did not end within N steps after faults healed") or in the safety phase (before: "faults
// healed at step 0" and an INV-LIVE never tested, issue 54 R15); the same seed with the
// scenario's own cap passes; a capped run's exit code is 4 and its JSON says so. A parent that
// re-dispatches a failing group (greptime/rollback_after_applied_manifest with
// idempotent-redispatch off) waits for the procedure framework's backoff between tries, so its
// run lets virtual time pass and ends as INV-LIVE when the liveness budget is spent: neither a
// cap nor a livelock (before the backoff it looped at one millisecond, a livelock).
// Method: the bundled scenarios, the random one with its cap lowered in memory; fixed seeds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "checker/campaign/exit_code.h"
#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {

RunReport RunCapped(uint64_t steps_max, uint64_t seed,
                    const std::string& file = "random/restart_replay_faults.yaml",
                    std::vector<std::pair<std::string, bool>> rules = {}) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/" + file);
  EXPECT_TRUE(s.ok()) << s.error().Format();
  scenario::Scenario capped = s.value();
  if (steps_max > 0) capped.limits.steps_max = steps_max;
  RunConfig config;
  config.seed = seed;
  config.profile = "reference";
  config.rules = std::move(rules);
  auto report = RunScenario(capped, config);
  EXPECT_TRUE(report.ok());
  return report.value();
}

TEST(CappedRunTest, CapInTheLivenessPhaseIsCappedNotLiveness) {
  const RunReport r = RunCapped(1300, 29);
  EXPECT_EQ(r.outcome, Outcome::kCapped) << r.SummaryLine();
  EXPECT_TRUE(r.capped);
  EXPECT_FALSE(r.quiescent);
  EXPECT_TRUE(r.violations.empty());
  EXPECT_EQ(r.summary.steps, 1300u);
  EXPECT_EQ(r.end_reason, "steps_max (1300) reached in the liveness phase");
  EXPECT_GE(r.heal_time_ms, 0);
  EXPECT_EQ(campaign::ExitCodeFor(r.outcome), 4);
  const nlohmann::json j = r.ToJson();
  EXPECT_EQ(j.at("outcome"), "capped");
  EXPECT_EQ(j.at("capped"), true);
}

TEST(CappedRunTest, TheScenariosOwnCapPasses) {
  const RunReport r = RunCapped(0, 29);
  EXPECT_EQ(r.outcome, Outcome::kPass) << r.SummaryLine();
  EXPECT_FALSE(r.capped);
  EXPECT_TRUE(r.quiescent);
  EXPECT_EQ(r.summary.steps, 1424u);
}

TEST(CappedRunTest, CapInTheSafetyPhaseNeverHealed) {
  const RunReport r = RunCapped(300, 0);
  EXPECT_EQ(r.outcome, Outcome::kCapped) << r.SummaryLine();
  EXPECT_EQ(r.end_reason, "steps_max (300) reached in the safety phase");
  EXPECT_EQ(r.heal_time_ms, -1);
  EXPECT_TRUE(r.violations.empty());
}

TEST(CappedRunTest, AReDispatchLoopWaitsForTheBackoffAndEndsAsLivenessNotALivelock) {
  const RunReport r = RunCapped(0, 0, "greptime/rollback_after_applied_manifest.yaml",
                                {{"idempotent-redispatch", false}});
  EXPECT_EQ(r.outcome, Outcome::kLiveness) << r.SummaryLine();
  EXPECT_FALSE(r.capped);
  EXPECT_EQ(r.livelock_steps, 0u);
  EXPECT_EQ(r.summary.steps, 482u);
  EXPECT_EQ(r.end_reason, "liveness budget (60000 ms) spent");
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].invariant, check::Invariant::kLive);
}

}  // namespace
}  // namespace repartsim::run
