// DDL submission on the metasrv (the procedure manager's submit path): CREATE TABLE and the
// repartition procedure, each filled from what the frontend validated.
#include <string>
#include <utility>

#include "model/ddl/create_table_procedure.h"
#include "model/metasrv/metasrv.h"
#include "model/repartition/repartition_procedure.h"
#include "sim/assert.h"

namespace repartsim::model {

ProcedureId Metasrv::SubmitCreateTable(const TableInfo& info, const TableRoute& route,
                                       NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  REPARTSIM_ASSERT(recovered());
  const ProcedureId id = Submit(CreateTableProcedure(info, route), ctx.now());
  for (const RegionRoute& r : route.region_routes) operating_regions_.emplace(r.region_id, id);
  ctx.Log("ms.submit", "CreateTable procedure=" + std::to_string(id.value));
  return id;
}

ProcedureId Metasrv::SubmitRepartition(const TableInfo& info, const sql::AlterRepartition& alter,
                                       const sql::RepartitionPlan& plan, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  REPARTSIM_ASSERT(recovered());
  // ensure_gc_requirement writes the durable marker before every submission.
  kv_.Put("__requirements/gc/repartition", "repartition");
  RepartitionProcedure::PersistentContext persistent;
  persistent.table = info.table_id;
  persistent.table_name = info.name;
  persistent.from_exprs = plan.from;
  persistent.to_exprs = plan.to;
  if (alter.on_columns.has_value()) persistent.target_columns = alter.on_columns;
  if (alter.kind == sql::AlterRepartition::Kind::kPartitionOn && !persistent.target_columns) {
    persistent.target_columns = plan.target_columns;
  }
  persistent.timeout_ms = plan.timeout_ms;
  const ProcedureId id = Submit(RepartitionProcedure(std::move(persistent)), ctx.now());
  ctx.Log("ms.submit", "Repartition procedure=" + std::to_string(id.value));
  return id;
}

}  // namespace repartsim::model
