// Goal: the SQLite ownership cross-check (ToSqlPredicate run by SQLite) agrees with the C++
// filter-path evaluator on every row, NULLs included, and reports bad expressions as errors.
// Method: enumerate a grid of rows (NULL and non-NULL values on both sides of each literal)
// against a list of expressions and compare RowsOutside with !MatchesFilterPath row by row.
#include "checker/check/ownership.h"

#include <gtest/gtest.h>

#include "tests/checker/check/test_schema.h"

namespace repartsim::check {
namespace {
namespace ownership_test {

using model::CompareOp;
using model::PartitionExpr;
using model::Value;
using testing_schema::R;
using testing_schema::Schema;

model::Row Row3(Value host, Value v) { return model::Row{host, Value::Timestamp(1), v}; }

std::vector<model::Row> Grid() {
  std::vector<Value> hosts = {Value::Null(), Value::String("a"), Value::String("m"),
                              Value::String("z"), Value::String("it's")};
  std::vector<Value> values = {Value::Null(), Value::Int(-1), Value::Int(5), Value::Int(10),
                               Value::Int(20)};
  std::vector<model::Row> rows;
  for (const Value& h : hosts) {
    for (const Value& v : values) rows.push_back(Row3(h, v));
  }
  return rows;
}

std::vector<PartitionExpr> Exprs() {
  auto host = [](CompareOp op, Value v) { return PartitionExpr::Leaf("host", op, v); };
  auto val = [](CompareOp op, Value v) { return PartitionExpr::Leaf("v", op, v); };
  std::vector<PartitionExpr> out;
  for (CompareOp op : {CompareOp::kEq, CompareOp::kNotEq, CompareOp::kLt, CompareOp::kLtEq,
                       CompareOp::kGt, CompareOp::kGtEq}) {
    out.push_back(host(op, Value::String("m")));
    out.push_back(val(op, Value::Int(10)));
    out.push_back(val(op, Value::Null()));
  }
  out.push_back(host(CompareOp::kEq, Value::String("it's")));
  out.push_back(PartitionExpr::And(val(CompareOp::kGtEq, Value::Int(5)),
                                   val(CompareOp::kLt, Value::Int(20))));
  out.push_back(PartitionExpr::Or(host(CompareOp::kLt, Value::String("b")),
                                  val(CompareOp::kNotEq, Value::Int(5))));
  out.push_back(PartitionExpr::And(
      host(CompareOp::kGtEq, Value::String("m")),
      PartitionExpr::Or(val(CompareOp::kLt, Value::Int(0)), val(CompareOp::kGt, Value::Int(10)))));
  return out;
}

TEST(OwnershipCheckerTest, AgreesWithFilterPathEvaluatorOnEveryRow) {
  model::TableSchema schema = Schema();
  OwnershipChecker checker(schema);
  std::vector<model::Row> rows = Grid();
  size_t outside_total = 0;
  for (const PartitionExpr& expr : Exprs()) {
    Result<std::vector<size_t>> outside = checker.RowsOutside(expr, rows);
    ASSERT_TRUE(outside.ok()) << expr.ToSql();
    std::vector<size_t> expected;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!model::MatchesFilterPath(expr, schema, rows[i])) expected.push_back(i);
    }
    EXPECT_EQ(outside.value(), expected) << model::ToSqlPredicate(expr);
    EXPECT_EQ(checker.ModelRowsOutside(expr, rows), expected) << expr.ToSql();
    outside_total += expected.size();
  }
  // The grid exercises both outcomes; a checker that always agreed vacuously would not.
  EXPECT_GT(outside_total, 0u);
  EXPECT_LT(outside_total, rows.size() * Exprs().size());
}

TEST(OwnershipCheckerTest, NullHostIsInsideLessThanAndOutsideNotEqual) {
  OwnershipChecker checker(Schema());
  std::vector<model::Row> rows = {R(nullptr, 1, 1), R("a", 1, 1), R("x", 1, 1)};
  auto lt = PartitionExpr::Leaf("host", CompareOp::kLt, Value::String("m"));
  auto ne = PartitionExpr::Leaf("host", CompareOp::kNotEq, Value::String("a"));
  EXPECT_EQ(checker.RowsOutside(lt, rows).value(), (std::vector<size_t>{2}));
  EXPECT_EQ(checker.RowsOutside(ne, rows).value(), (std::vector<size_t>{0, 1}));
}

TEST(OwnershipCheckerTest, UnknownColumnIsAnError) {
  OwnershipChecker checker(Schema());
  auto expr = PartitionExpr::Leaf("nope", CompareOp::kEq, Value::Int(1));
  Result<std::vector<size_t>> outside = checker.RowsOutside(expr, {R("a", 1, 1)});
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.error().message, "ownership check: no such column: nope in \"nope\" = 1");
  EXPECT_EQ(checker.ModelRowsOutside(expr, {R("a", 1, 1)}), std::nullopt);  // left to SQLite
}

}  // namespace ownership_test
}  // namespace
}  // namespace repartsim::check
