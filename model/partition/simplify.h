// Merge simplification (ddl.rs simplify_merged_partition_expr): the target of an N->1
// repartition is the OR of its sources; when every source is an AND-chain of range leaves
// (= < <= > >=, non-NULL literals), terms are deduplicated, subsumed terms dropped, and two
// terms that differ on one column merged when their intervals overlap or touch (dense order,
// as the real system). One surviving term renders as its bounds (`id >= 10`); otherwise the
// remaining terms are OR-ed. Anything else (NotEq, NULL, OR inside a source) keeps the
// left-fold OR `((e1 OR e2) OR e3)` unchanged.
#pragma once

#include <vector>

#include "model/partition/expr.h"

namespace repartsim::model {

// ((e1 OR e2) OR e3) ... REQUIRES: !exprs.empty().
PartitionExpr FoldOr(const std::vector<PartitionExpr>& exprs);

// REQUIRES: !sources.empty().
PartitionExpr SimplifyMergedExpr(const std::vector<PartitionExpr>& sources);

}  // namespace repartsim::model
