// Overlap of partition expressions (overlap.rs): expressions are collided jointly and two
// atoms overlap when, for every column BOTH constrain, their coordinate ranges intersect
// (NotEq ignored, columns constrained by one side ignored). Dense semantics by default
// (conservative on integers, as the real system); `exact` also drops gaps that no integer
// fills. A collider error (non-DNF shape, mixed types) counts as "overlap" (conservative).
#pragma once

#include <vector>

#include "model/partition/collider.h"
#include "model/partition/expr.h"

namespace repartsim::model {

bool AtomsOverlap(const Collider& c, const Atom& a, const Atom& b, bool exact);

bool ExprPairOverlap(const PartitionExpr& a, const PartitionExpr& b, bool exact = false);

// associate_from_to: for each from[i], the (global, ascending) indices of `to` overlapping it.
std::vector<std::vector<size_t>> AssociateFromTo(const std::vector<PartitionExpr>& from,
                                                 const std::vector<PartitionExpr>& to,
                                                 bool exact = false);

}  // namespace repartsim::model
