// Goal: pin partition expressions' canonical form, texts, version hash and both evaluators,
// including where the row and filter paths differ on NULL. Method: hand-built expressions.
#include "model/partition/expr.h"

#include <gtest/gtest.h>

namespace repartsim::model {
namespace {
namespace expr_test {

using E = PartitionExpr;

TableSchema Schema() {
  TableSchema s;
  s.name = "t";
  s.columns = {{"a", ColumnType::kInt32, true},
               {"b", ColumnType::kString, true},
               {"ts", ColumnType::kTimestamp, false}};
  s.time_index = 2;
  s.partition_columns = {"a", "b"};
  return s;
}

TEST(ExprTest, LiteralFirstLeafIsFlipped) {
  E e = E::LeafReversed(Value::Int(10), CompareOp::kLt, "a");
  EXPECT_EQ(e, E::Leaf("a", CompareOp::kGt, Value::Int(10)));
  EXPECT_EQ(E::LeafReversed(Value::Int(1), CompareOp::kGtEq, "a").op(), CompareOp::kLtEq);
  EXPECT_EQ(E::LeafReversed(Value::Int(1), CompareOp::kNotEq, "a").op(), CompareOp::kNotEq);
}

TEST(ExprTest, AndOperandsAreNotSorted) {
  E x = E::Leaf("a", CompareOp::kGtEq, Value::Int(0));
  E y = E::Leaf("a", CompareOp::kLt, Value::Int(10));
  EXPECT_NE(E::And(x, y), E::And(y, x));
  EXPECT_NE(ExprVersion(&static_cast<const E&>(E::And(x, y))),
            ExprVersion(&static_cast<const E&>(E::And(y, x))));
}

TEST(ExprTest, SqlText) {
  E e = E::Or(E::And(E::Leaf("a", CompareOp::kGtEq, Value::Int(10)),
                     E::Leaf("a", CompareOp::kLt, Value::Int(20))),
              E::Leaf("b", CompareOp::kEq, Value::String("x")));
  EXPECT_EQ(e.ToSql(), "a >= 10 AND a < 20 OR b = 'x'");
  E non_dnf = E::And(E::Leaf("a", CompareOp::kEq, Value::Int(1)),
                     E::Or(E::Leaf("b", CompareOp::kEq, Value::String("x")),
                           E::Leaf("b", CompareOp::kEq, Value::String("y"))));
  EXPECT_EQ(non_dnf.ToSql(), "a = 1 AND (b = 'x' OR b = 'y')");
}

TEST(ExprTest, CanonicalTextFollowsTheRealJsonShape) {
  E leaf = E::Leaf("a", CompareOp::kGtEq, Value::Int(10));
  EXPECT_EQ(leaf.CanonicalText(),
            R"({"Expr":{"lhs":{"Column":"a"},"op":"GtEq","rhs":{"Value":{"Int64":10}}}})");
  E both = E::And(leaf, E::Leaf("b", CompareOp::kNotEq, Value::String("q\"")));
  EXPECT_EQ(
      both.CanonicalText(),
      R"({"Expr":{"lhs":{"Expr":{"lhs":{"Column":"a"},"op":"GtEq","rhs":{"Value":{"Int64":10}}}},)"
      R"("op":"And","rhs":{"Expr":{"lhs":{"Column":"b"},"op":"NotEq","rhs":{"Value":{"String":"q\""}}}}}})");
  EXPECT_EQ(E::Leaf("a", CompareOp::kEq, Value::Null()).CanonicalText(),
            R"({"Expr":{"lhs":{"Column":"a"},"op":"Eq","rhs":{"Value":"Null"}}})");
}

TEST(ExprTest, VersionIsFnv1aOfCanonicalTextAndZeroForNone) {
  EXPECT_EQ(ExprVersion(nullptr), 0u);
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  E leaf = E::Leaf("a", CompareOp::kLt, Value::Int(10));
  EXPECT_EQ(ExprVersion(&leaf), Fnv1a64(leaf.CanonicalText()));
  E other = E::Leaf("a", CompareOp::kLt, Value::Int(11));
  EXPECT_NE(ExprVersion(&leaf), ExprVersion(&other));
}

TEST(ExprTest, CachedVersionTravelsWithCopiesAndAssignmentsAndMatchesTheText) {
  E a = E::And(E::Leaf("a", CompareOp::kGtEq, Value::Int(0)),
               E::Leaf("a", CompareOp::kLt, Value::Int(10)));
  const uint64_t va = a.version();  // computed and cached here
  EXPECT_EQ(va, Fnv1a64(a.CanonicalText()));
  E copy = a;
  EXPECT_EQ(copy.version(), va);
  E b = E::Leaf("a", CompareOp::kLt, Value::Int(5));
  const uint64_t vb = b.version();
  copy = b;  // an assignment takes the other expression's version with it
  EXPECT_EQ(copy.version(), vb);
  EXPECT_EQ(ExprVersion(&copy), Fnv1a64(b.CanonicalText()));
  EXPECT_NE(va, vb);
  EXPECT_EQ(a, E::And(E::Leaf("a", CompareOp::kGtEq, Value::Int(0)),
                      E::Leaf("a", CompareOp::kLt, Value::Int(10))));  // cache not compared
}

TEST(ExprTest, RowPathTreatsNullAsSmallest) {
  TableSchema s = Schema();
  Row null_row = {Value::Null(), Value::Null(), Value::Timestamp(0)};
  EXPECT_TRUE(MatchesRowPath(E::Leaf("a", CompareOp::kLt, Value::Int(-100)), s, null_row));
  EXPECT_FALSE(MatchesRowPath(E::Leaf("a", CompareOp::kGtEq, Value::Int(-100)), s, null_row));
  EXPECT_TRUE(MatchesRowPath(E::Leaf("a", CompareOp::kEq, Value::Null()), s, null_row));
}

TEST(ExprTest, PathsDisagreeOnNullUnderNotEq) {
  TableSchema s = Schema();
  Row row = {Value::Int(1), Value::Null(), Value::Timestamp(0)};
  E ne = E::Leaf("b", CompareOp::kNotEq, Value::String("a"));
  EXPECT_TRUE(MatchesRowPath(ne, s, row));      // derived equality: NULL <> 'a'
  EXPECT_FALSE(MatchesFilterPath(ne, s, row));  // SQL: NULL <> 'a' is NULL
}

TEST(ExprTest, FilterPathNullAdjustments) {
  TableSchema s = Schema();
  Row row = {Value::Null(), Value::String("x"), Value::Timestamp(0)};
  EXPECT_TRUE(MatchesFilterPath(E::Leaf("a", CompareOp::kLt, Value::Int(0)), s, row));
  EXPECT_TRUE(MatchesFilterPath(E::Leaf("a", CompareOp::kLtEq, Value::Int(0)), s, row));
  EXPECT_FALSE(MatchesFilterPath(E::Leaf("a", CompareOp::kGt, Value::Int(0)), s, row));
  EXPECT_FALSE(MatchesFilterPath(E::Leaf("a", CompareOp::kEq, Value::Int(0)), s, row));
  EXPECT_TRUE(MatchesFilterPath(E::Leaf("a", CompareOp::kEq, Value::Null()), s, row));
  EXPECT_FALSE(MatchesFilterPath(E::Leaf("a", CompareOp::kNotEq, Value::Null()), s, row));
  EXPECT_TRUE(MatchesFilterPath(E::Leaf("b", CompareOp::kNotEq, Value::Null()), s, row));
}

TEST(ExprTest, MissingColumnReadsAsNull) {
  TableSchema s = Schema();
  Row row = {Value::Int(1), Value::String("x"), Value::Timestamp(0)};
  EXPECT_TRUE(MatchesRowPath(E::Leaf("zz", CompareOp::kLt, Value::Int(5)), s, row));
}

TEST(ExprTest, SqlitePredicateCarriesFilterPathNullSemantics) {
  E e = E::And(E::Leaf("a", CompareOp::kGtEq, Value::Int(10)),
               E::Leaf("a", CompareOp::kLt, Value::Int(20)));
  EXPECT_EQ(ToSqlPredicate(e),
            R"((("a" >= 10 AND "a" IS NOT NULL) AND ("a" < 20 OR "a" IS NULL)))");
  EXPECT_EQ(ToSqlPredicate(E::Leaf("b", CompareOp::kEq, Value::Null())), R"("b" IS NULL)");
  EXPECT_EQ(ToSqlPredicate(E::Leaf("b", CompareOp::kNotEq, Value::String("it's"))),
            R"("b" <> 'it''s')");
}

}  // namespace expr_test
}  // namespace
}  // namespace repartsim::model
