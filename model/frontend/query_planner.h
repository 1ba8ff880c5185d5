// The frontend's query planner: the regions a SELECT scans with one cached route (every route
// on the read side, pruned with the cached rule when the query has a predicate and every
// region has an expression; under Rule::kFencedReads IgnoreAllWrites regions are left out and
// each scan carries the version it was planned with), and the leader each scan goes to.
// docs/protocol.md section 6. A pure function over plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/frontend/route_cache.h"
#include "model/meta/ids.h"
#include "model/partition/predicate.h"
#include "model/protocol/protocol.h"

namespace repartsim::model {

struct RegionScan {
  RegionId region;
  NodeId leader;
  std::optional<uint64_t> planned_version;  // set under Rule::kFencedReads
};

struct QueryPlan {
  std::vector<RegionId> regions;  // what the plan names, in scan order (leaderless ones too)
  std::vector<RegionScan> scans;  // the scans to send, in the same order
  uint32_t error_count = 0;       // regions without a leader
  std::string error;              // the last such error; "" when none
};

// Plans a query of `table` with predicate `where` (none: every row) over `cached`.
QueryPlan PlanQuery(const CachedTable& cached, TableId table, const std::optional<Predicate>& where,
                    const Protocol& protocol);

}  // namespace repartsim::model
