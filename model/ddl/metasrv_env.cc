#include "model/ddl/metasrv_env.h"

#include "model/meta/meta_keys.h"
#include "sim/assert.h"

namespace repartsim::model {

void MetasrvEnv::TraceProcedure(ProcedureId id, std::string_view what) {
  std::string detail = "procedure=" + std::to_string(id.value) + " ";
  detail += what;
  ctx_.Log("ms.procedure", detail);
}

uint64_t MetasrvEnv::SendRegionRequest(NodeId node, RegionId region, RegionOp op) {
  REPARTSIM_ASSERT(current_.valid());
  const uint64_t corr = ddl_.RegisterRequest(current_);
  REPARTSIM_ASSERT(corr != 0);
  ctx_.Log("ms.region_request", std::string(RegionOpName(op)) + " region=" + region.ToString() +
                                    " to=" + node.ToString());
  // Stamped with the route version the instruction is sent under (Rule::kVersionedLeases).
  uint64_t route_version = 0;
  const std::string key = TableRouteKey(region.table_id());
  if (const std::string* bytes = ddl_.mutable_kv().Find(key)) {
    route_version = ddl_.DecodeRoute(key, *bytes).version;
  }
  ctx_.Send(node, RegionRequest{corr, region, std::move(op), route_version});
  return corr;
}

}  // namespace repartsim::model
