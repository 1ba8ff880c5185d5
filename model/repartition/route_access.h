// Reading and updating a table route from procedure states: the raw bytes (for the CAS of
// update_table_route) with the decoded value, and helpers that edit one region's route.
#pragma once

#include <optional>
#include <string>

#include "model/ddl/metasrv_env.h"
#include "model/meta/kv_store.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/meta/table_metadata.h"

namespace repartsim::model {

struct RouteSnapshot {
  std::string raw;
  TableRoute route;
};

std::optional<RouteSnapshot> ReadRouteSnapshot(const KvStore& kv, TableId table);
// The same through the metasrv's decode cache (procedure states use this one).
std::optional<RouteSnapshot> ReadRouteSnapshot(MetasrvEnv& env, TableId table);

struct InfoSnapshot {
  std::string raw;
  TableInfo info;
};

std::optional<InfoSnapshot> ReadInfoSnapshot(const KvStore& kv, TableId table);

// The route of `region` in `routes`, or nullptr.
RegionRoute* FindRoute(std::vector<RegionRoute>& routes, RegionId region);
const RegionRoute* FindRoute(const std::vector<RegionRoute>& routes, RegionId region);

// Leader placement of a newly allocated region: region number modulo the datanode count
// (stable across re-execution, like a selector that sees the same cluster).
NodeId PlaceRegion(RegionId region, const std::vector<NodeId>& datanodes);

}  // namespace repartsim::model
