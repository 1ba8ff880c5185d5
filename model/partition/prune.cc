#include "model/partition/prune.h"

#include <algorithm>
#include <optional>

#include "model/partition/collider.h"
#include "model/partition/overlap.h"

namespace repartsim::model {

namespace {

using MaybeExpr = std::optional<PartitionExpr>;  // nullopt = unknown (matches anything)

struct Converter {
  const PartitionRule& rule;
  const TableSchema& schema;

  MaybeExpr LeafOf(const std::string& column, CompareOp op, const Value& lit) const {
    if (std::find(rule.columns.begin(), rule.columns.end(), column) == rule.columns.end()) {
      return std::nullopt;
    }
    std::optional<size_t> index = schema.FindColumn(column);
    if (!index || lit.is_null()) return std::nullopt;
    Result<Value> v = ConvertToColumnType(lit, schema.columns[*index].type);
    if (!v.ok()) return std::nullopt;
    return PartitionExpr::Leaf(column, op, v.value());
  }

  static MaybeExpr AndOf(MaybeExpr a, MaybeExpr b) {
    if (!a) return b;
    if (!b) return a;
    return PartitionExpr::And(std::move(*a), std::move(*b));
  }

  static MaybeExpr OrOf(MaybeExpr a, MaybeExpr b) {
    if (!a || !b) return std::nullopt;
    return PartitionExpr::Or(std::move(*a), std::move(*b));
  }

  static CompareOp Negate(CompareOp op) {
    switch (op) {
      case CompareOp::kEq:
        return CompareOp::kNotEq;
      case CompareOp::kNotEq:
        return CompareOp::kEq;
      case CompareOp::kLt:
        return CompareOp::kGtEq;
      case CompareOp::kLtEq:
        return CompareOp::kGt;
      case CompareOp::kGt:
        return CompareOp::kLtEq;
      case CompareOp::kGtEq:
        return CompareOp::kLt;
    }
    REPARTSIM_UNREACHABLE();
  }

  // The AND or OR of leaves[begin, end) as a balanced tree, so that a long IN list costs
  // O(n) to build and O(log n) stack to walk. The collider splits on OR and flattens AND
  // into sorted nucleons, so the atoms are the same as those of the left-deep chain.
  static PartitionExpr Balanced(std::vector<PartitionExpr>& leaves, size_t begin, size_t end,
                                PartitionExpr::Kind kind) {
    if (end - begin == 1) return std::move(leaves[begin]);
    const size_t mid = begin + (end - begin) / 2;
    PartitionExpr lhs = Balanced(leaves, begin, mid, kind);
    PartitionExpr rhs = Balanced(leaves, mid, end, kind);
    if (kind == PartitionExpr::Kind::kOr) return PartitionExpr::Or(std::move(lhs), std::move(rhs));
    return PartitionExpr::And(std::move(lhs), std::move(rhs));
  }

  MaybeExpr Convert(const Predicate& p, bool negated) const {
    using K = Predicate::Kind;
    switch (p.kind) {
      case K::kCompare:
        return LeafOf(p.column, negated ? Negate(p.op) : p.op, p.values[0]);
      case K::kAnd:
        if (negated) return std::nullopt;
        return AndOf(Convert(p.children[0], false), Convert(p.children[1], false));
      case K::kOr:
        if (negated) return std::nullopt;
        return OrOf(Convert(p.children[0], false), Convert(p.children[1], false));
      case K::kNot:
        if (negated) return std::nullopt;
        return Convert(p.children[0], true);
      case K::kIn: {
        bool in = p.negated == negated;  // NOT (x NOT IN l) == x IN l
        // IN: the OR of every `= v` (unknown if any is); NOT IN: the AND of the known `<> v`
        // before the first NULL. A NULL in an IN list makes it unknown (keep it sound).
        std::vector<PartitionExpr> leaves;
        leaves.reserve(p.values.size());
        for (const Value& v : p.values) {
          if (v.is_null()) {
            if (in) return std::nullopt;
            break;
          }
          MaybeExpr leaf = LeafOf(p.column, in ? CompareOp::kEq : CompareOp::kNotEq, v);
          if (leaf) {
            leaves.push_back(std::move(*leaf));
          } else if (in) {
            return std::nullopt;
          }
        }
        if (leaves.empty()) return std::nullopt;
        return Balanced(leaves, 0, leaves.size(),
                        in ? PartitionExpr::Kind::kOr : PartitionExpr::Kind::kAnd);
      }
      case K::kBetween: {
        bool in = p.negated == negated;
        if (in) {
          return AndOf(LeafOf(p.column, CompareOp::kGtEq, p.values[0]),
                       LeafOf(p.column, CompareOp::kLtEq, p.values[1]));
        }
        return OrOf(LeafOf(p.column, CompareOp::kLt, p.values[0]),
                    LeafOf(p.column, CompareOp::kGt, p.values[1]));
      }
      case K::kIsNull:
      case K::kOther:
        return std::nullopt;
    }
    REPARTSIM_UNREACHABLE();
  }
};

void SplitConjuncts(const Predicate& p, std::vector<const Predicate*>& out) {
  if (p.kind == Predicate::Kind::kAnd) {
    SplitConjuncts(p.children[0], out);
    SplitConjuncts(p.children[1], out);
  } else {
    out.push_back(&p);
  }
}

// DNF as a list of AND-chains; nullopt when it would exceed kPruneAtomsMax atoms.
std::optional<std::vector<PartitionExpr>> ToDnf(const PartitionExpr& e) {
  if (e.is_leaf()) return std::vector<PartitionExpr>{e};
  auto l = ToDnf(e.lhs());
  auto r = ToDnf(e.rhs());
  if (!l || !r) return std::nullopt;
  if (e.kind() == PartitionExpr::Kind::kOr) {
    if (l->size() + r->size() > kPruneAtomsMax) return std::nullopt;
    l->insert(l->end(), r->begin(), r->end());
    return l;
  }
  if (l->size() * r->size() > kPruneAtomsMax) return std::nullopt;
  std::vector<PartitionExpr> out;
  for (const auto& a : *l) {
    for (const auto& b : *r) out.push_back(PartitionExpr::And(a, b));
  }
  return out;
}

PruneResult All(const PartitionRule& rule, std::string reason) {
  PruneResult r;
  r.regions = rule.regions;
  std::sort(r.regions.begin(), r.regions.end());
  r.fell_back = true;
  r.reason = std::move(reason);
  return r;
}

}  // namespace

PruneResult PruneRegions(const PartitionRule& rule, const TableSchema& schema,
                         const Predicate& where, PruneMode mode) {
  bool exact = mode == PruneMode::kExact;
  if (rule.columns.empty()) return All(rule, "table has no partition columns");
  if (rule.exprs.size() < rule.regions.size()) return All(rule, "a region has no expression");
  for (const std::string& c : rule.columns) {
    std::optional<size_t> i = schema.FindColumn(c);
    if (!i) return All(rule, "unknown partition column " + c);
    if (schema.columns[*i].type == ColumnType::kTimestamp) {
      return All(rule, "unsupported partition column type " +
                           std::string(ColumnTypeName(schema.columns[*i].type)));
    }
  }
  Converter conv{rule, schema};
  std::vector<PartitionExpr> query;
  if (exact) {
    MaybeExpr whole = conv.Convert(where, false);
    if (!whole) return All(rule, "predicate does not constrain partition columns");
    auto dnf = ToDnf(*whole);
    if (!dnf) return All(rule, "predicate too large");
    query = std::move(*dnf);
  } else {
    std::vector<const Predicate*> conjuncts;
    SplitConjuncts(where, conjuncts);
    for (const Predicate* c : conjuncts) {
      if (MaybeExpr e = conv.Convert(*c, false)) query.push_back(std::move(*e));
    }
    if (query.empty()) return All(rule, "predicate does not constrain partition columns");
  }
  std::vector<const PartitionExpr*> exprs;
  for (const PartitionExpr& q : query) exprs.push_back(&q);
  for (const PartitionExpr& e : rule.exprs) exprs.push_back(&e);
  Result<Collider> collider = Collider::Make(exprs, &schema);
  if (!collider.ok()) return All(rule, collider.error().message);
  const Collider& c = collider.value();
  uint32_t query_count = static_cast<uint32_t>(query.size());
  PruneResult out;
  for (const Atom& region_atom : c.atoms()) {
    if (region_atom.source < query_count) continue;
    uint32_t region = rule.regions[region_atom.source - query_count];
    for (const Atom& q : c.atoms()) {
      if (q.source >= query_count) break;
      if (AtomsOverlap(c, q, region_atom, exact)) {
        out.regions.push_back(region);
        break;
      }
    }
  }
  std::sort(out.regions.begin(), out.regions.end());
  out.regions.erase(std::unique(out.regions.begin(), out.regions.end()), out.regions.end());
  return out;
}

}  // namespace repartsim::model
