// Goal: P13, the ON COLUMNS window. Between UpdatePartitionMetadata (new partition columns)
// and ApplyStaging (new expressions) greptime's row path fails inserts whose evaluation
// reaches an old expression on a column that is no longer a partition column; the reference
// profile (row-path-over-schema) accepts them. Each such refusal is an INV-AVAIL (liveness
// outcome): nothing in the run justifies it. Method: run the bundled scenario
// greptime/on_columns_window.yaml (seed 0) under both profiles with the trace kept and count
// the exact rejection lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/checker/scenario/traced_run.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace on_columns_window_test {

constexpr char kRejected[] =
    "rejected error=\"Undefined column: a (not a partition column of table 1024)\"";

run::RunReport RunWindow(const std::string& profile) {
  return testing::RunTraced(LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                             "/scenarios/greptime/on_columns_window.yaml"),
                            profile);
}

size_t Count(const run::RunReport& r, const std::string& needle) {
  return testing::CountLines(r, needle);
}

TEST(OnColumnsWindowTest, GreptimeRejectsInsertsInTheWindowWithUndefinedColumn) {
  const run::RunReport r = RunWindow("greptime");
  EXPECT_EQ(r.outcome, run::Outcome::kLiveness);
  EXPECT_EQ(r.history.rejected, 3u);
  EXPECT_EQ(Count(r, kRejected), 3u);
  // The scripted insert 50 ms after the column switch is one of them.
  EXPECT_EQ(Count(r, "4053 n4 fe.write_done id=22 " + std::string(kRejected)), 1u);
  // Every one is an INV-AVAIL; besides them only a tolerated read anomaly is reported.
  size_t avail = 0;
  for (const check::Violation& v : r.violations) {
    avail += v.invariant == check::Invariant::kAvail;
    if (v.invariant != check::Invariant::kAvail) {
      EXPECT_EQ(v.invariant, check::Invariant::kReadAnomaly) << v.ToText();
    }
  }
  EXPECT_EQ(avail, 3u);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].message,
            "write 22 from fe1 (issued at step 163) was refused: Undefined column: a (not a "
            "partition column of table 1024); no crash, fault or protocol state of the run "
            "justifies the refusal");
}

TEST(OnColumnsWindowTest, ReferenceAcceptsThemOverTheTableColumns) {
  const run::RunReport r = RunWindow("reference");
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
  EXPECT_EQ(Count(r, "Undefined column"), 0u);
  EXPECT_EQ(Count(r, "4055 n4 fe.write_done id=22 acked"), 1u);
}

}  // namespace on_columns_window_test
}  // namespace
}  // namespace repartsim::scenario
