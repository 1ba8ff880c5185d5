// Key layout of the metasrv kv store, as in the real system (src/common/meta/src/key.rs):
// __table_route/{table_id}, __table_info/{table_id}, __table_repart/{table_id},
// __dn_table/{datanode_id}/{table_id} and the GC requirement marker.
#pragma once

#include <string>
#include <string_view>

#include "model/meta/ids.h"

namespace repartsim::model {

inline constexpr std::string_view kTableRoutePrefix = "__table_route/";
inline constexpr std::string_view kTableInfoPrefix = "__table_info/";
inline constexpr std::string_view kTableRepartPrefix = "__table_repart/";
inline constexpr std::string_view kDatanodeTablePrefix = "__dn_table/";
inline constexpr std::string_view kGcRequirementKey = "__requirements/gc/repartition";
inline constexpr std::string_view kGcRequirementValue = "repartition";

inline std::string TableRouteKey(TableId table) {
  return std::string(kTableRoutePrefix) + table.ToString();
}
inline std::string TableInfoKey(TableId table) {
  return std::string(kTableInfoPrefix) + table.ToString();
}
inline std::string TableRepartKey(TableId table) {
  return std::string(kTableRepartPrefix) + table.ToString();
}
inline std::string DatanodeTableKey(NodeId node, TableId table) {
  return std::string(kDatanodeTablePrefix) + node.ToString() + "/" + table.ToString();
}

}  // namespace repartsim::model
