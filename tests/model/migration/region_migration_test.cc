// Goal: the region migration procedure (docs/protocol.md section 13) takes exactly GreptimeDB's
// procedure locks (Catalog-R, Schema-R, Region-W; the table lock only dynamically), persists its
// context, moves a region's leader with every row it held, and rolls back cleanly when the
// candidate cannot be upgraded: the route keeps the old leader with leader state None and the
// old leader is writable again.
// A migration beside a repartition of the same table does not wait for the parent's procedure
// lock on the table (another lock table) but does wait for its dynamic table lock, which
// DeallocateRegion holds across its DropRegion round trip.
// Method: the body's lock keys and Dump/Load directly; the real cluster under the timed driver
// with no random faults (RepartitionHarness), a `migrate` action scheduled at 3 s, and for the
// rollback the candidate's datanode crashed once OpenCandidateRegion has passed; for the locks
// a merge whose DropRegion is delayed 2 s and a migration submitted when Collect passes.
#include <gtest/gtest.h>

#include "model/migration/region_migration_procedure.h"
#include "tests/model/repartition/repartition_harness.h"

namespace repartsim::model::testing {
namespace {
namespace region_migration_test {

RegionMigrationProcedure::PersistentContext Context(RegionId region) {
  RegionMigrationProcedure::PersistentContext ctx;
  ctx.from_peer = NodeId{2};
  ctx.to_peer = NodeId{3};
  ctx.region = region;
  ctx.timeout_ms = 7000;
  return ctx;
}

TEST(RegionMigrationTest, LocksTheRegionForLifeAndNoTable) {
  const std::vector<LockKey> expected = {{"catalog/greptime", false},
                                         {"schema/greptime.public", false},
                                         {"region/" + std::to_string(RegionN(1).value), true}};
  EXPECT_EQ(RegionMigrationProcedure(Context(RegionN(1))).lock_keys(), expected);
}

TEST(RegionMigrationTest, PersistentContextRoundTripsThroughItsRecord) {
  const RegionMigrationProcedure procedure(Context(RegionN(1)));
  sim::Result<RegionMigrationProcedure> loaded = RegionMigrationProcedure::Load(procedure.Dump());
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded.value().context(), procedure.context());
  EXPECT_EQ(loaded.value().state_name(), "RegionMigrationStart");
  EXPECT_FALSE(RegionMigrationProcedure::Load("{\"state\": 1}").ok());
}

TEST(RegionMigrationTest, MovesTheLeaderAndTheMovedRegionHoldsEveryRow) {
  RepartitionHarness h;  // region 0 (a < 100) on dn1, region 1 (a >= 100) on dn2
  h.Insert(1000, 0, {MakeRow(150, 1), MakeRow(160, 2)});
  h.cluster.Schedule(sim::AtMs(2000), FlushOp{NodeId{2}, RegionN(1)});
  h.Insert(2500, 1, {MakeRow(170, 3)});
  h.cluster.Schedule(sim::AtMs(3000), MigrateRegionOp{RegionN(1), NodeId{2}, NodeId{3}, 10000});
  h.RunUntil(20000);
  EXPECT_TRUE(
      h.TraceHas("type=RegionMigration from=CloseDowngradedRegion to=RegionMigrationEnd "
                 "status=Done"))
      << h.TraceText();
  const TableRoute route = h.Route();
  const RegionRoute* moved = route.Find(RegionN(1));
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->leader, NodeId{3});
  EXPECT_EQ(moved->leader_state, LeaderState::kNone);
  EXPECT_EQ(moved->leader_down_since, std::nullopt);
  EXPECT_EQ(h.cluster.datanode(NodeId{2}).FindRegion(RegionN(1)), nullptr);  // closed
  const Region* region = h.cluster.datanode(NodeId{3}).FindRegion(RegionN(1));
  ASSERT_NE(region, nullptr);
  EXPECT_EQ(region->state(), RegionState::kWritable);
  ScanReply scan = h.cluster.datanode(NodeId{3}).HandleScan(
      RegionN(1), std::nullopt, Protocol::Greptime(), h.cluster.object_store());
  ASSERT_TRUE(scan.ok()) << scan.message;
  EXPECT_EQ(SortedRows(scan.rows), SortedRows({MakeRow(150, 1), MakeRow(160, 2), MakeRow(170, 3)}));
}

TEST(RegionMigrationTest, CandidateCrashRollsBackToTheOldLeader) {
  RepartitionHarness h;
  h.Insert(1000, 0, {MakeRow(150, 1)});
  h.cluster.Schedule(sim::AtMs(3000), MigrateRegionOp{RegionN(1), NodeId{2}, NodeId{3}, 10000});
  h.cluster.ScheduleAfterState("RegionMigration.OpenCandidateRegion", 1, sim::Duration{0},
                               CrashNodeOp{NodeId{3}});
  h.RunUntil(20000);
  EXPECT_TRUE(
      h.TraceHas("type=RegionMigration from=UpgradeCandidateRegion "
                 "to=UpdateMetadataRollback"))
      << h.TraceText();
  EXPECT_TRUE(h.TraceHas("ms.procedure procedure=2 error: Region migration is aborted"));
  EXPECT_TRUE(
      h.TraceHas("type=RegionMigration from=RegionMigrationAbort "
                 "to=RegionMigrationAbort status=Failed"));
  const TableRoute route = h.Route();
  const RegionRoute* kept = route.Find(RegionN(1));
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->leader, NodeId{2});
  EXPECT_EQ(kept->leader_state, LeaderState::kNone);
  const Region* region = h.cluster.datanode(NodeId{2}).FindRegion(RegionN(1));
  ASSERT_NE(region, nullptr);
  EXPECT_EQ(region->state(), RegionState::kWritable);  // its next Leader lease
  ScanReply scan = h.cluster.datanode(NodeId{2}).HandleScan(
      RegionN(1), std::nullopt, Protocol::Greptime(), h.cluster.object_store());
  ASSERT_TRUE(scan.ok()) << scan.message;
  EXPECT_EQ(SortedRows(scan.rows), SortedRows({MakeRow(150, 1)}));
}

// The virtual time (ms) of the first trace line containing `needle`, or -1.
int64_t TimeOf(const RepartitionHarness& h, const std::string& needle) {
  for (const std::string& line : h.trace.lines()) {
    if (line.find(needle) == std::string::npos) continue;
    const size_t first = line.find(' ');
    const size_t second = line.find(' ', first + 1);
    return std::stoll(line.substr(first + 1, second - first - 1));
  }
  return -1;
}

TEST(RegionMigrationTest, RunsBesideTheParentButWaitsForItsDynamicTableLock) {
  RepartitionHarness h(Protocol::Greptime(),
                       "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)");
  MessageRule delay_drop;
  delay_drop.action = MessageAction::kDelay;
  delay_drop.kind = "DropRegion";
  delay_drop.delay = sim::Ms(2000);
  h.cluster.Schedule(sim::AtMs(0), MessageRuleOp{delay_drop});
  h.Alter(3000, "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)");
  // Region 0 is no source of the merge: its migration starts while the parent holds Table-W.
  h.cluster.ScheduleAfterState("Repartition.Collect", 1, sim::Duration{0},
                               MigrateRegionOp{RegionN(0), NodeId{1}, NodeId{2}, 10000});
  h.RunUntil(20000);
  const int64_t started =
      TimeOf(h, "type=RegionMigration from=RegionMigrationStart to=OpenCandidateRegion");
  const int64_t dropped = TimeOf(h, "ms.region_request DropRegion");
  const int64_t deallocated = TimeOf(h, "type=Repartition from=DeallocateRegion to=RepartitionEnd");
  const int64_t downgraded =
      TimeOf(h, "type=RegionMigration from=UpdateMetadataDowngrade to=DowngradeLeaderRegion");
  ASSERT_GE(started, 0) << h.TraceText();
  ASSERT_GE(dropped, 0) << h.TraceText();
  ASSERT_GE(deallocated, 0) << h.TraceText();
  ASSERT_GE(downgraded, 0) << h.TraceText();
  EXPECT_LT(started, dropped + 2000);      // inside the round: the migration started at once
  EXPECT_LT(started, deallocated);         // no wait for the parent's procedure lock
  EXPECT_GE(deallocated, dropped + 2000);  // the DropRegion round trip, lock held
  EXPECT_GE(downgraded, deallocated);      // the route write waited for the dynamic lock
  EXPECT_TRUE(
      h.TraceHas("type=RegionMigration from=CloseDowngradedRegion to=RegionMigrationEnd "
                 "status=Done"));
  EXPECT_EQ(h.Route().Find(RegionN(0))->leader, NodeId{2});
  EXPECT_EQ(h.Route().Find(RegionN(2)), nullptr);  // the merged-away source is gone
}

}  // namespace region_migration_test
}  // namespace
}  // namespace repartsim::model::testing
