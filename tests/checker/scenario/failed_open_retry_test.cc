// Goal: under fail-closed-replay a region whose open failed at a datanode's restart is retried
// at the datanode's next heartbeat tick after the restart, not at the restart instant, so a
// scripted step in between sees the region closed. Before issue 53 the heartbeat a restarted
// datanode sends at once retried the open in the same instant (2500 ms here), and no step
// could ever see the region closed. Method: replayed_entry_skipped_on_restart (dn1 restarts at
// 2.5 s with its first replayed entry failing) under reference; its trace lines, exact.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/checker/scenario/traced_run.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace failed_open_retry_test {

TEST(FailedOpenRetryTest, RetriedAtTheNextHeartbeatTickAfterTheRestart) {
  const run::RunReport r = testing::RunTraced(
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                       "/scenarios/greptime/replayed_entry_skipped_on_restart.yaml"),
      "reference");
  std::vector<std::string> lines;
  for (const std::string& line : r.trace_lines) {
    if (line.find(" dn.open_failed ") != std::string::npos ||
        line.find(" dn.reopen ") != std::string::npos) {
      lines.push_back(line.substr(line.find(' ') + 1));  // without the step number
    }
  }
  const std::vector<std::string> expected = {
      "2500 n1 dn.open_failed region=4398046511104(1024, 0) entry=1 rows=1",
      "5500 n1 dn.reopen 4398046511104(1024, 0)",  // the heartbeat 3 s (its interval) later
  };
  EXPECT_EQ(lines, expected);
  // The query at 4 s reaches the closed region and fails; nothing is lost.
  EXPECT_EQ(r.history.queries_failed, 1u);
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
}

}  // namespace failed_open_retry_test
}  // namespace
}  // namespace repartsim::scenario
