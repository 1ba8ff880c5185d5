// DDL on the metasrv (GreptimeDB's DdlManager behind the SubmitDdlTask call): CREATE TABLE and
// the repartition procedure, each filled from what the frontend validated, submitted, and
// answered when the procedure ends. The waiting call is volatile: a metasrv crash loses it
// (the client's call breaks), even when the recovered procedure later finishes.
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

ProcedureId Metasrv::SubmitRepartition(const RepartitionTask& task, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  REPARTSIM_ASSERT(recovered());
  REPARTSIM_ASSERT(!task.to.empty());
  // ensure_gc_requirement writes the durable marker before every submission.
  kv_.Put("__requirements/gc/repartition", "repartition");
  RepartitionProcedure::PersistentContext persistent;
  persistent.table = task.info.table_id;
  persistent.table_name = task.info.name;
  persistent.from_exprs = task.from;
  persistent.to_exprs = task.to;
  persistent.target_columns = task.target_columns;
  persistent.timeout_ms = task.timeout_ms;
  const ProcedureId id = Submit(RepartitionProcedure(std::move(persistent)), ctx.now());
  ctx.Log("ms.submit", "Repartition procedure=" + std::to_string(id.value));
  return id;
}

ProcedureId Metasrv::SubmitMigration(RegionId region, NodeId from, NodeId to, int64_t timeout_ms,
                                     NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  REPARTSIM_ASSERT(recovered());
  REPARTSIM_ASSERT(from != to);
  RegionMigrationProcedure::PersistentContext persistent;
  persistent.from_peer = from;
  persistent.to_peer = to;
  persistent.region = region;
  persistent.timeout_ms = timeout_ms;
  const ProcedureId id = Submit(RegionMigrationProcedure(std::move(persistent)), ctx.now());
  ctx.Log("ms.submit", "RegionMigration procedure=" + std::to_string(id.value) + " region=" +
                           region.ToString() + " from=" + from.ToString() + " to=" + to.ToString());
  return id;
}

void Metasrv::OnDdlSubmit(NodeId from, const DdlSubmit& submit, NodeContext& ctx) {
  // Before procedures are recovered (leader start) the procedure manager takes no DDL.
  if (!recovered()) {
    ctx.Send(from, DdlReply{submit.corr, DdlOutcome::kUnavailable, 0,
                            "the procedure manager is not running yet (leader start)"});
    return;
  }
  ProcedureId id;
  if (const auto* create = std::get_if<CreateTableTask>(&submit.task)) {
    id = SubmitCreateTable(create->info, create->route, ctx);
  } else {
    id = SubmitRepartition(std::get<RepartitionTask>(submit.task), ctx);
  }
  REPARTSIM_ASSERT(ddl_waiters_.count(id) == 0);
  ddl_waiters_[id] = DdlWaiter{from, submit.corr, submit.ddl};
  if (submit.ddl != 0) ctx.history.Ddl(submit.ddl).procedures.push_back(id.value);
}

void Metasrv::AnswerEndedDdls(NodeContext& ctx) {
  for (auto waiter = ddl_waiters_.begin(); waiter != ddl_waiters_.end();) {
    const auto* slot = procedures_.Find(waiter->first);
    REPARTSIM_ASSERT_MSG(slot != nullptr, "a DDL call waits on a procedure that is gone");
    if (MetaProcedureManager::IsActive(slot->status)) {
      ++waiter;
      continue;
    }
    const bool done = slot->status == ProcedureStatus::kDone;
    const std::string error = done ? std::string() : slot->error;
    const DdlWaiter& w = waiter->second;
    ctx.Send(w.frontend, DdlReply{w.corr, done ? DdlOutcome::kDone : DdlOutcome::kFailed,
                                  waiter->first.value, error});
    waiter = ddl_waiters_.erase(waiter);
  }
}

}  // namespace repartsim::model
