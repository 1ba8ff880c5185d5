// Test-only generators for the partition property tests: random complete-and-disjoint rules
// over one INT column or an INT x STRING grid, perturbed (possibly invalid) variants, random
// rows near the split points (NULLs optional), and random WHERE predicates. All draws come
// from one sim::Prng, so a failing case is reproduced by its seed.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "model/partition/predicate.h"
#include "model/partition/rule.h"
#include "sim/prng.h"

namespace repartsim::model::testing {

inline TableSchema PropertySchema() {
  TableSchema s;
  s.name = "t";
  s.columns = {{"a", ColumnType::kInt64, true},
               {"b", ColumnType::kString, true},
               {"c", ColumnType::kInt64, true},
               {"ts", ColumnType::kTimestamp, false}};
  s.time_index = 3;
  s.partition_columns = {"a", "b"};
  return s;
}

inline int64_t Pick(sim::Prng& prng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(prng.Below(static_cast<uint64_t>(hi - lo + 1)));
}

inline std::vector<int64_t> SplitPoints(sim::Prng& prng, size_t count, int64_t lo, int64_t hi) {
  std::vector<int64_t> pts;
  while (pts.size() < count) {
    int64_t v = 2 * Pick(prng, lo / 2, hi / 2);  // even: no integer-empty piece between
    if (std::find(pts.begin(), pts.end(), v) == pts.end()) pts.push_back(v);
  }
  std::sort(pts.begin(), pts.end());
  return pts;
}

inline Value Str(int64_t v) { return Value::String(std::string(1, static_cast<char>('a' + v))); }

// Ranges covering the whole axis of `column` split at `pts`; each boundary randomly closed on
// the left or the right piece; sometimes a point gets its own `= p` piece.
inline std::vector<PartitionExpr> Axis(sim::Prng& prng, const std::string& column,
                                       const std::vector<Value>& pts) {
  using E = PartitionExpr;
  std::vector<E> out;
  std::optional<E> lower;  // lower bound of the piece being built
  for (const Value& p : pts) {
    bool own_piece = prng.Below(4) == 0;
    bool left_closed = prng.Below(2) == 0;  // left piece takes p (<= p)
    E upper = own_piece || !left_closed ? E::Leaf(column, CompareOp::kLt, p)
                                        : E::Leaf(column, CompareOp::kLtEq, p);
    out.push_back(lower ? E::And(*lower, upper) : upper);
    if (own_piece) out.push_back(E::Leaf(column, CompareOp::kEq, p));
    lower = own_piece || left_closed ? E::Leaf(column, CompareOp::kGt, p)
                                     : E::Leaf(column, CompareOp::kGtEq, p);
  }
  out.push_back(*lower);
  return out;
}

inline void Shuffle(sim::Prng& prng, std::vector<PartitionExpr>& v) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[prng.Below(i)]);
}

// A complete, disjoint rule: 1 column (a) or a grid a x b.
inline PartitionRule ValidRule(sim::Prng& prng) {
  PartitionRule rule;
  bool two = prng.Below(2) == 0;
  std::vector<Value> a_pts;
  for (int64_t v : SplitPoints(prng, 1 + prng.Below(two ? 3 : 6), -20, 20)) {
    a_pts.push_back(Value::Int(v));
  }
  std::vector<PartitionExpr> a_axis = Axis(prng, "a", a_pts);
  rule.columns = two ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"a"};
  for (const PartitionExpr& a : a_axis) {
    if (!two || prng.Below(3) == 0) {
      rule.exprs.push_back(a);
      continue;
    }
    std::vector<Value> b_pts;
    for (int64_t v : SplitPoints(prng, 1 + prng.Below(2), 0, 25)) b_pts.push_back(Str(v));
    for (const PartitionExpr& b : Axis(prng, "b", b_pts)) {
      rule.exprs.push_back(PartitionExpr::And(a, b));
    }
  }
  Shuffle(prng, rule.exprs);
  for (size_t i = 0; i < rule.exprs.size(); ++i) rule.regions.push_back(static_cast<uint32_t>(i));
  return rule;
}

inline Value RandomA(sim::Prng& prng, bool allow_null) {
  if (allow_null && prng.Below(8) == 0) return Value::Null();
  return Value::Int(Pick(prng, -23, 23));
}

inline Value RandomB(sim::Prng& prng, bool allow_null) {
  if (allow_null && prng.Below(8) == 0) return Value::Null();
  return Str(Pick(prng, 0, 25));
}

inline Row RandomRow(sim::Prng& prng, bool allow_null) {
  return {RandomA(prng, allow_null), RandomB(prng, allow_null), RandomA(prng, allow_null),
          Value::Timestamp(0)};
}

inline Predicate RandomPredicate(sim::Prng& prng, int depth) {
  uint64_t kind = prng.Below(depth > 0 ? 9 : 6);
  const char* cols[] = {"a", "b", "c"};
  std::string col = cols[prng.Below(3)];
  auto lit = [&] { return col == "b" ? RandomB(prng, false) : RandomA(prng, false); };
  Predicate p;
  p.column = col;
  switch (kind) {
    case 0:
    case 1:
      return Predicate::Compare(col, static_cast<CompareOp>(prng.Below(6)), lit());
    case 2:
      p.kind = Predicate::Kind::kIn;
      p.negated = prng.Below(3) == 0;
      for (uint64_t i = 0, n = 1 + prng.Below(3); i < n; ++i) p.values.push_back(lit());
      return p;
    case 3: {
      p.kind = Predicate::Kind::kBetween;
      p.negated = prng.Below(3) == 0;
      Value x = lit();
      Value y = lit();
      if (CompareSameType(x, y) > 0) std::swap(x, y);
      p.values = {x, y};
      return p;
    }
    case 4:
      p.kind = Predicate::Kind::kIsNull;
      p.negated = prng.Below(2) == 0;
      return p;
    case 5:
      return Predicate::Compare(col, CompareOp::kEq, lit());
    case 6:
      return Predicate::And(RandomPredicate(prng, depth - 1), RandomPredicate(prng, depth - 1));
    case 7:
      return Predicate::Or(RandomPredicate(prng, depth - 1), RandomPredicate(prng, depth - 1));
    default:
      return Predicate::Not(RandomPredicate(prng, depth - 1));
  }
}

}  // namespace repartsim::model::testing
