// Goal: the frontend's partition views (docs/protocol.md sections 5.1, 2.3): the write rule zips
// all write partitions with only the existing expressions (P3), IgnoreAllWrites routes leave the
// write side but stay on the read side, versions are stamped per region; the aligned rule (the
// reference profile) drops expression-less regions. Method: build routes by hand, exact views.
#include "model/frontend/frontend.h"

#include <gtest/gtest.h>

namespace repartsim::model {
namespace {
namespace frontend_test {

constexpr TableId kTable{1024};

TableInfo Info() {
  TableInfo info;
  info.table_id = kTable;
  info.name = "t";
  info.schema.name = "t";
  info.schema.columns = {Column{"a", ColumnType::kInt32, true},
                         Column{"ts", ColumnType::kTimestamp, false}};
  info.schema.time_index = 1;
  info.partition_key_indices = {0};
  return info;
}

RegionRoute Route(uint32_t number, std::optional<PartitionExpr> expr,
                  WritePolicy policy = WritePolicy::kNormal) {
  RegionRoute r;
  r.region_id = RegionId::Of(kTable, RegionNumber{number});
  r.partition_expr = std::move(expr);
  r.leader = NodeId{1};
  r.write_policy = policy;
  return r;
}

PartitionExpr Lt(int64_t v) { return PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(v)); }
PartitionExpr Ge(int64_t v) { return PartitionExpr::Leaf("a", CompareOp::kGtEq, Value::Int(v)); }

TEST(PartitionViewTest, ExpressionLessRegionMisalignsTheRealRule) {
  // Unpartitioned -> 3 partitions after AllocateRegion: R0 "" plus R1 (B), R2 (C).
  TableRoute route = TableRoute::New({Route(0, std::nullopt), Route(1, Ge(10)), Route(2, Ge(20))});
  PartitionView view = BuildPartitionView(route, Info(), Protocol::Greptime());
  EXPECT_EQ(view.write_rule.regions, (std::vector<uint32_t>{0, 1, 2}));
  ASSERT_EQ(view.write_rule.exprs.size(), 2u);
  // exprs[0] (a >= 10) pairs with region 0 and exprs[1] (a >= 20) with region 1: misaligned.
  Row row{Value::Int(25), Value::Timestamp(1)};
  EXPECT_EQ(FindRegionRowPath(view.write_rule, Info().schema, row), 0u);
  EXPECT_EQ(view.versions.count(0), 0u);  // no expression: unversioned
  EXPECT_EQ(view.versions.at(1), ExprVersion(&*route.region_routes[1].partition_expr));
}

TEST(PartitionViewTest, AlignedRuleDropsExpressionLessRegions) {
  TableRoute route = TableRoute::New({Route(0, std::nullopt), Route(1, Ge(10)), Route(2, Ge(20))});
  PartitionView view = BuildPartitionView(route, Info(), Protocol::Reference());
  EXPECT_EQ(view.write_rule.regions, (std::vector<uint32_t>{1, 2}));
  Row row{Value::Int(25), Value::Timestamp(1)};
  EXPECT_EQ(FindRegionRowPath(view.write_rule, Info().schema, row), 1u);  // first match
}

TEST(PartitionViewTest, IgnoreAllWritesLeavesTheWriteSideOnly) {
  TableRoute route = TableRoute::New(
      {Route(0, Lt(10)), Route(1, Ge(10)), Route(2, Ge(20), WritePolicy::kIgnoreAllWrites)});
  PartitionView view = BuildPartitionView(route, Info(), Protocol::Greptime());
  EXPECT_EQ(view.write_rule.regions, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(view.versions.count(2), 0u);
  EXPECT_EQ(view.read_regions.size(), 3u);
}

}  // namespace frontend_test
}  // namespace
}  // namespace repartsim::model
