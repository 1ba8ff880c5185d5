// Row-path and filter-path evaluators and the SQLite rendering of the filter path.
#include "model/partition/expr.h"

namespace repartsim::model {

namespace {

const Value& ColumnValue(const PartitionExpr& leaf, const TableSchema& schema, const Row& row) {
  static const Value kNull;
  std::optional<size_t> index = schema.FindColumn(leaf.column());
  if (!index.has_value() || *index >= row.size()) return kNull;
  return row[*index];
}

bool LeafRowPath(const PartitionExpr& leaf, const Value& v) {
  const Value& lit = leaf.value();
  if (leaf.op() == CompareOp::kEq) return v == lit;
  if (leaf.op() == CompareOp::kNotEq) return v != lit;
  Result<int> cmp = CompareValues(v, lit);
  if (!cmp.ok()) return false;
  return SatisfiesCompare(cmp.value(), leaf.op());
}

// Three-valued SQL logic collapses to two values here: the adjusted leaves only ever meet
// AND/OR (monotone), so "unknown" behaves exactly like false.
bool LeafFilterPath(const PartitionExpr& leaf, const Value& v, bool nulls_first) {
  const Value& lit = leaf.value();
  CompareOp op = leaf.op();
  // Before GreptimeDB #7747 the lower bounds admitted NULL too [inferred from the PR text].
  if (!nulls_first && v.is_null() && !lit.is_null() &&
      (op == CompareOp::kGt || op == CompareOp::kGtEq)) {
    return true;
  }
  if (lit.is_null()) {
    if (op == CompareOp::kEq) return v.is_null();
    if (op == CompareOp::kNotEq) return !v.is_null();
    // col < NULL is unknown; the "OR col IS NULL" adjustment still applies.
    return (op == CompareOp::kLt || op == CompareOp::kLtEq) && v.is_null();
  }
  if (v.is_null()) return op == CompareOp::kLt || op == CompareOp::kLtEq;
  Result<int> cmp = CompareValues(v, lit);
  if (!cmp.ok()) return false;
  return SatisfiesCompare(cmp.value(), op);
}

template <bool kRowPath>
bool Eval(const PartitionExpr& e, const TableSchema& schema, const Row& row,
          bool nulls_first = true) {
  switch (e.kind()) {
    case PartitionExpr::Kind::kLeaf: {
      const Value& v = ColumnValue(e, schema, row);
      return kRowPath ? LeafRowPath(e, v) : LeafFilterPath(e, v, nulls_first);
    }
    case PartitionExpr::Kind::kAnd:
      return Eval<kRowPath>(e.lhs(), schema, row, nulls_first) &&
             Eval<kRowPath>(e.rhs(), schema, row, nulls_first);
    case PartitionExpr::Kind::kOr:
      return Eval<kRowPath>(e.lhs(), schema, row, nulls_first) ||
             Eval<kRowPath>(e.rhs(), schema, row, nulls_first);
  }
  REPARTSIM_UNREACHABLE();
}

std::string SqliteLiteral(const Value& v) {
  if (v.type() == ValueType::kBool) return v.as_bool() ? "1" : "0";
  return v.ToSql();
}

void AppendSqlite(const PartitionExpr& e, std::string& out) {
  if (!e.is_leaf()) {
    out += '(';
    AppendSqlite(e.lhs(), out);
    out += e.kind() == PartitionExpr::Kind::kAnd ? " AND " : " OR ";
    AppendSqlite(e.rhs(), out);
    out += ')';
    return;
  }
  std::string col = "\"";
  for (char c : e.column()) {
    if (c == '"') col += '"';
    col += c;
  }
  col += '"';
  CompareOp op = e.op();
  const Value& lit = e.value();
  if (lit.is_null()) {
    if (op == CompareOp::kEq)
      out += col + " IS NULL";
    else if (op == CompareOp::kNotEq)
      out += col + " IS NOT NULL";
    else if (op == CompareOp::kLt || op == CompareOp::kLtEq)
      out += col + " IS NULL";
    else
      out += "0";
    return;
  }
  std::string cmp = col + " " + std::string(CompareOpSql(op)) + " " + SqliteLiteral(lit);
  if (op == CompareOp::kLt || op == CompareOp::kLtEq) {
    out += "(" + cmp + " OR " + col + " IS NULL)";
  } else if (op == CompareOp::kGt || op == CompareOp::kGtEq) {
    out += "(" + cmp + " AND " + col + " IS NOT NULL)";
  } else {
    out += cmp;
  }
}

}  // namespace

bool MatchesRowPath(const PartitionExpr& expr, const TableSchema& schema, const Row& row) {
  return Eval<true>(expr, schema, row);
}

bool MatchesFilterPath(const PartitionExpr& expr, const TableSchema& schema, const Row& row,
                       bool nulls_first) {
  return Eval<false>(expr, schema, row, nulls_first);
}

std::string ToSqlPredicate(const PartitionExpr& expr) {
  std::string out;
  AppendSqlite(expr, out);
  return out;
}

}  // namespace repartsim::model
