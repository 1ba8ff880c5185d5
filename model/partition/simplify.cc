#include "model/partition/simplify.h"

#include <algorithm>
#include <optional>

namespace repartsim::model {

namespace {

struct Bound {
  Value value;
  bool inclusive = false;
};

struct Interval {
  std::optional<Bound> lo;
  std::optional<Bound> hi;
  friend bool operator==(const Interval& a, const Interval& b) {
    auto eq = [](const std::optional<Bound>& x, const std::optional<Bound>& y) {
      return x.has_value() == y.has_value() &&
             (!x || (x->value == y->value && x->inclusive == y->inclusive));
    };
    return eq(a.lo, b.lo) && eq(a.hi, b.hi);
  }
};

struct Term {
  std::vector<std::pair<std::string, Interval>> columns;  // first-appearance order
  std::optional<PartitionExpr> original;                  // kept while the term is unchanged

  Interval Get(const std::string& name) const {
    for (const auto& [n, iv] : columns) {
      if (n == name) return iv;
    }
    return {};
  }
};

int Cmp(const Value& a, const Value& b) { return CompareSameType(a, b); }

// Tighter of two lower (is_lo) or upper bounds.
Bound Tighter(const Bound& a, const Bound& b, bool is_lo) {
  int c = Cmp(a.value, b.value);
  if (c == 0) return {a.value, a.inclusive && b.inclusive};
  return (c > 0) == is_lo ? a : b;
}

// Looser of two lower (is_lo) or upper bounds.
Bound Looser(const Bound& a, const Bound& b, bool is_lo) {
  int c = Cmp(a.value, b.value);
  if (c == 0) return {a.value, a.inclusive || b.inclusive};
  return (c < 0) == is_lo ? a : b;
}

bool AddLeaf(Term& t, const PartitionExpr& leaf) {
  if (leaf.value().is_null() || leaf.op() == CompareOp::kNotEq) return false;
  Interval* iv = nullptr;
  for (auto& [n, i] : t.columns) {
    if (n == leaf.column()) iv = &i;
  }
  if (iv == nullptr) {
    t.columns.push_back({leaf.column(), {}});
    iv = &t.columns.back().second;
  }
  CompareOp op = leaf.op();
  bool incl = op == CompareOp::kEq || op == CompareOp::kLtEq || op == CompareOp::kGtEq;
  Bound b{leaf.value(), incl};
  for (const auto* existing : {&iv->lo, &iv->hi}) {
    if (existing->has_value() && (*existing)->value.type() != b.value.type()) return false;
  }
  if (op != CompareOp::kLt && op != CompareOp::kLtEq)
    iv->lo = iv->lo ? Tighter(*iv->lo, b, true) : b;
  if (op != CompareOp::kGt && op != CompareOp::kGtEq)
    iv->hi = iv->hi ? Tighter(*iv->hi, b, false) : b;
  return true;
}

bool ToTerm(const PartitionExpr& e, Term& t) {
  if (e.is_leaf()) return AddLeaf(t, e);
  if (e.kind() != PartitionExpr::Kind::kAnd) return false;
  return ToTerm(e.lhs(), t) && ToTerm(e.rhs(), t);
}

// True iff `outer` contains `inner` on one column.
bool Contains(const Interval& outer, const Interval& inner) {
  if (outer.lo) {
    if (!inner.lo) return false;
    int c = Cmp(outer.lo->value, inner.lo->value);
    if (c > 0 || (c == 0 && !outer.lo->inclusive && inner.lo->inclusive)) return false;
  }
  if (outer.hi) {
    if (!inner.hi) return false;
    int c = Cmp(outer.hi->value, inner.hi->value);
    if (c < 0 || (c == 0 && !outer.hi->inclusive && inner.hi->inclusive)) return false;
  }
  return true;
}

// Union of two intervals when it is one interval (they overlap or touch).
std::optional<Interval> Union(const Interval& a, const Interval& b) {
  const Interval& first = !a.lo ? a : (!b.lo ? b : (Cmp(a.lo->value, b.lo->value) <= 0 ? a : b));
  const Interval& second = &first == &a ? b : a;
  if (first.hi && second.lo) {
    int c = Cmp(first.hi->value, second.lo->value);
    if (c < 0 || (c == 0 && !first.hi->inclusive && !second.lo->inclusive)) return std::nullopt;
  }
  Interval out;
  if (a.lo && b.lo) out.lo = Looser(*a.lo, *b.lo, true);
  if (a.hi && b.hi) out.hi = Looser(*a.hi, *b.hi, false);
  return out;
}

std::vector<std::string> ColumnUnion(const Term& a, const Term& b) {
  std::vector<std::string> names;
  for (const auto& [n, iv] : a.columns) names.push_back(n);
  for (const auto& [n, iv] : b.columns) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  return names;
}

bool TermContains(const Term& outer, const Term& inner) {
  for (const std::string& n : ColumnUnion(outer, inner)) {
    if (!Contains(outer.Get(n), inner.Get(n))) return false;
  }
  return true;
}

std::optional<Term> TryMerge(const Term& a, const Term& b) {
  std::vector<std::string> names = ColumnUnion(a, b);
  std::optional<std::string> differing;
  for (const std::string& n : names) {
    if (a.Get(n) == b.Get(n)) continue;
    if (differing) return std::nullopt;
    differing = n;
  }
  if (!differing) return a;
  std::optional<Interval> u = Union(a.Get(*differing), b.Get(*differing));
  if (!u) return std::nullopt;
  Term out;
  for (const std::string& n : names) {
    Interval iv = n == *differing ? *u : a.Get(n);
    if (iv.lo || iv.hi) out.columns.push_back({n, iv});
  }
  return out;
}

bool SimplifyStep(std::vector<Term>& terms) {
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t j = 0; j < terms.size(); ++j) {
      if (i == j) continue;
      if (TermContains(terms[i], terms[j])) {
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
        return true;
      }
      if (j < i) continue;
      if (std::optional<Term> m = TryMerge(terms[i], terms[j])) {
        terms[i] = std::move(*m);
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
        return true;
      }
    }
  }
  return false;
}

std::optional<PartitionExpr> Render(const Term& t) {
  if (t.original) return t.original;
  std::vector<PartitionExpr> leaves;
  for (const auto& [n, iv] : t.columns) {
    if (iv.lo && iv.hi && iv.lo->inclusive && iv.hi->inclusive && iv.lo->value == iv.hi->value) {
      leaves.push_back(PartitionExpr::Leaf(n, CompareOp::kEq, iv.lo->value));
      continue;
    }
    if (iv.lo) {
      leaves.push_back(PartitionExpr::Leaf(n, iv.lo->inclusive ? CompareOp::kGtEq : CompareOp::kGt,
                                           iv.lo->value));
    }
    if (iv.hi) {
      leaves.push_back(PartitionExpr::Leaf(n, iv.hi->inclusive ? CompareOp::kLtEq : CompareOp::kLt,
                                           iv.hi->value));
    }
  }
  if (leaves.empty()) return std::nullopt;  // unbounded: no expression can say "everything"
  PartitionExpr out = leaves[0];
  for (size_t i = 1; i < leaves.size(); ++i) out = PartitionExpr::And(out, leaves[i]);
  return out;
}

}  // namespace

PartitionExpr FoldOr(const std::vector<PartitionExpr>& exprs) {
  REPARTSIM_ASSERT(!exprs.empty());
  PartitionExpr out = exprs[0];
  for (size_t i = 1; i < exprs.size(); ++i) out = PartitionExpr::Or(out, exprs[i]);
  return out;
}

PartitionExpr SimplifyMergedExpr(const std::vector<PartitionExpr>& sources) {
  REPARTSIM_ASSERT(!sources.empty());
  std::vector<Term> terms;
  for (const PartitionExpr& e : sources) {
    Term t;
    if (!ToTerm(e, t)) return FoldOr(sources);
    t.original = e;
    terms.push_back(std::move(t));
  }
  while (SimplifyStep(terms)) {
  }
  if (terms.size() == sources.size()) return FoldOr(sources);
  std::vector<PartitionExpr> rendered;
  for (const Term& t : terms) {
    std::optional<PartitionExpr> r = Render(t);
    if (!r) return FoldOr(sources);
    rendered.push_back(std::move(*r));
  }
  return FoldOr(rendered);
}

}  // namespace repartsim::model
