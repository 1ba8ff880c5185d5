// DDL on the metasrv (GreptimeDB's DdlManager behind the SubmitDdlTask call): CREATE TABLE and
// the repartition procedure, each filled from what the frontend validated, submitted, and
// answered when the procedure ends. The waiting call is volatile: a metasrv crash loses it
// (the client's call breaks), even when the recovered procedure later finishes.
#include <string>
#include <utility>

#include "model/ddl/create_table_procedure.h"
#include "model/meta/meta_keys.h"
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
                                     NodeContext& ctx, std::string trigger_reason) {
  REPARTSIM_ASSERT(up_);
  REPARTSIM_ASSERT(recovered());
  REPARTSIM_ASSERT(from != to);
  RegionMigrationProcedure::PersistentContext persistent;
  persistent.from_peer = from;
  persistent.to_peer = to;
  persistent.region = region;
  persistent.timeout_ms = timeout_ms;
  persistent.trigger_reason = std::move(trigger_reason);
  const ProcedureId id = Submit(RegionMigrationProcedure(std::move(persistent)), ctx.now());
  ctx.Log("ms.submit", "RegionMigration procedure=" + std::to_string(id.value) + " region=" +
                           region.ToString() + " from=" + from.ToString() + " to=" + to.ToString());
  return id;
}

void Metasrv::RebalanceRandomRegion(const std::vector<NodeId>& datanodes, sim::Chooser& chooser,
                                    NodeContext& ctx) {
  REPARTSIM_ASSERT(up_ && recovered());
  const auto routes = kv_.Range(kTableRoutePrefix);
  if (routes.empty()) return;
  const TableRoute& route = DecodeRoute(routes.front().first, routes.front().second);
  std::vector<const RegionRoute*> led;
  for (const RegionRoute& r : route.region_routes) {
    if (r.leader.has_value()) led.push_back(&r);
  }
  if (led.empty() || datanodes.size() < 2) return;
  const RegionRoute& picked =
      *led[chooser.Choose("net.migrate_region", static_cast<uint32_t>(led.size()))];
  std::vector<NodeId> targets;
  for (NodeId dn : datanodes) {
    if (dn != *picked.leader) targets.push_back(dn);
  }
  const NodeId to =
      targets[chooser.Choose("net.migrate_to", static_cast<uint32_t>(targets.size()))];
  for (const auto& [id, slot] : procedures_.slots()) {
    const auto* migration = MetaProcedureManager::BodyOf(slot).As<RegionMigrationProcedure>();
    if (migration != nullptr && MetaProcedureManager::IsActive(slot.status) &&
        migration->context().region == picked.region_id) {
      ctx.Log("ms.rebalance", picked.region_id.ToString() + " skipped: procedure " +
                                  std::to_string(id.value) + " migrates it");
      return;
    }
  }
  ctx.Log("ms.rebalance", picked.region_id.ToString() + " from=" + picked.leader->ToString() +
                              " to=" + to.ToString());
  SubmitMigration(picked.region_id, *picked.leader, to, RegionMigrationProcedure::kDefaultTimeoutMs,
                  ctx, "Rebalance");
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
