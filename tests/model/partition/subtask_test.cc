// Goal: pin overlap, grouping into connected components (per-group indices, isolated nodes
// dropped) and the P1 global-index switch; and merge simplification. Method: small
// hand-built expression sets with known answers, mirroring subtask.rs's own test shapes.
#include "model/partition/subtask.h"

#include <gtest/gtest.h>

#include "model/partition/overlap.h"
#include "model/partition/simplify.h"

namespace repartsim::model {
namespace {
namespace subtask_test {

using E = PartitionExpr;
using V = std::vector<size_t>;

E Lt(int64_t v) { return E::Leaf("x", CompareOp::kLt, Value::Int(v)); }
E GtEq(int64_t v) { return E::Leaf("x", CompareOp::kGtEq, Value::Int(v)); }
E Range(int64_t lo, int64_t hi) { return E::And(GtEq(lo), Lt(hi)); }

TEST(OverlapTest, DenseIntervals) {
  EXPECT_TRUE(ExprPairOverlap(Lt(10), Lt(5)));
  EXPECT_FALSE(ExprPairOverlap(Lt(10), GtEq(10)));
  EXPECT_TRUE(ExprPairOverlap(Range(0, 10), Range(9, 20)));
  EXPECT_FALSE(ExprPairOverlap(Range(0, 10), Range(10, 20)));
}

TEST(OverlapTest, ExactModeKnowsIntegerGaps) {
  E lt2 = Lt(2);
  E gt1 = E::Leaf("x", CompareOp::kGt, Value::Int(1));
  EXPECT_TRUE(ExprPairOverlap(lt2, gt1));         // 1 < x < 2 on a dense order
  EXPECT_FALSE(ExprPairOverlap(lt2, gt1, true));  // no integer there
}

TEST(OverlapTest, NotEqAndOneSidedColumnsAreIgnored) {
  E ne = E::Leaf("x", CompareOp::kNotEq, Value::Int(5));
  EXPECT_TRUE(ExprPairOverlap(ne, E::Leaf("x", CompareOp::kEq, Value::Int(5))));
  E y = E::Leaf("y", CompareOp::kLt, Value::Int(0));
  EXPECT_TRUE(ExprPairOverlap(y, Lt(0)));
}

TEST(SubtaskTest, OneComponentSplit) {
  auto tasks = CreateSubtasks({Range(0, 20)}, {Range(0, 10), Range(10, 20)});
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].from_expr_indices, V({0}));
  EXPECT_EQ(tasks[0].to_expr_indices, V({0, 1}));
  EXPECT_EQ(tasks[0].transition_map, std::vector<V>({V{0, 1}}));
}

TEST(SubtaskTest, TwoComponentsUseLocalIndicesByDefault) {
  std::vector<E> from = {Lt(10), GtEq(20)};
  std::vector<E> to = {Lt(5), Range(5, 10), Range(20, 30), GtEq(30)};
  auto tasks = CreateSubtasks(from, to);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[1].from_expr_indices, V({1}));
  EXPECT_EQ(tasks[1].to_expr_indices, V({2, 3}));
  EXPECT_EQ(tasks[1].transition_map, std::vector<V>({V{0, 1}}));
}

TEST(SubtaskTest, GlobalIndicesReproduceP1) {
  std::vector<E> from = {Lt(10), GtEq(20)};
  std::vector<E> to = {Lt(5), Range(5, 10), Range(20, 30), GtEq(30)};
  auto tasks = CreateSubtasks(from, to, {true, false});
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[1].transition_map, std::vector<V>({V{2, 3}}));  // past its 2 targets
}

TEST(SubtaskTest, IsolatedExpressionsAreDropped) {
  auto tasks = CreateSubtasks({Lt(0)}, {GtEq(100)});
  EXPECT_TRUE(tasks.empty());
}

TEST(SubtaskTest, ChainsJoinIntoOneComponent) {
  std::vector<E> from = {Range(0, 10), Range(10, 20)};
  std::vector<E> to = {Range(0, 5), Range(5, 15), Range(15, 20)};
  auto tasks = CreateSubtasks(from, to);
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].from_expr_indices, V({0, 1}));
  EXPECT_EQ(tasks[0].transition_map, std::vector<V>({V{0, 1}, V{1, 2}}));
}

TEST(SimplifyTest, AdjacentRangesMerge) {
  EXPECT_EQ(SimplifyMergedExpr({Range(10, 20), GtEq(20)}).ToSql(), "x >= 10");
  EXPECT_EQ(SimplifyMergedExpr({Lt(10), Range(10, 20)}).ToSql(), "x < 20");
  EXPECT_EQ(SimplifyMergedExpr({Range(0, 10), Range(10, 20), Range(20, 30)}).ToSql(),
            "x >= 0 AND x < 30");
}

TEST(SimplifyTest, SubsumedAndDuplicateTermsAreDropped) {
  EXPECT_EQ(SimplifyMergedExpr({Range(0, 10), Range(0, 10)}).ToSql(), "x >= 0 AND x < 10");
  EXPECT_EQ(SimplifyMergedExpr({Range(0, 30), Range(10, 20)}).ToSql(), "x >= 0 AND x < 30");
}

TEST(SimplifyTest, GapKeepsTheOr) {
  EXPECT_EQ(SimplifyMergedExpr({Lt(10), GtEq(20)}).ToSql(), "x < 10 OR x >= 20");
}

TEST(SimplifyTest, NotEqOrNullFallsBackToTheLeftFold) {
  E ne = E::Leaf("x", CompareOp::kNotEq, Value::Int(3));
  E r = SimplifyMergedExpr({ne, Lt(0), Lt(0)});
  EXPECT_EQ(r, E::Or(E::Or(ne, Lt(0)), Lt(0)));
  E null_eq = E::Leaf("x", CompareOp::kEq, Value::Null());
  EXPECT_EQ(SimplifyMergedExpr({null_eq, Lt(0)}), E::Or(null_eq, Lt(0)));
}

TEST(SimplifyTest, TwoColumnTermsMergeOnTheDifferingColumn) {
  E y_lo = E::Leaf("y", CompareOp::kLt, Value::String("m"));
  E y_hi = E::Leaf("y", CompareOp::kGtEq, Value::String("m"));
  EXPECT_EQ(SimplifyMergedExpr({E::And(Lt(10), y_lo), E::And(Lt(10), y_hi)}).ToSql(), "x < 10");
}

TEST(SimplifyTest, UnboundedUnionKeepsTheOr) {
  EXPECT_EQ(SimplifyMergedExpr({Lt(10), GtEq(10)}).ToSql(), "x < 10 OR x >= 10");
}

}  // namespace subtask_test
}  // namespace
}  // namespace repartsim::model
