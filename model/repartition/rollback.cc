// Parent rollback (docs/protocol.md section 10.6, rollback_inner): in UpdatePartitionMetadata,
// AllocateRegion, Dispatch or Collect it drops the allocated regions of the plans it rolls back
// (all plans, or in Collect the failed and unknown ones), restores partition_key_indices, restores
// the routes of failed/unknown groups (sources and reused targets) and removes the allocated
// routes, then invalidates caches. Elsewhere it is a no-op. Like the real one it never touches
// datanode manifests (Rule::kRollForwardAfterCommit keeps the reference profile from needing to),
// and it is idempotent: a crash during it resumes from the rollback record.
#include <algorithm>

#include "model/protocol/rules.h"
#include "model/repartition/repartition_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

bool Contains(const std::vector<size_t>& list, size_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

bool RepartitionProcedure::PastCommitPoint(MetasrvEnv& env) const {
  REPARTSIM_ASSERT(state_ == State::kCollect);
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return false;
  for (const PlanEntry& plan : ctx_.plans) {
    REPARTSIM_ASSERT(plan.original_target_routes.size() <= plan.targets.size());
    for (size_t i = 0; i < plan.targets.size(); ++i) {
      const RegionRoute* route = snapshot->route.Find(plan.targets[i].region);
      if (route == nullptr) continue;
      if (route->is_staging()) return true;
      bool reused = i < plan.original_target_routes.size();
      bool changed =
          reused ? plan.original_target_routes[i].ExprText() != route->ExprText()
                 : !route->ignores_writes() && env.protocol().On(Rule::kFenceAllocatedRegions);
      if (changed && route->ExprText() == plan.targets[i].expr.CanonicalText()) return true;
    }
  }
  return false;
}

Step RepartitionProcedure::Rollback(MetasrvEnv& env, const ProcedureView&) {
  if (state_ != State::kUpdatePartitionMetadata && state_ != State::kAllocateRegionBuild &&
      state_ != State::kAllocateRegionExecute && state_ != State::kDispatch &&
      state_ != State::kCollect) {
    return Step::Done();
  }
  const bool in_collect = state_ == State::kCollect;
  std::vector<size_t> rolled_back;  // plans whose metadata and allocations are undone
  for (size_t i = 0; i < ctx_.plans.size(); ++i) {
    if (!in_collect || Contains(ctx_.failed_plans, i) || Contains(ctx_.unknown_plans, i)) {
      rolled_back.push_back(i);
    }
  }
  REPARTSIM_ASSERT(rolled_back.size() <= ctx_.plans.size());
  // rollback_inner holds the dynamic table lock from before its route read, across the drops
  // of allocated regions, to its route write.
  DynamicTableLock table_lock(env, ctx_.table);
  REPARTSIM_ASSERT_MSG(table_lock.held(), "no dynamic holder spans steps beside a repartition");
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return Step::Done();
  // Regions to drop: allocated regions of rolled-back plans, and (P8 fix) the merged-away
  // regions of succeeded plans, which would otherwise stay in the route forever.
  std::vector<RegionId> drop;
  for (size_t i : rolled_back) {
    drop.insert(drop.end(), ctx_.plans[i].allocated.begin(), ctx_.plans[i].allocated.end());
  }
  if (in_collect && env.protocol().On(Rule::kDeallocateMergedAway)) {
    for (size_t i : ctx_.succeeded_plans) {
      const auto& pending = ctx_.plans[i].pending_deallocate;
      drop.insert(drop.end(), pending.begin(), pending.end());
    }
  }
  PendingRequests::Outcome outcome;
  if (std::optional<Step> wait = DropRegionsRound(env, snapshot->route, drop, outcome)) {
    table_lock.Keep();
    return *wait;
  }
  if (outcome != PendingRequests::Outcome::kOk) {
    env.TraceProcedure(env.current(),
                       "rollback: dropping regions failed (warned): " + requests_.message());
  }
  // Partition key indices.
  if (ctx_.metadata_update.has_value()) {
    std::optional<InfoSnapshot> info = ReadInfoSnapshot(env.kv(), ctx_.table);
    if (info.has_value() && info->info.partition_key_indices != ctx_.metadata_update->original) {
      if (info->info.partition_key_indices != ctx_.metadata_update->target) {
        return Step::RetryLater("partition columns are neither the original nor the target");
      }
      TableInfo restored = info->info;
      restored.partition_key_indices = ctx_.metadata_update->original;
      MetaUpdateResult result = UpdateTableInfo(env.kv(), ctx_.table, info->raw, restored);
      if (!result.ok) return Step::RetryLater(result.error);
    }
  }
  // Routes of the failed and unknown groups, then removal of the dropped regions' routes.
  std::vector<RegionRoute> routes = snapshot->route.region_routes;
  for (size_t i : rolled_back) {
    if (!in_collect) break;  // only Collect knows failed/unknown groups
    const PlanEntry& plan = ctx_.plans[i];
    for (const SourceDescriptor& source : plan.sources) {
      RegionRoute* route = FindRoute(routes, source.region);
      if (route == nullptr) continue;
      route->ClearLeaderStaging();  // rollback_group_metadata_routes: a Downgrading stays
      route->partition_expr = source.expr;
      if (std::find(plan.pending_deallocate.begin(), plan.pending_deallocate.end(),
                    source.region) != plan.pending_deallocate.end()) {
        route->write_policy = WritePolicy::kNormal;
      }
    }
    for (const RegionRoute& original : plan.original_target_routes) {
      RegionRoute* route = FindRoute(routes, original.region_id);
      if (route == nullptr) continue;
      route->partition_expr = original.partition_expr;
      route->write_policy = original.write_policy;
      route->ClearLeaderStaging();
    }
  }
  std::erase_if(routes, [&](const RegionRoute& r) {
    return std::find(drop.begin(), drop.end(), r.region_id) != drop.end();
  });
  if (!(routes == snapshot->route.region_routes)) {
    MetaUpdateResult result =
        UpdateTableRoute(env.kv(), ctx_.table, snapshot->raw, snapshot->route, std::move(routes));
    if (!result.ok) return Step::RetryLater(result.error);
  }
  for (RegionId region : drop) env.operating_regions().erase(region);
  for (RegionId region : drop) REPARTSIM_ASSERT(env.operating_regions().count(region) == 0);
  env.InvalidateTable(ctx_.table);
  return Step::Done();
}

}  // namespace repartsim::model
