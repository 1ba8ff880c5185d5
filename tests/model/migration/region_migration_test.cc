// Goal: the region migration procedure (docs/protocol.md section 13) takes exactly GreptimeDB's
// procedure locks (Catalog-R, Schema-R, Region-W; the table lock only dynamically), persists its
// context, moves a region's leader with every row it held, and rolls back cleanly when the
// candidate cannot be upgraded: the route keeps the old leader with leader state None and the
// old leader is writable again.
// Method: the body's lock keys and Dump/Load directly; the real cluster under the timed driver
// with no random faults (RepartitionHarness), a `migrate` action scheduled at 3 s, and for the
// rollback the candidate's datanode crashed once OpenCandidateRegion has passed.
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

}  // namespace region_migration_test
}  // namespace
}  // namespace repartsim::model::testing
