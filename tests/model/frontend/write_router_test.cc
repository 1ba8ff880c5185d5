// Goal: the frontend's write router (docs/protocol.md section 5): rows split over the regions of
// the cached route by the row path (the bulk path may send a row to several regions), one
// request per leader datanode, versions stamped on the row path only (the bulk batcher never
// stamps, P10) unless Rule::kVersionFenceUnversioned; a region without a leader refuses its
// rows; an expression naming a non-partition column fails the whole row-path insert (P13).
// Method: RouteWrite over hand-made routes, exact writes and errors.
#include "model/frontend/write_router.h"

#include <gtest/gtest.h>

#include "tests/model/frontend/frontend_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace write_router_test {

using namespace testing;  // NOLINT

TEST(WriteRouterTest, RowPathGroupsByLeaderAndStampsVersions) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10), NodeId{1}), FeRoute(1, FeGe(10), NodeId{2})});
  WriteRouting routing = RouteWrite(cached, kFeTable, {FeRow(1, 1), FeRow(20, 2), FeRow(5, 3)},
                                    WritePath::kRow, Protocol::Greptime());
  EXPECT_EQ(routing.error_count, 0u);
  EXPECT_EQ(routing.error, "");
  ASSERT_EQ(routing.by_node.size(), 2u);
  const std::vector<RegionWrite>& dn1 = routing.by_node.at(NodeId{1});
  ASSERT_EQ(dn1.size(), 1u);
  EXPECT_EQ(dn1[0].region, RegionId::Of(kFeTable, RegionNumber{0}));
  EXPECT_EQ(dn1[0].rows, (std::vector<Row>{FeRow(1, 1), FeRow(5, 3)}));
  EXPECT_EQ(dn1[0].version, ExprVersion(&*cached.route.region_routes[0].partition_expr));
  const std::vector<RegionWrite>& dn2 = routing.by_node.at(NodeId{2});
  ASSERT_EQ(dn2.size(), 1u);
  EXPECT_EQ(dn2[0].rows, std::vector<Row>{FeRow(20, 2)});
}

TEST(WriteRouterTest, BulkPathIsUnstampedUnlessTheUnversionedFenceIsOn) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  WriteRouting bulk =
      RouteWrite(cached, kFeTable, {FeRow(1, 1)}, WritePath::kBatcher, Protocol::Greptime());
  ASSERT_EQ(bulk.by_node.at(NodeId{1}).size(), 1u);
  EXPECT_FALSE(bulk.by_node.at(NodeId{1})[0].version.has_value());
  Protocol fenced = Protocol::Greptime();
  testing::SetRule(fenced, "version-fence-unversioned");
  WriteRouting stamped = RouteWrite(cached, kFeTable, {FeRow(1, 1)}, WritePath::kBatcher, fenced);
  EXPECT_EQ(stamped.by_node.at(NodeId{1})[0].version,
            ExprVersion(&*cached.route.region_routes[0].partition_expr));
}

TEST(WriteRouterTest, FlightPathSplitsVectorisedAndStampsVersions) {
  // Overlapping expressions (a < 10 and a >= 5): the vectorised split sends 7 to both regions,
  // the row path to the first match only; both stamp the versions, the batcher does not.
  CachedTable cached = FeCached({FeRoute(0, FeLt(10), NodeId{1}), FeRoute(1, FeGe(5), NodeId{1})});
  WriteRouting flight =
      RouteWrite(cached, kFeTable, {FeRow(7, 1)}, WritePath::kFlight, Protocol::Greptime());
  const std::vector<RegionWrite>& dn1 = flight.by_node.at(NodeId{1});
  ASSERT_EQ(dn1.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(dn1[i].region, RegionId::Of(kFeTable, RegionNumber{static_cast<uint32_t>(i)}));
    EXPECT_EQ(dn1[i].rows, std::vector<Row>{FeRow(7, 1)});
    EXPECT_EQ(dn1[i].version, ExprVersion(&*cached.route.region_routes[i].partition_expr));
  }
  WriteRouting row =
      RouteWrite(cached, kFeTable, {FeRow(7, 1)}, WritePath::kRow, Protocol::Greptime());
  ASSERT_EQ(row.by_node.at(NodeId{1}).size(), 1u);
  EXPECT_EQ(row.by_node.at(NodeId{1})[0].region, RegionId::Of(kFeTable, RegionNumber{0}));
  WriteRouting batcher =
      RouteWrite(cached, kFeTable, {FeRow(7, 1)}, WritePath::kBatcher, Protocol::Greptime());
  ASSERT_EQ(batcher.by_node.at(NodeId{1}).size(), 2u);
  EXPECT_FALSE(batcher.by_node.at(NodeId{1})[0].version.has_value());
  EXPECT_FALSE(batcher.by_node.at(NodeId{1})[1].version.has_value());
}

TEST(WriteRouterTest, FlightPathIgnoresTheRowPathsUndefinedColumn) {
  // P13's window (column list already `ts`, expressions still over `a`) fails only the row
  // path, which evaluates the expressions over the partition columns' values.
  CachedTable cached = FeCached({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  cached.info.partition_key_indices = {1};
  WriteRouting flight =
      RouteWrite(cached, kFeTable, {FeRow(20, 2)}, WritePath::kFlight, Protocol::Greptime());
  EXPECT_EQ(flight.error_count, 0u);
  ASSERT_EQ(flight.by_node.at(NodeId{1}).size(), 1u);
  EXPECT_EQ(flight.by_node.at(NodeId{1})[0].region, RegionId::Of(kFeTable, RegionNumber{1}));
}

TEST(WriteRouterTest, ARegionWithoutLeaderRefusesItsRows) {
  CachedTable cached = FeCached({FeRoute(0, FeLt(10), std::nullopt), FeRoute(1, FeGe(10))});
  WriteRouting routing = RouteWrite(cached, kFeTable, {FeRow(1, 1), FeRow(20, 2)}, WritePath::kRow,
                                    Protocol::Greptime());
  EXPECT_EQ(routing.error_count, 1u);
  EXPECT_EQ(routing.error, "Failed to find leader for region 4398046511104(1024, 0)");
  ASSERT_EQ(routing.by_node.size(), 1u);
  EXPECT_EQ(routing.by_node.at(NodeId{1})[0].rows, std::vector<Row>{FeRow(20, 2)});
}

TEST(WriteRouterTest, AnExpressionOverANonPartitionColumnFailsTheRowPathInsert) {
  // ON COLUMNS (ts) is already the column list, the expressions are still over `a` (P13).
  CachedTable cached = FeCached({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  cached.info.partition_key_indices = {1};
  WriteRouting routing =
      RouteWrite(cached, kFeTable, {FeRow(20, 2)}, WritePath::kRow, Protocol::Greptime());
  EXPECT_EQ(routing.error_count, 1u);
  EXPECT_EQ(routing.error,
            "Undefined column: a (not a partition column of table " + kFeTable.ToString() + ")");
  EXPECT_TRUE(routing.by_node.empty());
}

}  // namespace write_router_test
}  // namespace
}  // namespace repartsim::model
