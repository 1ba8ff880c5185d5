#include "model/cluster/ownership_probe.h"

#include <optional>
#include <string>
#include <utility>

#include "model/partition/expr.h"
#include "sim/assert.h"

namespace repartsim::model {

void OwnershipProbe::OnAccepted(const Region& region, const RegionWrite& write, uint64_t write_id,
                                NodeContext& ctx) {
  REPARTSIM_ASSERT(region.id() == write.region);
  // Every acceptance, for reports: the last region that accepted a row holds it.
  history_.Accept(ctx.step.step, ctx.self, write.region, write_id, write.rows);
  const std::optional<PartitionExpr>& current = region.version().partition_expr;
  if (!current.has_value()) return;  // an unpartitioned region owns every row
  const PartitionExpr* staging = nullptr;
  if (region.state() == RegionState::kStaging && region.staging() &&
      region.staging()->partition_expr) {
    staging = &*region.staging()->partition_expr;
  }
  const TableSchema& schema = region.schema();
  OwnershipBreach breach;
  // While staging a new expression the region is entitled to that expression only: a split
  // source's committed range includes the part it is handing over, whose rows after the
  // EnterStaging flush stay behind when the targets adopt its files.
  const PartitionExpr& entitled = staging != nullptr ? *staging : *current;
  for (const Row& row : write.rows) {
    if (!MatchesFilterPath(entitled, schema, row)) breach.rows.push_back(row);
  }
  if (breach.rows.empty()) return;
  breach.step = ctx.step.step;
  breach.at = ctx.now();
  breach.node = ctx.self;
  breach.region = write.region;
  breach.current = current;
  if (staging != nullptr) breach.staging = *staging;
  ctx.Log("dn.accepted_outside",
          write.region.ToString() + " rows=" + std::to_string(breach.rows.size()));
  history_.ownership_breaches.push_back(std::move(breach));
}

}  // namespace repartsim::model
