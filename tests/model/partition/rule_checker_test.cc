// Goal: pin the checkpoint checker's verdicts and its exact messages in both modes, and the
// routing helpers. Method: rules parsed from SQL (the parser is tested separately), checked
// against the texts the real checker.rs would produce.
#include <gtest/gtest.h>

#include "model/partition/rule.h"
#include "model/sql/parser.h"

namespace repartsim::model {
namespace {
namespace rule_checker_test {

struct Table {
  TableSchema schema;
  PartitionRule rule;
};

Table Make(const std::string& columns, const std::string& on, const std::string& exprs) {
  std::string sql = "CREATE TABLE t (" + columns +
                    ", ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (" + on + ") (" + exprs + ")";
  auto parsed = sql::ParseStatements(sql, "test");
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().Format());
  const auto& create = std::get<sql::CreateTable>(parsed.value()[0].body);
  return {create.schema, create.rule};
}

std::string Check(const Table& t, CheckMode mode = CheckMode::kGreptime) {
  return CheckRule(t.rule, t.schema, mode).value_or("valid");
}

TEST(RuleCheckerTest, AcceptsCompleteDisjointRule) {
  EXPECT_EQ(Check(Make("a INT", "a", "a < 10, a >= 10 AND a < 20, a >= 20")), "valid");
}

TEST(RuleCheckerTest, GapIsNotCovered) {
  EXPECT_EQ(Check(Make("a INT", "a", "a < 10, a > 10")), "Checkpoint `a=10` is not covered");
  EXPECT_EQ(Check(Make("a INT", "a", "a < 10, a >= 20")), "Checkpoint `a=10` is not covered");
  EXPECT_EQ(Check(Make("a INT", "a", "a <= 10, a >= 20")), "Checkpoint `10<a<20` is not covered");
  EXPECT_EQ(Check(Make("a INT", "a", "a >= 10")), "Checkpoint `a<10` is not covered");
  EXPECT_EQ(Check(Make("a INT", "a", "a <= 10")), "Checkpoint `a>10` is not covered");
}

TEST(RuleCheckerTest, OverlapIsReported) {
  EXPECT_EQ(Check(Make("a INT", "a", "a <= 10, a >= 10")), "Checkpoint `a=10` is overlapped");
  EXPECT_EQ(Check(Make("a INT", "a", "a < 20, a >= 10")), "Checkpoint `a=10` is overlapped");
}

TEST(RuleCheckerTest, TwoColumnsRenderEveryCoordinateInNameOrder) {
  Table t = Make("b INT, a STRING", "b, a",
                 "b < 10 AND a < 'm', b < 10 AND a >= 'm', b >= 10 AND a < 'm'");
  EXPECT_EQ(Check(t), "Checkpoint `a=m, b=10` is not covered");
}

TEST(RuleCheckerTest, StringValuesRenderUnquoted) {
  EXPECT_EQ(Check(Make("host STRING", "host", "host < 'm', host > 'm'")),
            "Checkpoint `host=m` is not covered");
}

TEST(RuleCheckerTest, DiscreteGapRejectedByGreptimeAcceptedByExact) {
  Table t = Make("a INT", "a", "a <= 1, a >= 2");
  EXPECT_EQ(Check(t), "Checkpoint `1<a<2` is not covered");
  EXPECT_EQ(Check(t, CheckMode::kExact), "valid");
  Table f = Make("a DOUBLE", "a", "a <= 1, a >= 2");
  EXPECT_EQ(Check(f, CheckMode::kExact), "Checkpoint `1<a<2` is not covered");
  Table u = Make("a INT UNSIGNED", "a", "a = 0, a > 0");
  EXPECT_EQ(Check(u), "Checkpoint `a<0` is not covered");
  EXPECT_EQ(Check(u, CheckMode::kExact), "valid");
  Table b = Make("a BOOLEAN", "a", "a = false, a = true");
  EXPECT_EQ(Check(b, CheckMode::kExact), "valid");
}

TEST(RuleCheckerTest, AtomsOfOneExpressionOverlapOnlyInGreptimeMode) {
  Table t = Make("a INT", "a", "a < 10 OR a < 5, a >= 10");
  EXPECT_EQ(Check(t), "Checkpoint `a<5` is overlapped");
  EXPECT_EQ(Check(t, CheckMode::kExact), "valid");
}

TEST(RuleCheckerTest, DuplicateExpressionNamesTheFirstCopy) {
  Table t = Make("a INT", "a", "a < 10, a >= 10, a < 10");
  EXPECT_EQ(Check(t),
            "Duplicate expr: PartitionExpr { lhs: Column(\"a\"), op: Lt, rhs: Value(Int64(10)) }");
}

TEST(RuleCheckerTest, DuplicateAtomInsideOneExpressionGivesThePlaceholder) {
  Table t = Make("a INT", "a", "a < 10 OR a < 10, a >= 10");
  EXPECT_EQ(Check(t),
            "Duplicate expr: PartitionExpr { lhs: Column(\"unknown\"), op: Eq, rhs: "
            "Column(\"expr\") }");
  EXPECT_EQ(Check(t, CheckMode::kExact), "valid");
}

TEST(RuleCheckerTest, OrUnderAndIsACollideError) {
  PartitionRule rule;
  rule.columns = {"a"};
  rule.regions = {0};
  rule.exprs = {PartitionExpr::And(
      PartitionExpr::Leaf("a", CompareOp::kGt, Value::Int(0)),
      PartitionExpr::Or(PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(1)),
                        PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(2))))};
  EXPECT_EQ(CheckRule(rule, TableSchema{}, CheckMode::kGreptime).value_or("valid"),
            "Unexpected: Conjunction operation Or should be handled elsewhere");
}

TEST(RuleCheckerTest, MixedLiteralTypesAreAnError) {
  PartitionRule rule;
  rule.exprs = {PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(1)),
                PartitionExpr::Leaf("a", CompareOp::kGtEq, Value::String("1"))};
  rule.regions = {0, 1};
  EXPECT_EQ(CheckRule(rule, TableSchema{}, CheckMode::kGreptime).value_or("valid"),
            "cannot compare Int64 with String");
}

TEST(RuleCheckerTest, EmptyRuleIsValid) {
  EXPECT_FALSE(CheckRule(PartitionRule{}, TableSchema{}, CheckMode::kGreptime).has_value());
}

TEST(RuleCheckerTest, NotEqPairIsComplete) {
  EXPECT_EQ(Check(Make("host STRING", "host", "host = 'a', host <> 'a'")), "valid");
}

TEST(RoutingTest, RowPathFirstMatchAndDefaultRegion) {
  Table t = Make("a INT", "a", "a < 10, a >= 10 AND a < 20");
  Row row = {Value::Int(15), Value::Timestamp(0)};
  EXPECT_EQ(FindRegionRowPath(t.rule, t.schema, row), 1u);
  row[0] = Value::Int(25);  // unmatched -> default region 0
  EXPECT_EQ(FindRegionRowPath(t.rule, t.schema, row), 0u);
  EXPECT_EQ(RegionsBulkPath(t.rule, t.schema, row), std::vector<uint32_t>{0});
}

TEST(RoutingTest, BulkPathSendsOverlappingRowsToEveryRegion) {
  Table t = Make("a INT", "a", "a < 10, a <= 10, a > 10");
  Row row = {Value::Int(5), Value::Timestamp(0)};
  EXPECT_EQ(FindRegionRowPath(t.rule, t.schema, row), 0u);
  EXPECT_EQ(RegionsBulkPath(t.rule, t.schema, row), (std::vector<uint32_t>{0, 1}));
}

TEST(RoutingTest, NullUnderNotEqSplitsThePaths) {
  Table t = Make("host STRING", "host", "host = 'a', host <> 'a'");
  Row row = {Value::Null(), Value::Timestamp(0)};
  EXPECT_EQ(FindRegionRowPath(t.rule, t.schema, row), 1u);
  EXPECT_EQ(RegionsBulkPath(t.rule, t.schema, row), std::vector<uint32_t>{0});
}

}  // namespace rule_checker_test
}  // namespace
}  // namespace repartsim::model
