// Partition expressions, as in GreptimeDB's src/partition/src/expr.rs: a leaf is
// `column op literal` (op in = <> < <= > >=) and an inner node is `expr AND|OR expr`.
// Canonical form: a `literal op column` input is flipped to `column op' literal` (LeafReversed);
// AND/OR operands are NOT sorted, so equality is structural (a AND b != b AND a), as in the
// real system. CanonicalText() is the JSON-like text the expression version hashes (see
// ExprVersion). Values are expected to already have the partition column's storage type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/partition/schema.h"
#include "model/partition/value.h"

namespace repartsim::model {

enum class CompareOp { kEq, kNotEq, kLt, kLtEq, kGt, kGtEq };

// "=", "<>", "<", "<=", ">", ">=".
std::string_view CompareOpSql(CompareOp op);
// The real system's RestrictedOp names: "Eq", "NotEq", "Lt", "LtEq", "Gt", "GtEq".
std::string_view CompareOpName(CompareOp op);
// The operator to use when the operands swap sides: < <-> >, <= <-> >=, = and <> unchanged.
CompareOp FlipCompareOp(CompareOp op);
// True iff a three-way comparison result `c` (<0, 0, >0 of value vs literal) satisfies `op`.
bool SatisfiesCompare(int c, CompareOp op);

class PartitionExpr {
 public:
  enum class Kind { kLeaf, kAnd, kOr };

  static PartitionExpr Leaf(std::string column, CompareOp op, Value value);
  // `value op column`, canonicalised to `column FlipCompareOp(op) value`.
  static PartitionExpr LeafReversed(Value value, CompareOp op, std::string column);
  static PartitionExpr And(PartitionExpr lhs, PartitionExpr rhs);
  static PartitionExpr Or(PartitionExpr lhs, PartitionExpr rhs);

  Kind kind() const { return kind_; }
  bool is_leaf() const { return kind_ == Kind::kLeaf; }
  // REQUIRES: is_leaf().
  const std::string& column() const;
  CompareOp op() const;
  const Value& value() const;
  // REQUIRES: !is_leaf().
  const PartitionExpr& lhs() const;
  const PartitionExpr& rhs() const;

  // SQL form, e.g. "a >= 10 AND a < 20". An OR under an AND is parenthesised.
  std::string ToSql() const;
  // Canonical text: the real system's serde JSON shape, e.g.
  // {"Expr":{"lhs":{"Column":"a"},"op":"GtEq","rhs":{"Value":{"Int64":10}}}}; nested
  // operands appear as {"Expr":{...}}. Values are tagged with their storage type name.
  std::string CanonicalText() const;
  // Rust-Debug-like form used by "Duplicate expr: ..." messages.
  std::string ToDebug() const;
  // ExprVersion(this): computed from CanonicalText() on first use and kept with the value
  // (an expression never changes after it is built; copies carry the cached version).
  uint64_t version() const;

  friend bool operator==(const PartitionExpr& a, const PartitionExpr& b);
  friend bool operator!=(const PartitionExpr& a, const PartitionExpr& b) { return !(a == b); }

 private:
  Kind kind_ = Kind::kLeaf;
  CompareOp op_ = CompareOp::kEq;
  std::string column_;
  Value value_;
  std::vector<PartitionExpr> children_;  // two children for kAnd/kOr, none for leaves
  mutable uint64_t version_ = 0;         // cache of version(); 0: not computed yet
};

bool operator==(const PartitionExpr& a, const PartitionExpr& b);

// Stable 64-bit expression version: FNV-1a 64 (offset 0xcbf29ce484222325, prime
// 0x100000001b3) over the bytes of CanonicalText(); a result of 0 is mapped to 1 so that 0
// only ever means "no expression" (nullptr).
uint64_t ExprVersion(const PartitionExpr* expr);
uint64_t Fnv1a64(std::string_view bytes);

// Evaluators over a row of `schema` (a column missing from the schema or row reads as NULL).
// Row path (multi_dim.rs find_region): NULL sorts first; = and <> are structural (so
// NULL <> 'a' is true). Values of different non-null types never match (the real system
// panics there).
bool MatchesRowPath(const PartitionExpr& expr, const TableSchema& schema, const Row& row);
// Filter path (try_as_logical_expr, DataFusion): `col = NULL` -> IS NULL, `col <> NULL` ->
// IS NOT NULL, `col < v`/`<= v` -> ... OR col IS NULL, `col > v`/`>= v` -> ... AND col IS NOT
// NULL, `col <> v` on a NULL column is NULL, i.e. false.
// `nulls_first` false replays the filter before GreptimeDB #7747 (rule null-first-filter):
// `col > v`/`>= v` also admit NULL, so a NULL key matches the filter of every range region.
bool MatchesFilterPath(const PartitionExpr& expr, const TableSchema& schema, const Row& row,
                       bool nulls_first = true);
// SQL for SQLite with the filter path's NULL semantics, for use in a WHERE clause. Column
// names are double-quoted; booleans render as 1/0; timestamps as integer ms.
std::string ToSqlPredicate(const PartitionExpr& expr);

}  // namespace repartsim::model
