#include "model/ddl/metasrv_env.h"

#include "model/ddl/lock_keys.h"
#include "model/meta/meta_keys.h"
#include "model/node/message.h"
#include "sim/assert.h"

namespace repartsim::model {

void MetasrvEnv::TraceProcedure(ProcedureId id, std::string_view what) {
  std::string detail = "procedure=" + std::to_string(id.value) + " ";
  detail += what;
  ctx_.Log("ms.procedure", detail);
}

bool MetasrvEnv::TryLockTable(TableId table) {
  REPARTSIM_ASSERT(current_.valid());
  return ddl_.dynamic_locks().TryAcquire(current_, TableWriteLock(table));
}

void MetasrvEnv::UnlockTable(TableId table) {
  REPARTSIM_ASSERT(current_.valid());
  ddl_.dynamic_locks().Release(current_, TableWriteLock(table).key);
}

void MetasrvEnv::NoteRegionRequest(NodeId node, RegionId region, const RegionOp& op) {
  ctx_.Log("ms.region_request", std::string(RegionOpName(op)) + " region=" + region.ToString() +
                                    " to=" + node.ToString());
}

uint64_t MetasrvEnv::SendRegionRequest(NodeId node, RegionId region, RegionOp op) {
  NoteRegionRequest(node, region, op);
  std::vector<RegionInstruction> items;
  items.push_back(RegionInstruction{region, std::move(op)});
  return SendRegionRequests(node, std::move(items));
}

uint64_t MetasrvEnv::SendRegionRequests(NodeId node, std::vector<RegionInstruction> items) {
  REPARTSIM_ASSERT(current_.valid());
  REPARTSIM_ASSERT(!items.empty());
  const uint64_t corr = ddl_.RegisterRequest(current_);
  REPARTSIM_ASSERT(corr != 0);
  // Stamped with the route version the instruction is sent under (Rule::kVersionedLeases).
  uint64_t route_version = 0;
  const std::string key = TableRouteKey(items.front().region.table_id());
  if (const std::string* bytes = ddl_.mutable_kv().Find(key)) {
    route_version = ddl_.DecodeRoute(key, *bytes).version;
  }
  ctx_.Send(node, RegionRequest{corr, std::move(items), route_version});
  return corr;
}

}  // namespace repartsim::model
