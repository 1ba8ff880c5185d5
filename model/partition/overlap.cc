#include "model/partition/overlap.h"

#include <algorithm>

namespace repartsim::model {

bool AtomsOverlap(const Collider& c, const Atom& a, const Atom& b, bool exact) {
  for (uint32_t col = 0; col < c.columns().size(); ++col) {
    if (!c.Constrains(a, col) || !c.Constrains(b, col)) continue;
    CoordRange ra = c.RangeOf(a, col);
    CoordRange rb = c.RangeOf(b, col);
    int32_t lo = std::max(ra.lo, rb.lo);
    int32_t hi = std::min(ra.hi, rb.hi);
    if (lo > hi) return false;
    // A range of two or more coordinates holds an even one, always realizable.
    if (lo == hi && !c.Realizable(col, lo, exact)) return false;
  }
  return true;
}

bool ExprPairOverlap(const PartitionExpr& a, const PartitionExpr& b, bool exact) {
  Result<Collider> collider = Collider::Make({&a, &b}, nullptr);
  if (!collider.ok()) return true;
  const Collider& c = collider.value();
  for (const Atom& x : c.atoms()) {
    if (x.source != 0) continue;
    for (const Atom& y : c.atoms()) {
      if (y.source == 1 && AtomsOverlap(c, x, y, exact)) return true;
    }
  }
  return false;
}

std::vector<std::vector<size_t>> AssociateFromTo(const std::vector<PartitionExpr>& from,
                                                 const std::vector<PartitionExpr>& to, bool exact) {
  std::vector<std::vector<size_t>> out(from.size());
  for (size_t i = 0; i < from.size(); ++i) {
    for (size_t j = 0; j < to.size(); ++j) {
      if (ExprPairOverlap(from[i], to[j], exact)) out[i].push_back(j);
    }
  }
  return out;
}

}  // namespace repartsim::model
