// Goal: canonical encodings round-trip exactly (Decode(Encode(v)) == v, byte-identical
// re-encoding) for routes, table info, table_repart and every value type inside expressions;
// malformed bytes are errors with pinned messages.
// Method: encode, decode, compare values and bytes.
#include "model/meta/meta_codec.h"

#include <gtest/gtest.h>

#include <limits>

namespace repartsim::model {
namespace {
namespace meta_codec_test {

PartitionExpr Complex() {
  PartitionExpr a = PartitionExpr::And(
      PartitionExpr::Leaf("a", CompareOp::kGtEq, Value::Int(-5)),
      PartitionExpr::Leaf("s", CompareOp::kNotEq, Value::String("it's \"q\"\n")));
  PartitionExpr b = PartitionExpr::Or(
      PartitionExpr::Leaf("u", CompareOp::kLt, Value::UInt(std::numeric_limits<uint64_t>::max())),
      PartitionExpr::Leaf("d", CompareOp::kGt, Value::Double(1.5)));
  PartitionExpr c = PartitionExpr::And(PartitionExpr::Leaf("b", CompareOp::kEq, Value::Bool(true)),
                                       PartitionExpr::Leaf("n", CompareOp::kEq, Value::Null()));
  PartitionExpr t = PartitionExpr::Leaf("ts", CompareOp::kLtEq, Value::Timestamp(1700000000000));
  return PartitionExpr::Or(PartitionExpr::And(a, b), PartitionExpr::And(c, t));
}

TEST(MetaCodecTest, PartitionExprRoundTripsThroughCanonicalText) {
  PartitionExpr e = Complex();
  sim::Result<PartitionExpr> decoded = DecodePartitionExpr(e.CanonicalText());
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded.value(), e);
  EXPECT_EQ(decoded.value().CanonicalText(), e.CanonicalText());
  EXPECT_EQ(ExprVersion(&decoded.value()), ExprVersion(&e));
  for (double d : {std::numeric_limits<double>::infinity(), -0.25, 1e300}) {
    PartitionExpr leaf = PartitionExpr::Leaf("d", CompareOp::kLt, Value::Double(d));
    sim::Result<PartitionExpr> back = DecodePartitionExpr(leaf.CanonicalText());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back.value().CanonicalText(), leaf.CanonicalText());
  }
}

TEST(MetaCodecTest, TableRouteRoundTripsWithEveryField) {
  RegionRoute r0;
  r0.region_id = RegionId::Of(TableId{1024}, RegionNumber{0});
  r0.partition_expr = Complex();
  r0.leader = NodeId{2};
  r0.followers = {NodeId{3}, NodeId{1}};
  r0.leader_state = LeaderState::kDowngrading;
  r0.leader_down_since = sim::SimTime{4200};
  RegionRoute r1;
  r1.region_id = RegionId::Of(TableId{1024}, RegionNumber{4});
  r1.leader_state = LeaderState::kStaging;
  r1.write_policy = WritePolicy::kIgnoreAllWrites;
  TableRoute route = TableRoute::New({r0, r1}).Updated({r0, r1});
  const std::string bytes = EncodeTableRoute(route);
  sim::Result<TableRoute> decoded = DecodeTableRoute(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded.value(), route);
  EXPECT_EQ(EncodeTableRoute(decoded.value()), bytes);
  EXPECT_EQ(decoded.value().version, 1u);
  EXPECT_EQ(decoded.value().max_region_number, RegionNumber{4});
}

TEST(MetaCodecTest, TableInfoRoundTrips) {
  TableInfo info;
  info.table_id = TableId{1025};
  info.name = "metrics";
  info.schema.name = "metrics";
  info.schema.columns = {
      Column{"host", ColumnType::kString, true}, Column{"a", ColumnType::kInt32, true},
      Column{"ts", ColumnType::kTimestamp, false}, Column{"v", ColumnType::kFloat64, true}};
  info.schema.primary_key = {0, 1};
  info.schema.time_index = 2;
  info.schema.partition_columns = {"a"};
  info.schema.append_mode = true;
  info.partition_key_indices = {1};
  info.options = {{"ttl", "7d"}, {"append_mode", "true"}};
  const std::string bytes = EncodeTableInfo(info);
  sim::Result<TableInfo> decoded = DecodeTableInfo(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_TRUE(decoded.value() == info);
  EXPECT_EQ(EncodeTableInfo(decoded.value()), bytes);
  EXPECT_EQ(decoded.value().PartitionColumnNames(), std::vector<std::string>{"a"});
}

TEST(MetaCodecTest, TableRepartRoundTrips) {
  TableRepart repart;
  RegionId r1 = RegionId::Of(TableId{1}, RegionNumber{1});
  RegionId r3 = RegionId::Of(TableId{1}, RegionNumber{3});
  repart.src_to_dst[r1] = {r1, r3};
  const std::string bytes = EncodeTableRepart(repart);
  sim::Result<TableRepart> decoded = DecodeTableRepart(bytes);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.value(), repart);
  EXPECT_EQ(bytes, "{\"src_to_dst\":[[4294967297,[4294967297,4294967299]]]}");
}

// Encoding and decoding are memoized per thread: asking again gives the same answer, a route
// that differs in any field gets its own encoding, and a malformed value stays an error.
TEST(MetaCodecTest, MemoizedCodecsAnswerAsTheFirstTime) {
  RegionRoute r0;
  r0.region_id = RegionId::Of(TableId{1024}, RegionNumber{0});
  r0.partition_expr = Complex();
  r0.leader = NodeId{2};
  const TableRoute route = TableRoute::New({r0});
  const std::string bytes = EncodeTableRoute(route);
  EXPECT_EQ(EncodeTableRoute(route), bytes);
  TableRoute moved = route;
  moved.region_routes[0].leader = NodeId{3};
  const std::string moved_bytes = EncodeTableRoute(moved);
  EXPECT_NE(moved_bytes, bytes);
  EXPECT_EQ(DecodeTableRoute(bytes).value(), route);
  EXPECT_EQ(DecodeTableRoute(moved_bytes).value(), moved);
  EXPECT_EQ(DecodeTableRoute(bytes).value(), route);
  EXPECT_FALSE(DecodeTableRoute("{nope").ok());
  EXPECT_FALSE(DecodeTableRoute("{nope").ok());
}

TEST(MetaCodecTest, MalformedBytesAreErrorsWithKvLocation) {
  sim::Result<TableRoute> route = DecodeTableRoute("{nope");
  ASSERT_FALSE(route.ok());
  EXPECT_EQ(route.error().Format(), "<kv>: error: malformed table route: {nope");
  sim::Result<TableInfo> info = DecodeTableInfo("[]");
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().message, "malformed table info: []");
  sim::Result<PartitionExpr> expr = DecodePartitionExpr("{\"Expr\":{\"lhs\":1}}");
  ASSERT_FALSE(expr.ok());
  EXPECT_EQ(expr.error().message, "malformed partition expression: {\"Expr\":{\"lhs\":1}}");
}

}  // namespace meta_codec_test
}  // namespace
}  // namespace repartsim::model
