#include "model/frontend/query_planner.h"

#include <algorithm>

#include "model/frontend/partition_view.h"
#include "model/partition/prune.h"
#include "model/partition/rule.h"
#include "model/protocol/rules.h"

namespace repartsim::model {

QueryPlan PlanQuery(const CachedTable& cached, TableId table, const std::optional<Predicate>& where,
                    const Protocol& protocol) {
  const PartitionView& view = cached.View(protocol);
  std::vector<RegionId> regions = view.read_regions;
  if (protocol.On(Rule::kFencedReads)) {
    // A merged-away or not yet applied region (IgnoreAllWrites) holds rows another region
    // serves, or will serve, under a fenced version: reading it too could duplicate rows.
    std::erase_if(regions, [&](RegionId region) {
      const RegionRoute* r = cached.route.Find(region);
      return r != nullptr && r->ignores_writes();
    });
  }
  if (where.has_value() && cached.info.is_partitioned()) {
    // Prune over the read-side partitions (every route, IgnoreAllWrites and Staging included).
    PartitionRule read_rule;
    read_rule.columns = cached.info.PartitionColumnNames();
    bool all_have_expr = true;
    for (const RegionRoute& r : cached.route.region_routes) {
      if (std::find(regions.begin(), regions.end(), r.region_id) == regions.end()) continue;
      if (!r.partition_expr.has_value()) {
        all_have_expr = false;
        break;
      }
      read_rule.regions.push_back(r.region_id.region_number().value);
      read_rule.exprs.push_back(*r.partition_expr);
    }
    if (all_have_expr) {
      PruneMode mode =
          protocol.base() == ProfileKind::kReference ? PruneMode::kExact : PruneMode::kGreptime;
      PruneResult pruned = PruneRegions(read_rule, cached.info.schema, *where, mode);
      regions.clear();
      for (uint32_t number : pruned.regions) {
        regions.push_back(RegionId::Of(table, RegionNumber{number}));
      }
    }
  }
  QueryPlan plan;
  for (RegionId region : regions) {
    const RegionRoute* route = cached.route.Find(region);
    if (route == nullptr || !route->leader.has_value()) {
      ++plan.error_count;
      plan.error = "Failed to find leader for region " + region.ToString();
      continue;
    }
    std::optional<uint64_t> planned;
    if (protocol.On(Rule::kFencedReads)) planned = route->ExprVersionValue();
    plan.scans.push_back(RegionScan{region, *route->leader, planned});
  }
  plan.regions = std::move(regions);
  return plan;
}

}  // namespace repartsim::model
