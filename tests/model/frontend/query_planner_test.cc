// Goal: the frontend's query planner (docs/protocol.md section 6): without a predicate every
// read-side region is scanned on its leader; a predicate prunes with the cached rule; under
// Rule::kFencedReads IgnoreAllWrites regions are left out and each scan carries the version it
// was planned with; a region without a leader is an error and is not scanned.
// Method: PlanQuery over hand-made routes, exact regions, scans and errors.
#include "model/frontend/query_planner.h"

#include <gtest/gtest.h>

#include "tests/model/frontend/frontend_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace query_planner_test {

using namespace testing;  // NOLINT

RegionId Region(uint32_t number) { return RegionId::Of(kFeTable, RegionNumber{number}); }

TEST(QueryPlannerTest, WithoutPredicateEveryRegionIsScannedOnItsLeader) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10), NodeId{1}), FeRoute(1, FeGe(10), NodeId{2})});
  QueryPlan plan = PlanQuery(cached, kFeTable, std::nullopt, Protocol::Greptime());
  EXPECT_EQ(plan.regions, (std::vector<RegionId>{Region(0), Region(1)}));
  ASSERT_EQ(plan.scans.size(), 2u);
  EXPECT_EQ(plan.scans[0].leader, NodeId{1});
  EXPECT_EQ(plan.scans[1].leader, NodeId{2});
  EXPECT_FALSE(plan.scans[0].planned_version.has_value());
  EXPECT_EQ(plan.error_count, 0u);
}

TEST(QueryPlannerTest, APredicatePrunesWithTheCachedRule) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  Predicate where = Predicate::Compare("a", CompareOp::kLt, Value::Int(5));
  QueryPlan plan = PlanQuery(cached, kFeTable, where, Protocol::Reference());
  EXPECT_EQ(plan.regions, std::vector<RegionId>{Region(0)});
  ASSERT_EQ(plan.scans.size(), 1u);
  EXPECT_EQ(plan.scans[0].region, Region(0));
}

TEST(QueryPlannerTest, FencedReadsSkipIgnoreAllWritesAndCarryVersions) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10)),
                                 FeRoute(2, FeGe(20), NodeId{1}, WritePolicy::kIgnoreAllWrites)});
  Protocol fenced = Protocol::Greptime();
  testing::SetRule(fenced, "fenced-reads");
  QueryPlan plan = PlanQuery(cached, kFeTable, std::nullopt, fenced);
  EXPECT_EQ(plan.regions, (std::vector<RegionId>{Region(0), Region(1)}));
  ASSERT_EQ(plan.scans.size(), 2u);
  EXPECT_EQ(plan.scans[1].planned_version, cached.route.region_routes[1].ExprVersionValue());
  QueryPlan unfenced = PlanQuery(cached, kFeTable, std::nullopt, Protocol::Greptime());
  EXPECT_EQ(unfenced.regions.size(), 3u);
}

TEST(QueryPlannerTest, ALeaderlessRegionIsAnErrorAndNotScanned) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10), std::nullopt), FeRoute(1, FeGe(10))});
  QueryPlan plan = PlanQuery(cached, kFeTable, std::nullopt, Protocol::Greptime());
  EXPECT_EQ(plan.regions, (std::vector<RegionId>{Region(0), Region(1)}));
  ASSERT_EQ(plan.scans.size(), 1u);
  EXPECT_EQ(plan.scans[0].region, Region(1));
  EXPECT_EQ(plan.error_count, 1u);
  EXPECT_EQ(plan.error, "Failed to find leader for region 4398046511104(1024, 0)");
}

}  // namespace query_planner_test
}  // namespace
}  // namespace repartsim::model
