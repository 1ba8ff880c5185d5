#include "model/sql/expr_typing.h"

#include <algorithm>

namespace repartsim::model::sql {

namespace {

sim::Result<PartitionExpr> TypeNode(const PartitionExpr& e, const sim::SourceLocation& loc,
                                    const TableSchema& schema,
                                    const std::vector<std::string>& columns) {
  if (!e.is_leaf()) {
    auto l = TypeNode(e.lhs(), loc, schema, columns);
    if (!l.ok()) return l;
    auto r = TypeNode(e.rhs(), loc, schema, columns);
    if (!r.ok()) return r;
    if (e.kind() == PartitionExpr::Kind::kAnd) {
      return PartitionExpr::And(std::move(l).value(), std::move(r).value());
    }
    return PartitionExpr::Or(std::move(l).value(), std::move(r).value());
  }
  std::optional<size_t> index = schema.FindColumn(e.column());
  bool listed = std::find(columns.begin(), columns.end(), e.column()) != columns.end();
  if (!index || !listed) {
    return sim::MakeError(loc, "Cannot find column by name: " + e.column());
  }
  Result<Value> v = ConvertToColumnType(e.value(), schema.columns[*index].type);
  if (!v.ok()) return sim::MakeError(loc, v.error().message);
  return PartitionExpr::Leaf(e.column(), e.op(), v.value());
}

void Collect(const PartitionExpr& e, std::vector<std::string>& out) {
  if (!e.is_leaf()) {
    Collect(e.lhs(), out);
    Collect(e.rhs(), out);
    return;
  }
  if (std::find(out.begin(), out.end(), e.column()) == out.end()) out.push_back(e.column());
}

}  // namespace

sim::Result<PartitionExpr> TypePartitionExpr(const LocatedExpr& raw, const TableSchema& schema,
                                             const std::vector<std::string>& columns) {
  return TypeNode(raw.expr, raw.location, schema, columns);
}

std::vector<std::string> ReferencedColumns(const PartitionExpr& e) {
  std::vector<std::string> out;
  Collect(e, out);
  return out;
}

}  // namespace repartsim::model::sql
