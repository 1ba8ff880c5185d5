// The frontend's validation pipeline of a repartition statement (docs/protocol.md section 4):
// the table's partition rule and region numbers from its info and route, checked and planned
// by the SQL planner (sql::PlanRepartition) with the options the protocol's rule switches
// select (exact rule checker and overlap, per-group transition indices). A pure function over
// plain data; the caller chooses which info and route it validates against.
#pragma once

#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/protocol/protocol.h"
#include "model/sql/repartition_planner.h"
#include "model/sql/statement.h"
#include "sim/result.h"

namespace repartsim::model {

// The plan of `alter` on the table described by `info` and `route`, or the error the frontend
// answers with (unlocated). `gc_enabled`: metasrv GC is on (repartition is refused without it).
// `check_rule` false skips the completeness and disjointness check of the resulting rule.
sim::Result<sql::RepartitionPlan> ValidateRepartition(const TableInfo& info,
                                                      const TableRoute& route,
                                                      const sql::AlterRepartition& alter,
                                                      bool gc_enabled, const Protocol& protocol,
                                                      bool check_rule = true);

}  // namespace repartsim::model
