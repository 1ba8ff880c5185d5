#include "model/partition/predicate.h"

#include <optional>

namespace repartsim::model {

Predicate Predicate::Compare(std::string column, CompareOp op, Value v) {
  Predicate p;
  p.kind = Kind::kCompare;
  p.column = std::move(column);
  p.op = op;
  p.values.push_back(std::move(v));
  return p;
}

Predicate Predicate::And(Predicate a, Predicate b) {
  Predicate p;
  p.kind = Kind::kAnd;
  p.children.push_back(std::move(a));
  p.children.push_back(std::move(b));
  return p;
}

Predicate Predicate::Or(Predicate a, Predicate b) {
  Predicate p = And(std::move(a), std::move(b));
  p.kind = Kind::kOr;
  return p;
}

Predicate Predicate::Not(Predicate a) {
  Predicate p;
  p.kind = Kind::kNot;
  p.children.push_back(std::move(a));
  return p;
}

namespace {

// Built by appending to one string: GCC 12 reports a false -Wrestrict (at -O2 and above)
// inside libstdc++'s `const char* + std::string&&`, which inserts at the front of its
// right operand; appending never takes that path, and copies each piece once.
void AppendSql(const Predicate& p, std::string& out) {
  using Kind = Predicate::Kind;
  switch (p.kind) {
    case Kind::kCompare:
      out.append(p.column).append(" ").append(CompareOpSql(p.op)).append(" ");
      out.append(p.values[0].ToSql());
      return;
    case Kind::kAnd:
    case Kind::kOr:
      out.append("(");
      AppendSql(p.children[0], out);
      out.append(p.kind == Kind::kAnd ? " AND " : " OR ");
      AppendSql(p.children[1], out);
      out.append(")");
      return;
    case Kind::kNot:
      out.append("NOT ");
      AppendSql(p.children[0], out);
      return;
    case Kind::kIn:
      out.append(p.column).append(p.negated ? " NOT IN (" : " IN (");
      for (size_t i = 0; i < p.values.size(); ++i) {
        if (i > 0) out.append(", ");
        out.append(p.values[i].ToSql());
      }
      out.append(")");
      return;
    case Kind::kBetween:
      out.append(p.column).append(p.negated ? " NOT BETWEEN " : " BETWEEN ");
      out.append(p.values[0].ToSql()).append(" AND ").append(p.values[1].ToSql());
      return;
    case Kind::kIsNull:
      out.append(p.column).append(p.negated ? " IS NOT NULL" : " IS NULL");
      return;
    case Kind::kOther:
      out.append("<other>");
      return;
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace

std::string Predicate::ToSql() const {
  std::string out;
  AppendSql(*this, out);
  return out;
}

namespace {

using Tri = std::optional<bool>;  // nullopt = SQL unknown

Tri CompareTri(const Value& v, CompareOp op, const Value& lit) {
  if (v.is_null() || lit.is_null()) return std::nullopt;
  Result<int> cmp = CompareValues(v, lit);
  if (!cmp.ok()) return std::nullopt;
  return SatisfiesCompare(cmp.value(), op);
}

Tri AndTri(Tri a, Tri b) {
  if (a == false || b == false) return false;
  if (!a || !b) return std::nullopt;
  return true;
}

Tri OrTri(Tri a, Tri b) {
  if (a == true || b == true) return true;
  if (!a || !b) return std::nullopt;
  return false;
}

Tri NotTri(Tri a) { return a ? Tri(!*a) : std::nullopt; }

// Where Eval finds a node's column: by name in the schema at each node, or from the indices
// a BoundPredicate resolved, taken in pre-order.
struct ColumnsByName {
  const TableSchema& schema;
  std::optional<size_t> Next(const Predicate& p) { return schema.FindColumn(p.column); }
};
struct ColumnsBound {
  const int32_t* next;
  std::optional<size_t> Next(const Predicate&) {
    const int32_t i = *next++;
    return i < 0 ? std::nullopt : std::optional<size_t>(static_cast<size_t>(i));
  }
};

// Visits every node in pre-order, children in order (no short cut: ColumnsBound relies on
// it, and evaluation has no side effects).
template <class Columns>
Tri Eval(const Predicate& p, const Row& row, Columns& columns) {
  static const Value kNull;
  const Value* v = &kNull;
  if (!p.column.empty()) {
    std::optional<size_t> i = columns.Next(p);
    if (i && *i < row.size()) v = &row[*i];
  }
  switch (p.kind) {
    case Predicate::Kind::kCompare:
      return CompareTri(*v, p.op, p.values[0]);
    case Predicate::Kind::kAnd: {
      const Tri a = Eval(p.children[0], row, columns);
      const Tri b = Eval(p.children[1], row, columns);
      return AndTri(a, b);
    }
    case Predicate::Kind::kOr: {
      const Tri a = Eval(p.children[0], row, columns);
      const Tri b = Eval(p.children[1], row, columns);
      return OrTri(a, b);
    }
    case Predicate::Kind::kNot:
      return NotTri(Eval(p.children[0], row, columns));
    case Predicate::Kind::kIn: {
      Tri any = false;
      for (const Value& x : p.values) any = OrTri(any, CompareTri(*v, CompareOp::kEq, x));
      return p.negated ? NotTri(any) : any;
    }
    case Predicate::Kind::kBetween: {
      Tri in = AndTri(CompareTri(*v, CompareOp::kGtEq, p.values[0]),
                      CompareTri(*v, CompareOp::kLtEq, p.values[1]));
      return p.negated ? NotTri(in) : in;
    }
    case Predicate::Kind::kIsNull:
      return v->is_null() != p.negated;
    case Predicate::Kind::kOther:
      return std::nullopt;
  }
  REPARTSIM_UNREACHABLE();
}

// The pre-order column indices of BoundPredicate: the nodes Eval visits, in its order, each
// node with a column taking one.
void ResolveColumns(const Predicate& p, const TableSchema& schema, std::vector<int32_t>& out) {
  if (!p.column.empty()) {
    std::optional<size_t> i = schema.FindColumn(p.column);
    out.push_back(i ? static_cast<int32_t>(*i) : -1);
  }
  switch (p.kind) {
    case Predicate::Kind::kAnd:
    case Predicate::Kind::kOr:
      ResolveColumns(p.children[0], schema, out);
      ResolveColumns(p.children[1], schema, out);
      break;
    case Predicate::Kind::kNot:
      ResolveColumns(p.children[0], schema, out);
      break;
    default:
      break;
  }
}

}  // namespace

bool EvaluatePredicate(const Predicate& p, const TableSchema& schema, const Row& row) {
  ColumnsByName columns{schema};
  return Eval(p, row, columns) == true;
}

BoundPredicate::BoundPredicate(const Predicate& p, const TableSchema& schema) : p_(&p) {
  ResolveColumns(p, schema, columns_);
}

bool BoundPredicate::Evaluate(const Row& row) const {
  REPARTSIM_ASSERT(p_ != nullptr);
  ColumnsBound columns{columns_.data()};
  return Eval(*p_, row, columns) == true;
}

}  // namespace repartsim::model
