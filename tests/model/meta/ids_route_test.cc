// Goal: pin the id packing and printing, lease role derivation and the route update rules
// (version bump, never-decreasing max region number) of docs/protocol.md sections 2.1, 2.4.
// Method: build ids and routes directly and compare exact values.
#include <gtest/gtest.h>

#include "model/meta/ids.h"
#include "model/meta/region_route.h"

namespace repartsim::model {
namespace {
namespace ids_route_test {

RegionRoute MakeRoute(uint32_t number, uint32_t leader) {
  RegionRoute r;
  r.region_id = RegionId::Of(TableId{1024}, RegionNumber{number});
  r.partition_expr = PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(10 * (number + 1)));
  r.leader = NodeId{leader};
  return r;
}

TEST(RegionIdTest, PacksTableIdHighAndRegionNumberLow) {
  RegionId id = RegionId::Of(TableId{1024}, RegionNumber{3});
  EXPECT_EQ(id.value, (uint64_t{1024} << 32) | 3);
  EXPECT_EQ(id.table_id(), TableId{1024});
  EXPECT_EQ(id.region_number(), RegionNumber{3});
  EXPECT_EQ(id.ToString(), "4398046511107(1024, 3)");
  EXPECT_LT(RegionId::Of(TableId{1024}, RegionNumber{9}),
            RegionId::Of(TableId{1025}, RegionNumber{0}));
}

TEST(RegionRouteTest, LeaderRoleFollowsLeaderState) {
  RegionRoute r = MakeRoute(0, 1);
  r.followers = {NodeId{2}};
  EXPECT_EQ(LeaderRegionRole(r), RegionRole::kLeader);
  r.leader_state = LeaderState::kStaging;
  EXPECT_EQ(LeaderRegionRole(r), RegionRole::kStagingLeader);
  r.leader_state = LeaderState::kDowngrading;
  EXPECT_EQ(LeaderRegionRole(r), RegionRole::kDowngradingLeader);
  EXPECT_EQ(RegionRoleOf(r, NodeId{1}), RegionRole::kDowngradingLeader);
  EXPECT_EQ(RegionRoleOf(r, NodeId{2}), RegionRole::kFollower);
  EXPECT_EQ(RegionRoleOf(r, NodeId{3}), std::nullopt);
  EXPECT_EQ(RegionRoleName(RegionRole::kStagingLeader), "StagingLeader");
}

// GreptimeDB's setters on the one leader_state slot (rpc/router.rs): set_leader_state
// overwrites anything and stamps leader_down_since only on entering Downgrading;
// set_leader_staging overwrites Downgrading; clear_leader_staging clears Staging only.
TEST(RegionRouteTest, SetLeaderStateOverwritesStagingAndStampsDowngradingOnEntryOnly) {
  RegionRoute r = MakeRoute(0, 1);
  r.SetLeaderStaging();
  EXPECT_TRUE(r.SetLeaderState(LeaderState::kDowngrading, sim::SimTime{1000}));
  EXPECT_EQ(r.leader_state, LeaderState::kDowngrading);
  EXPECT_EQ(r.leader_down_since, sim::SimTime{1000});
  EXPECT_EQ(LeaderRegionRole(r), RegionRole::kDowngradingLeader);
  EXPECT_FALSE(r.SetLeaderState(LeaderState::kDowngrading, sim::SimTime{5000}));
  EXPECT_EQ(r.leader_down_since, sim::SimTime{1000});  // still downgrading: stamp kept
  EXPECT_TRUE(r.SetLeaderState(LeaderState::kNone, sim::SimTime{6000}));
  EXPECT_EQ(r.leader_state, LeaderState::kNone);
  EXPECT_EQ(r.leader_down_since, std::nullopt);
  EXPECT_FALSE(r.SetLeaderState(LeaderState::kNone, sim::SimTime{7000}));
  r.SetLeaderStaging();
  EXPECT_TRUE(r.SetLeaderState(LeaderState::kNone, sim::SimTime{8000}));  // clears Staging too
  EXPECT_EQ(LeaderRegionRole(r), RegionRole::kLeader);
}

TEST(RegionRouteTest, SetLeaderStagingOverwritesDowngradingAndDropsItsStamp) {
  RegionRoute r = MakeRoute(0, 1);
  r.SetLeaderState(LeaderState::kDowngrading, sim::SimTime{1000});
  r.SetLeaderStaging();
  EXPECT_EQ(r.leader_state, LeaderState::kStaging);
  EXPECT_EQ(r.leader_down_since, std::nullopt);
  EXPECT_EQ(LeaderRegionRole(r), RegionRole::kStagingLeader);
}

TEST(RegionRouteTest, ClearLeaderStagingClearsStagingOnlyAndKeepsDowngrading) {
  RegionRoute r = MakeRoute(0, 1);
  r.SetLeaderStaging();
  r.ClearLeaderStaging();
  EXPECT_EQ(r.leader_state, LeaderState::kNone);
  r.SetLeaderState(LeaderState::kDowngrading, sim::SimTime{2000});
  r.ClearLeaderStaging();
  EXPECT_EQ(r.leader_state, LeaderState::kDowngrading);
  EXPECT_EQ(r.leader_down_since, sim::SimTime{2000});
  r.SetLeaderState(LeaderState::kNone, sim::SimTime{3000});
  r.ClearLeaderStaging();
  EXPECT_EQ(r.leader_state, LeaderState::kNone);
}

TEST(RegionRouteTest, ExprTextAndVersionAreEmptyAndZeroWithoutExpr) {
  RegionRoute r = MakeRoute(0, 1);
  EXPECT_EQ(r.ExprText(), r.partition_expr->CanonicalText());
  EXPECT_EQ(r.ExprVersionValue(), ExprVersion(&*r.partition_expr));
  EXPECT_NE(r.ExprVersionValue(), 0u);
  r.partition_expr.reset();
  EXPECT_EQ(r.ExprText(), "");
  EXPECT_EQ(r.ExprVersionValue(), 0u);
}

TEST(TableRouteTest, UpdateBumpsVersionAndKeepsMaxRegionNumberWhenRegionsDrop) {
  TableRoute route = TableRoute::New({MakeRoute(0, 1), MakeRoute(1, 2)});
  EXPECT_EQ(route.version, 0u);
  EXPECT_EQ(route.max_region_number, RegionNumber{1});
  EXPECT_EQ(route.NextRegionNumber(), RegionNumber{2});
  TableRoute grown = route.Updated({MakeRoute(0, 1), MakeRoute(1, 2), MakeRoute(5, 3)});
  EXPECT_EQ(grown.version, 1u);
  EXPECT_EQ(grown.max_region_number, RegionNumber{5});
  // Dropping region 5 does not lower the max: number 5 is never reused.
  TableRoute shrunk = grown.Updated({MakeRoute(0, 1)});
  EXPECT_EQ(shrunk.version, 2u);
  EXPECT_EQ(shrunk.max_region_number, RegionNumber{5});
  EXPECT_EQ(shrunk.NextRegionNumber(), RegionNumber{6});
  EXPECT_NE(shrunk.Find(RegionId::Of(TableId{1024}, RegionNumber{0})), nullptr);
  EXPECT_EQ(shrunk.Find(RegionId::Of(TableId{1024}, RegionNumber{5})), nullptr);
}

TEST(TableRouteTest, HashDiffersWhenOneFieldDiffers) {
  TableRoute a = TableRoute::New({MakeRoute(0, 1)});
  TableRoute b = a;
  sim::Hasher ha, hb;
  a.Hash(ha);
  b.Hash(hb);
  EXPECT_EQ(ha.Finish(), hb.Finish());
  b.region_routes[0].write_policy = WritePolicy::kIgnoreAllWrites;
  sim::Hasher hc;
  b.Hash(hc);
  EXPECT_NE(ha.Finish(), hc.Finish());
}

}  // namespace ids_route_test
}  // namespace
}  // namespace repartsim::model
