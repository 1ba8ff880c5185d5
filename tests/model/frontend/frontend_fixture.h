// Shared fixture for the frontend tests: table 1024 (a Int32 partition column, ts time index),
// hand-made region routes and partition expressions over `a`.
#pragma once

#include <optional>
#include <utility>

#include "model/frontend/route_cache.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/partition/expr.h"

namespace repartsim::model::testing {

inline constexpr TableId kFeTable{1024};

inline TableInfo FeInfo() {
  TableInfo info;
  info.table_id = kFeTable;
  info.name = "t";
  info.schema.name = "t";
  info.schema.columns = {Column{"a", ColumnType::kInt32, true},
                         Column{"ts", ColumnType::kTimestamp, false}};
  info.schema.time_index = 1;
  info.schema.partition_columns = {"a"};
  info.partition_key_indices = {0};
  return info;
}

// Region `number` of table 1024 with `expr`, led by `leader` (none: no leader).
inline RegionRoute FeRoute(uint32_t number, std::optional<PartitionExpr> expr,
                           std::optional<NodeId> leader = NodeId{1},
                           WritePolicy policy = WritePolicy::kNormal) {
  RegionRoute r;
  r.region_id = RegionId::Of(kFeTable, RegionNumber{number});
  r.partition_expr = std::move(expr);
  r.leader = leader;
  r.write_policy = policy;
  return r;
}

inline CachedTable FeCached(std::vector<RegionRoute> routes) {
  return CachedTable{TableRoute::New(std::move(routes)), FeInfo()};
}

inline PartitionExpr FeLt(int64_t v) {
  return PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(v));
}
inline PartitionExpr FeGe(int64_t v) {
  return PartitionExpr::Leaf("a", CompareOp::kGtEq, Value::Int(v));
}
inline Row FeRow(int64_t a, int64_t ts) { return Row{Value::Int(a), Value::Timestamp(ts)}; }

}  // namespace repartsim::model::testing
