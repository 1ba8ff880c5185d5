#include "model/repartition/route_access.h"

#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "sim/assert.h"

namespace repartsim::model {

std::optional<RouteSnapshot> ReadRouteSnapshot(const KvStore& kv, TableId table) {
  const std::string* raw = kv.Find(TableRouteKey(table));
  if (raw == nullptr) return std::nullopt;
  sim::Result<TableRoute> route = DecodeTableRoute(*raw);
  REPARTSIM_ASSERT_MSG(route.ok(), "stored table route does not decode");
  for (const RegionRoute& r : route.value().region_routes) {
    REPARTSIM_ASSERT(r.region_id.table_id() == table);  // a table's route lists its regions
  }
  return RouteSnapshot{*raw, std::move(route).value()};
}

std::optional<RouteSnapshot> ReadRouteSnapshot(MetasrvEnv& env, TableId table) {
  const std::string key = TableRouteKey(table);
  const std::string* raw = env.kv().Find(key);
  if (raw == nullptr) return std::nullopt;
  return RouteSnapshot{*raw, env.DecodeRoute(key, *raw)};
}

std::optional<InfoSnapshot> ReadInfoSnapshot(const KvStore& kv, TableId table) {
  const std::string* raw = kv.Find(TableInfoKey(table));
  if (raw == nullptr) return std::nullopt;
  sim::Result<TableInfo> info = DecodeTableInfo(*raw);
  REPARTSIM_ASSERT_MSG(info.ok(), "stored table info does not decode");
  REPARTSIM_ASSERT(info.value().table_id == table);
  return InfoSnapshot{*raw, std::move(info).value()};
}

RegionRoute* FindRoute(std::vector<RegionRoute>& routes, RegionId region) {
  for (RegionRoute& r : routes) {
    if (r.region_id == region) return &r;
  }
  return nullptr;
}

const RegionRoute* FindRoute(const std::vector<RegionRoute>& routes, RegionId region) {
  for (const RegionRoute& r : routes) {
    if (r.region_id == region) return &r;
  }
  return nullptr;
}

NodeId PlaceRegion(RegionId region, const std::vector<NodeId>& datanodes) {
  REPARTSIM_ASSERT(!datanodes.empty());
  const NodeId node = datanodes[region.region_number().value % datanodes.size()];
  REPARTSIM_ASSERT(node.value != 0);  // node 0 is the metasrv, never a region's leader
  return node;
}

}  // namespace repartsim::model
