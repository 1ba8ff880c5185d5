// Goal: under roll-forward-after-commit a parent whose group failed after the commit point
// re-dispatches it only after the procedure framework's retry backoff (Collect returns a
// retryable error; GreptimeDB's runner retries such a step with an exponential backoff up to a
// maximum, src/common/procedure/src/local/runner.rs, Runner::execute_once_with_retry). Before
// issue 53 the parent re-dispatched at once: in greptime/replayed_entry_skipped_on_restart
// (reference, seed 0) 248 times in 0.5 simulated seconds, every 2 ms, while the group's
// region stayed closed after its failed replay.
// Method: the bundled scenario's run with its trace; the "rolling forward" retries' times.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::model {
namespace {
namespace roll_forward_backoff_test {

TEST(RollForwardBackoffTest, AFailedGroupIsReDispatchedAfterTheRetryBackoff) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/greptime/replayed_entry_skipped_on_restart.yaml");
  ASSERT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.profile = "reference";
  config.keep_trace = true;
  auto report = run::RunScenario(s.value(), config);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report.value().outcome, run::Outcome::kPass);
  std::vector<int64_t> times_ms;  // "<step> <time> n0 ms.procedure ... rolling forward: ..."
  for (const std::string& line : report.value().trace_lines) {
    if (line.find(" ms.procedure ") == std::string::npos ||
        line.find("rolling forward") == std::string::npos) {
      continue;
    }
    EXPECT_NE(line.find("retry later: rolling forward: re-dispatching failed groups"),
              std::string::npos)
        << line;
    times_ms.push_back(std::strtoll(line.c_str() + line.find(' ') + 1, nullptr, 10));
  }
  ASSERT_FALSE(times_ms.empty());
  EXPECT_LE(times_ms.size(), 12u);  // ProcedureConfig::max_retry_times
  for (size_t i = 1; i < times_ms.size(); ++i) {
    EXPECT_GE(times_ms[i] - times_ms[i - 1], 500) << i;  // ProcedureConfig::retry_delay
  }
}

}  // namespace roll_forward_backoff_test
}  // namespace
}  // namespace repartsim::model
