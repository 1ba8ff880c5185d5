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

// GreptimeDB's planner (kGreptime), step by step as src/query/src/dist_plan/ runs it:
//  1. The WHERE clause reaches the extractor as one filter expression: DataFusion keeps a
//     conjunction in one Filter, and the extractor joins the filters pushed into the table
//     scan back with AND (predicate_extractor.rs, collect_filter_expressions).
//  2. DataFusion's simplifier has already pushed NOT down to the leaves: inverted
//     comparisons, De Morgan over AND and OR, IN <-> NOT IN, BETWEEN <-> NOT BETWEEN,
//     IS NULL <-> IS NOT NULL.
//  3. DataFusionExprConverter turns it into one partition expression (IN -> OR of =, NOT IN
//     -> AND of <>, BETWEEN -> >= AND <=, IS NULL -> `= NULL`); anything it cannot express
//     (kOther, a comparison with a NULL literal, which DataFusion folds to NULL) fails the
//     whole filter, and the table is not pruned.
//  4. ExpressionChecker: an expression over partition columns only is used as it is; an AND
//     mixing other columns keeps its partition-only conjuncts, each as an expression of its
//     own (their union then selects regions); an OR mixing other columns is dropped whole.
//  5. normalize_datatype: a literal on an integer or float column must be a number of that
//     kind, NULL included; otherwise the table is not pruned.
// A region is then a candidate iff one atom of one query expression overlaps one of its
// atoms (region_pruner.rs), so several expressions act as a union.
class GreptimeExtractor {
 public:
  GreptimeExtractor(const PartitionRule& rule, const TableSchema& schema)
      : rule_(rule), schema_(schema) {}

  Result<PartitionExpr> Convert(const Predicate& p, bool negated) const {
    using K = Predicate::Kind;
    switch (p.kind) {
      case K::kCompare:
        if (p.values[0].is_null()) return Fail("a comparison with NULL is always NULL");
        return PartitionExpr::Leaf(p.column, negated ? Converter::Negate(p.op) : p.op, p.values[0]);
      case K::kAnd:
      case K::kOr: {
        auto lhs = Convert(p.children[0], negated);
        if (!lhs.ok()) return lhs;
        auto rhs = Convert(p.children[1], negated);
        if (!rhs.ok()) return rhs;
        if ((p.kind == K::kAnd) != negated) {
          return PartitionExpr::And(std::move(lhs).value(), std::move(rhs).value());
        }
        return PartitionExpr::Or(std::move(lhs).value(), std::move(rhs).value());
      }
      case K::kNot:
        return Convert(p.children[0], !negated);
      case K::kIn: {
        const bool in = p.negated == negated;
        std::vector<PartitionExpr> leaves;
        leaves.reserve(p.values.size());
        for (const Value& v : p.values) {
          leaves.push_back(
              PartitionExpr::Leaf(p.column, in ? CompareOp::kEq : CompareOp::kNotEq, v));
        }
        return Converter::Balanced(leaves, 0, leaves.size(),
                                   in ? PartitionExpr::Kind::kOr : PartitionExpr::Kind::kAnd);
      }
      case K::kBetween: {
        const bool in = p.negated == negated;
        PartitionExpr lo =
            PartitionExpr::Leaf(p.column, in ? CompareOp::kGtEq : CompareOp::kLt, p.values[0]);
        PartitionExpr hi =
            PartitionExpr::Leaf(p.column, in ? CompareOp::kLtEq : CompareOp::kGt, p.values[1]);
        if (in) return PartitionExpr::And(std::move(lo), std::move(hi));
        return PartitionExpr::Or(std::move(lo), std::move(hi));
      }
      case K::kIsNull: {
        const bool is_null = p.negated == negated;
        return PartitionExpr::Leaf(p.column, is_null ? CompareOp::kEq : CompareOp::kNotEq,
                                   Value::Null());
      }
      case K::kOther:
        return Fail("an expression the partition converter does not support");
    }
    REPARTSIM_UNREACHABLE();
  }

  // ExpressionChecker::check_expression_for_pruning: appends what may be used to `out`.
  void Check(const PartitionExpr& e, std::vector<PartitionExpr>& out) const {
    if (e.kind() == PartitionExpr::Kind::kAnd) {
      if (OnlyPartitionColumns(e)) {
        out.push_back(e);
      } else {
        ExtractAnd(e, out);
      }
      return;
    }
    if (OnlyPartitionColumns(e)) out.push_back(e);
  }

  // normalize_datatype: false when a literal does not fit its column's type.
  Result<PartitionExpr> Normalize(const PartitionExpr& e) const {
    if (!e.is_leaf()) {
      auto lhs = Normalize(e.lhs());
      if (!lhs.ok()) return lhs;
      auto rhs = Normalize(e.rhs());
      if (!rhs.ok()) return rhs;
      if (e.kind() == PartitionExpr::Kind::kAnd) {
        return PartitionExpr::And(std::move(lhs).value(), std::move(rhs).value());
      }
      return PartitionExpr::Or(std::move(lhs).value(), std::move(rhs).value());
    }
    std::optional<size_t> index = schema_.FindColumn(e.column());
    if (!index) return Fail("column " + e.column() + " not found from type set");
    const ColumnType type = schema_.columns[*index].type;
    const bool numeric = type != ColumnType::kString && type != ColumnType::kBool;
    if (e.value().is_null()) {
      if (numeric) return Fail("value NULL cannot be converted to a number");
      return e;
    }
    Result<Value> v = ConvertToColumnType(e.value(), type);
    if (!v.ok()) return Fail(v.error().message);
    return PartitionExpr::Leaf(e.column(), e.op(), v.value());
  }

 private:
  static Result<PartitionExpr> Fail(std::string reason) {
    return sim::MakeError(sim::SourceLocation{}, std::move(reason));
  }

  bool OnlyPartitionColumns(const PartitionExpr& e) const {
    if (!e.is_leaf()) return OnlyPartitionColumns(e.lhs()) && OnlyPartitionColumns(e.rhs());
    return std::find(rule_.columns.begin(), rule_.columns.end(), e.column()) != rule_.columns.end();
  }

  // extract_and_constraints: through AND nodes only; any other node is kept whole when it
  // names partition columns only.
  void ExtractAnd(const PartitionExpr& e, std::vector<PartitionExpr>& out) const {
    if (e.kind() == PartitionExpr::Kind::kAnd) {
      ExtractAnd(e.lhs(), out);
      ExtractAnd(e.rhs(), out);
    } else if (OnlyPartitionColumns(e)) {
      out.push_back(e);
    }
  }

  const PartitionRule& rule_;
  const TableSchema& schema_;
};

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
    GreptimeExtractor extractor(rule, schema);
    Result<PartitionExpr> whole = extractor.Convert(where, false);
    if (!whole.ok()) return All(rule, whole.error().message);
    std::vector<PartitionExpr> checked;
    extractor.Check(whole.value(), checked);
    if (checked.empty()) return All(rule, "predicate does not constrain partition columns");
    for (const PartitionExpr& e : checked) {
      Result<PartitionExpr> normalized = extractor.Normalize(e);
      if (!normalized.ok()) return All(rule, normalized.error().message);
      query.push_back(std::move(normalized).value());
    }
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
