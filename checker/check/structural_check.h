// Cheap structural invariants over plain data, run after steps and at quiescence:
// INV-RULE (a published rule, i.e. one with no procedure in flight, is complete and disjoint,
// per the partition checker) and INV-OWN (every row a region exposes satisfies its committed
// expression; a write is accepted only by a region whose current or staging expression
// covers it). Ownership is evaluated by SQLite (OwnershipChecker). Each returns nullopt when
// the invariant holds, else one Violation naming the region(s) and rows.
#pragma once

#include <optional>
#include <vector>

#include "checker/check/check_at.h"
#include "checker/check/ownership.h"
#include "checker/check/violation.h"
#include "model/meta/ids.h"
#include "model/partition/rule.h"

namespace repartsim::check {

// Message: "published rule of table t is not complete and disjoint: <checker text>";
// regions: every region of the rule, in rule order.
std::optional<Violation> CheckPublishedRule(const model::PartitionRule& rule,
                                            const model::TableSchema& schema, model::TableId table,
                                            model::CheckMode mode, CheckAt at);

// `expr` nullptr means the region owns every row (an unpartitioned table).
// Message: "region 4398046511105(1024, 1) exposes 2 rows outside its expression host < 'm'".
// REQUIRES: `expr` names only columns of the checker's schema (validated by the parser).
std::optional<Violation> CheckRegionOwnership(OwnershipChecker& checker, model::RegionId region,
                                              const model::PartitionExpr* expr,
                                              const std::vector<model::Row>& rows, CheckAt at);

// The rows a region accepted must satisfy the expression it was entitled to accept under at
// that moment: `staging` while it staged a new expression (a split source is not entitled to
// the part of its committed range it is handing over), else `current`; nullptr for both means
// an unpartitioned region, which owns every row. Message: "region R accepted 1 row outside
// its expression <sql>" or "... outside its staging expression <sql> (committed: <sql>)".
std::optional<Violation> CheckAcceptedWrite(OwnershipChecker& checker, model::RegionId region,
                                            const model::PartitionExpr* current,
                                            const model::PartitionExpr* staging,
                                            const std::vector<model::Row>& rows, CheckAt at);

}  // namespace repartsim::check
