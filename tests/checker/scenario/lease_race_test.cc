// Goal: the lease-race hazards and the closeable-list hazard of GreptimeDB 7fd0a7b, through
// their faithful triggers (the metasrv's heartbeat handler-chain gap, the leader-start window),
// give exactly the stated outcome under greptime and pass under reference:
// (i) lease-race-split-liveness: the split fails, rows acknowledged by the new region are lost
//     (INV-ACK); (ii) lease-race-new-region-ack: the split succeeds and flushed rows are lost
//     (INV-ACK, INV-NOOMIT); (iii) lease-race-merged-away-source: the flush round trip on the
//     same heartbeat session orders the stale lease before EnterStaging, so nothing is lost;
//     closeable-leader-start: regions closed in the window are routed but not open (INV-META).
// Method: run each bundled scenario (scenarios/greptime/) at a fixed seed under both profiles
// with the trace kept, and assert the set of invariants, the DDL outcome and trace lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace lease_race_test {

run::RunReport RunIt(const std::string& name, const std::string& profile, uint64_t seed = 0) {
  auto s =
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/greptime/" + name + ".yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.seed = seed;
  config.profile = profile;
  config.keep_trace = true;
  auto report = run::RunScenario(s.value(), config);
  EXPECT_TRUE(report.ok());
  return report.value();
}

std::set<std::string> Invariants(const run::RunReport& r) {
  std::set<std::string> out;
  for (const auto& v : r.violations) out.insert(std::string(check::InvariantName(v.invariant)));
  return out;
}

size_t Count(const run::RunReport& r, const std::string& needle) {
  return std::count_if(r.trace_lines.begin(), r.trace_lines.end(), [&](const std::string& line) {
    return line.find(needle) != std::string::npos;
  });
}

// Index of the first trace line containing `needle`, or SIZE_MAX.
size_t First(const run::RunReport& r, const std::string& needle) {
  for (size_t i = 0; i < r.trace_lines.size(); ++i) {
    if (r.trace_lines[i].find(needle) != std::string::npos) return i;
  }
  return SIZE_MAX;
}

TEST(LeaseRaceTest, SplitLivenessGreptimeLosesRowsOfTheRolledBackNewRegion) {
  const run::RunReport r = RunIt("lease_race_split_liveness", "greptime");
  EXPECT_EQ(r.outcome, run::Outcome::kSafety);
  EXPECT_EQ(Invariants(r), (std::set<std::string>{"INV-ACK", "READ-ANOMALY"}));
  // The split rolls back at its 60 s deadline; the ALTER's call, whose deadline is the same
  // timeout counted from its submission, expires first, and the meta client submits the task
  // again: the second split (procedure 4) succeeds, so the client sees Done although the
  // first attempt lost acknowledged rows.
  EXPECT_EQ(r.history.ddls_done, 1u);
  EXPECT_EQ(r.history.ddls_failed, 0u);
  EXPECT_EQ(Count(r, "fe.ddl_resubmit repartition table=1024 attempt=2 after a call deadline"), 1u);
  EXPECT_EQ(Count(r, "fe.ddl_done repartition table=1024 status=done id=1 procedure=4"), 1u);
  // The old Leader lease reached dn1 after EnterStaging of the central region.
  const size_t enter = First(r, "n1 dn.region_op EnterStaging 4398046511104(1024, 0) Ok");
  const size_t release = First(r, "net.release HeartbeatReply metasrv->dn1");
  ASSERT_NE(enter, SIZE_MAX);
  EXPECT_LT(enter, release);
  EXPECT_EQ(Count(r, "dn.region_op RemapManifest 4398046511104(1024, 0) RegionNotReady"), 7u);
  EXPECT_EQ(Count(r, "dn.region_op DropRegion 4398046511107(1024, 3) Ok"), 1u);
}

TEST(LeaseRaceTest, SplitLivenessReferenceIgnoresTheStaleLease) {
  const run::RunReport r = RunIt("lease_race_split_liveness", "reference");
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
  EXPECT_EQ(Count(r, "dn.stale_lease_ignored 4398046511104(1024, 0)"), 1u);
  EXPECT_EQ(r.history.ddls_done, 1u);
}

TEST(LeaseRaceTest, NewRegionGreptimeReportsSuccessAndLosesFlushedRows) {
  const run::RunReport r = RunIt("lease_race_new_region_ack", "greptime");
  EXPECT_EQ(r.outcome, run::Outcome::kSafety);
  EXPECT_EQ(Invariants(r), (std::set<std::string>{"INV-ACK", "INV-NOOMIT"}));
  EXPECT_EQ(r.history.ddls_done, 1u);
  // Region 3 was applied as a replay (Ok) although it left staging without its files.
  const size_t release = First(r, "net.release HeartbeatReply metasrv->dn1");
  const size_t enter = First(r, "n1 dn.region_op EnterStaging 4398046511107(1024, 3) Ok");
  const size_t apply = First(r, "n1 dn.region_op ApplyStagingManifest 4398046511107(1024, 3) Ok");
  ASSERT_NE(apply, SIZE_MAX);
  EXPECT_LT(enter, release);
  EXPECT_LT(release, apply);
}

TEST(LeaseRaceTest, NewRegionReferencePasses) {
  const run::RunReport r = RunIt("lease_race_new_region_ack", "reference");
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
  EXPECT_EQ(Count(r, "dn.stale_lease_ignored 4398046511107(1024, 3)"), 1u);
}

TEST(LeaseRaceTest, ApplyReplayCheckAloneAttachesTheSkippedFiles) {
  // Without versioned leases the stale lease still ends staging; the file-set check then
  // attaches the remapped files instead of answering Ok with none.
  auto s = LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                            "/scenarios/greptime/lease_race_new_region_ack.yaml");
  ASSERT_TRUE(s.ok());
  run::RunConfig config;
  config.profile = "greptime";
  config.rules = {{"apply-staging-checks-files", true}};
  auto report = run::RunScenario(s.value(), config);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(Invariants(report.value()).count("INV-ACK"), 0u);
}

TEST(LeaseRaceTest, MergedAwaySourceStaysFencedBecauseTheFlushOrdersTheStaleLease) {
  for (const char* profile : {"greptime", "reference"}) {
    const run::RunReport r = RunIt("lease_race_merged_away_source", profile);
    EXPECT_EQ(r.outcome, run::Outcome::kPass) << profile;
    const size_t flush = First(r, "n3 dn.region_op FlushRegion 4398046511106(1024, 2) Ok");
    const size_t release = First(r, "net.release HeartbeatReply metasrv->dn3");
    const size_t enter = First(r, "ms.region_request EnterStaging region=4398046511106(1024, 2)");
    ASSERT_NE(enter, SIZE_MAX) << profile;
    EXPECT_LT(flush, release) << profile;
    EXPECT_LT(release, enter) << profile;
    EXPECT_EQ(Count(r,
                    "fe.write_done id=2 rejected error=\"Engine write buffer is full, "
                    "rejecting write requests of region 4398046511106(1024, 2)"),
              1u)
        << profile;
  }
}

TEST(LeaseRaceTest, CloseableLeaderStartGreptimeClosesRegionsTheRecoveredCreateCommits) {
  const run::RunReport r = RunIt("closeable_leader_start", "greptime", 2);
  EXPECT_EQ(r.outcome, run::Outcome::kSafety);
  EXPECT_EQ(Invariants(r), (std::set<std::string>{"INV-META"}));
  EXPECT_EQ(Count(r, "dn.close_region"), 3u);
  EXPECT_LT(First(r, "dn.close_region"), First(r, "ms.procedures_recovered"));
}

TEST(LeaseRaceTest, CloseableLeaderStartReferenceClosesNothingBeforeRecovery) {
  const run::RunReport r = RunIt("closeable_leader_start", "reference", 2);
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
  EXPECT_EQ(Count(r, "dn.close_region"), 0u);
}

}  // namespace lease_race_test
}  // namespace
}  // namespace repartsim::scenario
