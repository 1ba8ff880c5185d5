// A query WHERE predicate as the pruner sees it (the SQL parser builds it): comparisons of a
// column with a literal (already flipped to column-first), AND, OR, NOT, IN / NOT IN, BETWEEN
// / NOT BETWEEN, IS [NOT] NULL, and kOther for anything the model does not interpret (kept so
// evaluation and pruning stay sound: pruning treats it as "unknown").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/partition/expr.h"
#include "model/partition/schema.h"

namespace repartsim::model {

struct Predicate {
  enum class Kind { kCompare, kAnd, kOr, kNot, kIn, kBetween, kIsNull, kOther };
  Kind kind = Kind::kOther;
  std::string column;               // kCompare, kIn, kBetween, kIsNull
  CompareOp op = CompareOp::kEq;    // kCompare
  std::vector<Value> values;        // kCompare: 1; kIn: list; kBetween: low, high
  bool negated = false;             // NOT IN, NOT BETWEEN, IS NOT NULL
  std::vector<Predicate> children;  // kAnd/kOr: 2; kNot: 1
  // `CAST(column AS cast)` instead of the bare column (kCompare, kIn, kBetween, kIsNull).
  // The model accepts only casts that keep every value of the column (ValuePreservingCast,
  // checked where a statement meets its table), so the cast is the identity: evaluation and
  // ToSql() use the column itself, and pruning strips it as GreptimeDB strips a safe cast.
  std::optional<ColumnType> cast;

  static Predicate Compare(std::string column, CompareOp op, Value v);
  static Predicate And(Predicate a, Predicate b);
  static Predicate Or(Predicate a, Predicate b);
  static Predicate Not(Predicate a);

  std::string ToSql() const;
};

// SQL three-valued evaluation on a row (unknown -> false at the top). kOther is unknown.
bool EvaluatePredicate(const Predicate& p, const TableSchema& schema, const Row& row);

// A predicate with its columns looked up in one schema once, for evaluating it on many rows:
// Evaluate(row) == EvaluatePredicate(p, schema, row). Keeps a pointer to `p`, which must
// outlive it and not change.
class BoundPredicate {
 public:
  BoundPredicate() = default;
  BoundPredicate(const Predicate& p, const TableSchema& schema);
  // REQUIRES: bound (made from a predicate).
  bool Evaluate(const Row& row) const;
  const Predicate* predicate() const { return p_; }

 private:
  const Predicate* p_ = nullptr;
  // Per node of p_ in pre-order (a node, then its children in order): the index of the
  // node's column in the schema, or -1 (no column, or not in the schema).
  std::vector<int32_t> columns_;
};

}  // namespace repartsim::model
