// Goal: the oracle under frontend resends (Jepsen's :info): a write the frontend resent is
// rejected only when every copy was refused; a copy applied after another copy was refused
// makes it acknowledged; a copy still in flight at the statement deadline leaves it unknown
// (maybe applied), and the row that copy applies later is no phantom.
// Method: the bundled regression scenario scenarios/regressions/0002_resent_write_refused_then_
// applied.yaml under both profiles, with the resend delay of its duplicate step set to 3 s
// (applied), 1 s (refused again) and 6 s (after the 5 s deadline); assert the write's outcome
// line, the frontend's resend lines and the run's outcome.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace resend_oracle_test {

run::RunReport RunResend(int64_t resend_ms, const std::string& profile) {
  auto s = LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                            "/scenarios/regressions/0002_resent_write_refused_then_applied.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  Scenario scenario = s.value();
  size_t rules = 0;
  for (ScriptedStep& step : scenario.steps) {
    auto* action = std::get_if<model::FaultAction>(&step.op);
    auto* rule = action == nullptr ? nullptr : std::get_if<model::MessageRuleOp>(action);
    if (rule == nullptr) continue;
    rule->rule.delay = sim::Ms(resend_ms);
    ++rules;
  }
  EXPECT_EQ(rules, 1u);
  run::RunConfig config;
  config.profile = profile;
  config.keep_trace = true;
  auto report = run::RunScenario(scenario, config);
  EXPECT_TRUE(report.ok());
  return report.value();
}

size_t Count(const run::RunReport& r, const std::string& needle) {
  return std::count_if(r.trace_lines.begin(), r.trace_lines.end(), [&](const std::string& line) {
    return line.find(needle) != std::string::npos;
  });
}

TEST(ResendOracleTest, ACopyAppliedAfterTheFirstWasRefusedAcknowledgesTheWrite) {
  for (const char* profile : {"greptime", "reference"}) {
    const run::RunReport r = RunResend(3000, profile);
    EXPECT_EQ(r.outcome, run::Outcome::kPass) << profile;
    EXPECT_EQ(Count(r, "fe.resend corr="), 1u) << profile;
    EXPECT_EQ(Count(r, "fe.copy_refused statement=2 "), 1u) << profile;
    EXPECT_EQ(Count(r, "fe.write_done id=2 acked"), 1u) << profile;
  }
}

TEST(ResendOracleTest, EveryCopyRefusedKeepsTheWriteRejected) {
  for (const char* profile : {"greptime", "reference"}) {
    const run::RunReport r = RunResend(1000, profile);
    EXPECT_EQ(r.outcome, run::Outcome::kPass) << profile;
    EXPECT_EQ(Count(r, "fe.copy_refused statement=2 "), 1u) << profile;
    EXPECT_EQ(Count(r, "fe.write_done id=2 rejected"), 1u) << profile;
  }
}

TEST(ResendOracleTest, ACopyInFlightAtTheDeadlineLeavesTheWriteUnknown) {
  for (const char* profile : {"greptime", "reference"}) {
    const run::RunReport r = RunResend(6000, profile);
    EXPECT_EQ(r.outcome, run::Outcome::kPass) << profile;
    EXPECT_EQ(Count(r, "fe.copy_refused statement=2 "), 1u) << profile;
    EXPECT_EQ(Count(r, "fe.write_done id=2 unknown error=\"request timed out\""), 1u) << profile;
  }
}

}  // namespace resend_oracle_test
}  // namespace
}  // namespace repartsim::scenario
