// Goal: violations explain themselves (issue 18 item 5): INV-ACK names each lost row's write
// (id, frontend, the steps it was issued and acknowledged), the region and datanode that
// accepted it, and the event that lost it (its last holder's staging exit here); INV-NOOMIT
// names the query's frontend, route version and scanned regions and each missed row's last
// holder; each violation's context holds only related events.
// Method: the bundled lease-race-new-region-ack scenario (rows acknowledged by a source
// region are lost when the split's staging manifests are applied) under greptime at seed 0,
// with the trace kept; exact notes and context lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace violation_report_test {

run::RunReport RunLeaseRace() {
  auto s = LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                            "/scenarios/greptime/lease_race_new_region_ack.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.seed = 0;
  config.profile = "greptime";
  config.keep_trace = true;
  auto report = run::RunScenario(s.value(), config);
  EXPECT_TRUE(report.ok());
  return report.value();
}

bool HasNote(const check::Violation& v, const std::string& note) {
  return std::find(v.notes.begin(), v.notes.end(), note) != v.notes.end();
}

std::string Text(const check::Violation& v) { return v.ToText(); }

TEST(ViolationReportTest, InvAckNamesTheWriteTheRegionTheFrontendAndTheLosingEvent) {
  const run::RunReport r = RunLeaseRace();
  ASSERT_FALSE(r.violations.empty());
  const check::Violation& ack = r.violations[0];
  ASSERT_EQ(ack.invariant, check::Invariant::kAck) << Text(ack);
  EXPECT_TRUE(HasNote(ack,
                      "write 1 from fe1 (issued at step 26, acked at step 32) wrote (host='h1', "
                      "ts=2, v=2, a=7) into region 4398046511104(1024, 0) on dn2 (accepted at "
                      "step 29)"))
      << Text(ack);
  EXPECT_TRUE(HasNote(
      ack,
      "row (host='h1', ts=2, v=2, a=7): last accepted by region 4398046511104(1024, 0) on dn2 "
      "at step 29; `601 9413 n2 dn.region_op ApplyStagingManifest 4398046511104(1024, 0) Ok` "
      "moved its range to region 4398046511107(1024, 3); the first event after step 29 which "
      "dropped, replaced or lost that region's data: `597 9411 n1 dn.region_op "
      "ApplyStagingManifest 4398046511107(1024, 3) Ok`"))
      << Text(ack);
  // The context: the writes' op and ack lines and the losing events, nothing else.
  ASSERT_FALSE(ack.trace.empty());
  for (const std::string& line : ack.trace) {
    const bool related = line.find(" op insert id=") != std::string::npos ||
                         line.find(" fe.write_done id=") != std::string::npos ||
                         line.find(" dn.region_op ApplyStagingManifest ") != std::string::npos;
    EXPECT_TRUE(related) << line;
  }
  EXPECT_EQ(ack.trace.back(),
            "601 9413 n2 dn.region_op ApplyStagingManifest 4398046511104(1024, 0) Ok");
}

TEST(ViolationReportTest, InvNoOmitNamesFrontendRouteVersionScannedRegionsAndHolders) {
  const run::RunReport r = RunLeaseRace();
  auto omit = std::find_if(r.violations.begin(), r.violations.end(),
                           [](const auto& v) { return v.invariant == check::Invariant::kNoOmit; });
  ASSERT_NE(omit, r.violations.end());
  EXPECT_TRUE(HasNote(*omit,
                      "query 39 from fe2 (issued at step 629, completed at step 637) planned "
                      "with route version 3 and scanned 4 regions (numbers 0, 1, 2, 3, listed "
                      "above)"))
      << Text(*omit);
  EXPECT_TRUE(
      HasNote(*omit,
              "row (host='h0', ts=2, v=92, a=5): last accepted by region 4398046511104(1024, 0) on "
              "dn2 at step 537, which the query scanned; the first event after that which dropped, "
              "replaced or lost that region's data: `601 9413 n2 dn.region_op ApplyStagingManifest "
              "4398046511104(1024, 0) Ok`"))
      << Text(*omit);
  // The query's own lines are in its context; other queries' are not.
  const auto has = [&](const std::string& line) {
    return std::find(omit->trace.begin(), omit->trace.end(), line) != omit->trace.end();
  };
  EXPECT_TRUE(has("629 9651 n5 fe.query_plan id=39 table=1024 version=3 regions=0,1,2,3"))
      << Text(*omit);
  EXPECT_TRUE(has("637 9653 n5 fe.query_done id=39 rows=127"));
  for (const std::string& line : omit->trace) {
    EXPECT_TRUE(line.find(" op query ") == std::string::npos ||
                line.find(" op query id=39 ") != std::string::npos)
        << line;
  }
}

}  // namespace violation_report_test
}  // namespace
}  // namespace repartsim::scenario
