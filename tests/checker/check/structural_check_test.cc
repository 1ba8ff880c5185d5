// Goal: INV-RULE and INV-OWN produce the exact documented Violation for a broken state and
// nothing for a correct one.
// Method: a two-region rule on host with a gap (and one with an overlap) against the
// partition checker; region row sets with rows outside the expression, NULL included; a
// write accepted by a staging region under its staging expression.
#include "checker/check/structural_check.h"

#include <gtest/gtest.h>

#include "tests/checker/check/test_schema.h"

namespace repartsim::check {
namespace {
namespace structural_check_test {

using model::CompareOp;
using model::PartitionExpr;
using model::Value;
using testing_schema::R;
using testing_schema::Schema;

PartitionExpr Host(CompareOp op, const char* s) {
  return PartitionExpr::Leaf("host", op, Value::String(s));
}

model::PartitionRule Rule(PartitionExpr low, PartitionExpr high) {
  return model::PartitionRule{{"host"}, {0, 1}, {std::move(low), std::move(high)}};
}

const model::TableId kTable{1024};
const model::RegionId kRegion1 = model::RegionId::Of(kTable, model::RegionNumber{1});

TEST(RuleCheckTest, CompleteDisjointRulePasses) {
  model::PartitionRule rule = Rule(Host(CompareOp::kLt, "m"), Host(CompareOp::kGtEq, "m"));
  EXPECT_FALSE(CheckPublishedRule(rule, Schema(), kTable, model::CheckMode::kExact, {3, 30}));
}

TEST(RuleCheckTest, RuleWithGapIsRuleViolation) {
  model::PartitionRule rule = Rule(Host(CompareOp::kLt, "m"), Host(CompareOp::kGt, "m"));
  std::optional<Violation> got =
      CheckPublishedRule(rule, Schema(), kTable, model::CheckMode::kExact, {3, 30});
  ASSERT_TRUE(got.has_value());
  Violation expected{Invariant::kRule,
                     3,
                     30,
                     {},
                     {"4398046511104(1024, 0)", "4398046511105(1024, 1)"},
                     "published rule of table t is not complete and disjoint: Checkpoint "
                     "`host=m` is not covered",
                     {}};
  EXPECT_EQ(*got, expected);
}

TEST(RuleCheckTest, OverlappingRuleIsRuleViolation) {
  model::PartitionRule rule = Rule(Host(CompareOp::kLtEq, "m"), Host(CompareOp::kGtEq, "m"));
  std::optional<Violation> got =
      CheckPublishedRule(rule, Schema(), kTable, model::CheckMode::kExact, {3, 30});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->message,
            "published rule of table t is not complete and disjoint: Checkpoint `host=m` is "
            "overlapped");
}

TEST(OwnCheckTest, RowsInsideExpressionPass) {
  OwnershipChecker checker(Schema());
  PartitionExpr expr = Host(CompareOp::kLt, "m");
  EXPECT_FALSE(
      CheckRegionOwnership(checker, kRegion1, &expr, {R("a", 1, 1), R(nullptr, 2, 2)}, {7, 70}));
  EXPECT_FALSE(CheckRegionOwnership(checker, kRegion1, nullptr, {R("z", 1, 1)}, {7, 70}));
}

TEST(OwnCheckTest, RowsOutsideExpressionAreOwnViolation) {
  OwnershipChecker checker(Schema());
  PartitionExpr expr = Host(CompareOp::kGtEq, "m");
  std::optional<Violation> got = CheckRegionOwnership(
      checker, kRegion1, &expr, {R("a", 1, 1), R("x", 2, 2), R(nullptr, 3, 3)}, {7, 70});
  ASSERT_TRUE(got.has_value());
  Violation expected{Invariant::kOwn,
                     7,
                     70,
                     {"(host='a', ts=1, v=1)", "(host=NULL, ts=3, v=3)"},
                     {"4398046511105(1024, 1)"},
                     "region 4398046511105(1024, 1) exposes 2 rows outside its expression "
                     "host >= 'm'",
                     {}};
  EXPECT_EQ(*got, expected);
}

TEST(OwnCheckTest, WriteCoveredByStagingExpressionPasses) {
  OwnershipChecker checker(Schema());
  PartitionExpr current = Host(CompareOp::kLt, "m");
  PartitionExpr staging = Host(CompareOp::kLt, "t");
  EXPECT_FALSE(CheckAcceptedWrite(checker, kRegion1, &current, &staging,
                                  {R("a", 1, 1), R("p", 1, 1)}, {8, 80}));
}

// A split source stages a narrower expression: a row of the range it hands over is not its to
// accept any more, though its committed expression still covers it (the check used to accept
// a row either expression covered).
TEST(OwnCheckTest, SplitSourceAcceptingTheRangeItHandsOverIsOwnViolation) {
  OwnershipChecker checker(Schema());
  PartitionExpr current = Host(CompareOp::kLt, "t");
  PartitionExpr staging = Host(CompareOp::kLt, "m");
  std::optional<Violation> got = CheckAcceptedWrite(checker, kRegion1, &current, &staging,
                                                    {R("a", 1, 1), R("p", 1, 1)}, {8, 80});
  ASSERT_TRUE(got.has_value());
  Violation expected{Invariant::kOwn,
                     8,
                     80,
                     {"(host='p', ts=1, v=1)"},
                     {"4398046511105(1024, 1)"},
                     "region 4398046511105(1024, 1) accepted 1 row outside its staging "
                     "expression host < 'm' (committed: host < 't')",
                     {}};
  EXPECT_EQ(*got, expected);
}

TEST(OwnCheckTest, WriteOutsideCurrentAndStagingIsOwnViolation) {
  OwnershipChecker checker(Schema());
  PartitionExpr current = Host(CompareOp::kLt, "m");
  PartitionExpr staging = Host(CompareOp::kLt, "t");
  std::optional<Violation> got = CheckAcceptedWrite(
      checker, kRegion1, &current, &staging, {R("a", 1, 1), R("p", 1, 1), R("x", 1, 1)}, {8, 80});
  ASSERT_TRUE(got.has_value());
  Violation expected{Invariant::kOwn,
                     8,
                     80,
                     {"(host='x', ts=1, v=1)"},
                     {"4398046511105(1024, 1)"},
                     "region 4398046511105(1024, 1) accepted 1 row outside its staging "
                     "expression host < 't' (committed: host < 'm')",
                     {}};
  EXPECT_EQ(*got, expected);
  std::optional<Violation> no_staging =
      CheckAcceptedWrite(checker, kRegion1, &current, nullptr, {R("p", 1, 1)}, {8, 80});
  ASSERT_TRUE(no_staging.has_value());
  EXPECT_EQ(no_staging->message,
            "region 4398046511105(1024, 1) accepted 1 row outside its expression host < 'm'");
}

}  // namespace structural_check_test
}  // namespace
}  // namespace repartsim::check
