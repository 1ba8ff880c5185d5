// Goal: the metasrv's GC pass as a run does it (Cluster::RunGcPass): a pass during a merge
// collects only the region the group does not lock; after the merge and a compaction of the
// target with no lingering time, it deletes the target's compacted inputs and the dropped
// source's file, and the table reads the same; cluster.gc_interval_ms adds periodic passes;
// with GC disabled no pass runs; a route region whose leader has not opened it fails the pass
// (GreptimeDB #8445), and with that switch off it is skipped and its adopted file deleted; a
// run is not quiescent while a background reopen goes on.
// Method: an inline scenario run with its trace kept, in both profiles, and the bundled
// scenario greptime/gc_skips_unopened_merge_target with the switch on and off.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/checker/scenario/traced_run.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace gc_pass_test {

std::string Scenario(const std::string& cluster_extra) {
  return R"yaml(name: gc-pass
cluster: {datanodes: 2, frontends: 1, placement: [dn1, dn1, dn2], gc_lingering_ms: 0)yaml" +
         cluster_extra + R"yaml(}
table: |
  CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, PRIMARY KEY (host, a))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)
setup:
  - sql: "INSERT INTO cpu VALUES ('h0', 1, 1, 3), ('h1', 1, 1, 15), ('h2', 1, 1, 25)"
  - flush: all
steps:
  - at_ms: 3000
    sql: "ALTER TABLE cpu MERGE PARTITION (a >= 10 AND a < 20, a >= 20)"
  - after: RepartitionGroup.EnterStagingRegion
    gc: true
  - {at_ms: 7000, sql: "INSERT INTO cpu VALUES ('h1', 2, 2, 15)"}
  - {at_ms: 7500, flush: {region: 1}}
  - {at_ms: 8000, compact: {region: 1}}
  - {at_ms: 9000, gc: true}
limits: {time_ms_max: 12000, liveness_ms: 20000}
expect: {reference: pass, greptime: pass}
)yaml";
}

run::RunReport RunGcScenario(const std::string& yaml, const std::string& profile) {
  return testing::RunTraced(ParseScenario(yaml, "gc_pass.yaml"), profile);
}

size_t Count(const run::RunReport& r, const std::string& needle) {
  return testing::CountLines(r, needle);
}

TEST(GcPassTest, APassSkipsLockedSourcesThenCollectsCompactedInputsAndTheDroppedSource) {
  for (const char* profile : {"reference", "greptime"}) {
    SCOPED_TRACE(profile);
    const run::RunReport r = RunGcScenario(Scenario(""), profile);
    EXPECT_EQ(r.outcome, run::Outcome::kPass);
    // During the merge: regions 1 and 2 are the group's sources, locked; region 0 only.
    EXPECT_EQ(Count(r, " n0 ms.gc table=1024 regions=1 files=3 deleted=0"), 1u);
    // After it: files 2 and 4 (region 1's) and 3 (the dropped region 2's, adopted) were the
    // compaction's inputs; file 5 is its output, file 1 region 0's.
    EXPECT_EQ(Count(r, " n0 ms.gc table=1024 regions=3 files=5 deleted=3"), 1u);
    EXPECT_EQ(Count(r, " n0 ms.gc_delete file="), 3u);
    for (const char* file : {"file=2", "file=3", "file=4"}) {
      EXPECT_EQ(Count(r, std::string(" n0 ms.gc_delete ") + file), 1u) << file;
    }
  }
}

TEST(GcPassTest, APeriodicPassRunsAtTheFirstHeartbeatTickOfEachInterval) {
  const run::RunReport r = RunGcScenario(Scenario(", gc_interval_ms: 4000"), "reference");
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
  // Passes due at 1 (no table yet: nothing logged), 4001, 10001, 16001 and 22001 ms run at
  // the next datanode heartbeat tick (each datanode ticks every 3 s); the two steps' passes
  // stay.
  EXPECT_EQ(Count(r, " n0 ms.gc table=1024"), 6u);
  for (const char* at : {" 6001 n0 ms.gc table=1024 regions=3 files=3 deleted=0",
                         " 12001 n0 ms.gc table=1024 regions=3 files=2 deleted=0",
                         " 18001 n0 ms.gc table=1024", " 24001 n0 ms.gc table=1024"}) {
    EXPECT_EQ(Count(r, at), 1u) << at;
  }
}

TEST(GcPassTest, NoPassRunsWhileGcIsDisabled) {
  const run::RunReport r = RunGcScenario(Scenario(", gc: false"), "reference");
  EXPECT_EQ(Count(r, " ms.gc "), 0u);
  // The merge is refused (metasrv GC is required); region 1 compacts its own two files.
  EXPECT_EQ(Count(r, " dn.compact 4398046511105(1024, 1) Ok rows=2"), 1u);
}

// The bundled scenario of GreptimeDB #8445: dn2 restarts with its regions opening in the
// background, and the GC pass at 10 s runs before it opened the merge target, region 1.
run::RunReport RunUnopenedTarget(bool gc_refs_need_open_regions) {
  return testing::RunTraced(
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                       "/scenarios/greptime/gc_skips_unopened_merge_target.yaml"),
      "greptime", {{"gc-refs-need-open-regions", gc_refs_need_open_regions}});
}

TEST(GcPassTest, ARegionItsLeaderHasNotOpenedFailsThePass) {
  const run::RunReport r = RunUnopenedTarget(true);
  EXPECT_EQ(r.outcome, run::Outcome::kPass);
  EXPECT_EQ(Count(r, " n2 dn.opening regions=1 first_at=12500"), 1u);
  EXPECT_EQ(Count(r,
                  " 10000 n0 ms.gc_failed table=1024 reason=\"GetFileRefs to dn2 failed: "
                  "Region 4398046511105(1024, 1) not found\""),
            1u);
  EXPECT_EQ(Count(r, " ms.gc "), 0u);
  EXPECT_EQ(Count(r, " 12500 n2 dn.open 4398046511105(1024, 1) pending=0"), 1u);
}

TEST(GcPassTest, BeforeGreptimeDb8445TheRegionIsSkippedAndItsAdoptedFileDeleted) {
  const run::RunReport r = RunUnopenedTarget(false);
  EXPECT_EQ(r.outcome, run::Outcome::kSafety);
  EXPECT_EQ(Count(r, " ms.gc_failed"), 0u);
  // Region 0 is collected, and region 2, dropped by the merge, offers its one file, which only
  // region 1 (skipped) lists.
  EXPECT_EQ(Count(r, " 10000 n0 ms.gc table=1024 regions=2 files=3 deleted=1"), 1u);
  EXPECT_EQ(Count(r, " 10000 n0 ms.gc_delete file=3 listed_by=4398046511105(1024, 1)"), 1u);
  EXPECT_EQ(Count(r,
                  " n4 fe.query_done id=1 error=\"Failed to read SST file 3 of region "
                  "4398046511105(1024, 1): not found\""),
            1u);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].invariant, check::Invariant::kAck);
}

TEST(GcPassTest, ARunIsNotQuiescentBeforeABackgroundReopenOpenedEveryRegion) {
  // dn2 restarts at the end of the safety phase and opens its one region 20 s later: the run
  // goes on until it has (Cluster::Idle), and the final check finds every row.
  const std::string yaml = R"yaml(name: late-open
cluster: {datanodes: 2, frontends: 1, placement: [dn1, dn2],
          init_regions_in_background: true, region_open_ms: 20000}
table: |
  CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, PRIMARY KEY (host, a))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
setup:
  - sql: "INSERT INTO cpu VALUES ('h0', 1, 1, 3), ('h1', 1, 1, 15)"
steps:
  - {at_ms: 4000, crash: dn2}
  - {at_ms: 4500, restart: dn2}
limits: {time_ms_max: 5000, liveness_ms: 60000}
expect: {reference: pass, greptime: pass}
)yaml";
  for (const char* profile : {"reference", "greptime"}) {
    SCOPED_TRACE(profile);
    const run::RunReport r = RunGcScenario(yaml, profile);
    EXPECT_EQ(r.outcome, run::Outcome::kPass);
    EXPECT_TRUE(r.quiescent);
    EXPECT_EQ(Count(r, " 24500 n2 dn.open 4398046511105(1024, 1) pending=0"), 1u);
    EXPECT_GE(r.time_ms, 24500);
  }
}

}  // namespace gc_pass_test
}  // namespace
}  // namespace repartsim::scenario
