// P2 AllocateRegion (docs/protocol.md sections 10.2, 10.3): Build fixes the target region ids of
// every plan (reused sources in order, fresh numbers past max_region_number for extra targets,
// extra sources pending deallocation) and captures the reused targets' routes for rollback; Execute
// creates the new regions on datanodes and appends their routes.
#include "model/node/message.h"
#include "model/node/refusal.h"
#include "model/partition/region_assignment.h"
#include "model/protocol/rules.h"
#include "model/repartition/repartition_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionProcedure::AllocateRegionBuild(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kAllocateRegionBuild);
  REPARTSIM_ASSERT(!ctx_.plans.empty());
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  const TableRoute& route = snapshot->route;
  uint32_t next = route.NextRegionNumber().value;
  bool any_allocation = false;
  for (PlanEntry& plan : ctx_.plans) {
    std::vector<RegionId> sources;
    for (const SourceDescriptor& source : plan.sources) sources.push_back(source.region);
    GroupRegions<RegionId> regions = AssignGroupRegions(sources, plan.target_exprs.size(), [&] {
      return RegionId::Of(ctx_.table, RegionNumber{next++});
    });
    plan.targets.clear();
    plan.allocated.clear();
    plan.pending_deallocate.clear();
    plan.original_target_routes.clear();
    for (size_t i = 0; i < regions.targets.size(); ++i) {
      const RegionId target = regions.targets[i];
      if (i < sources.size()) {  // a reused source: its route is restored on rollback
        const RegionRoute* original = route.Find(target);
        if (original == nullptr) {
          return Step::Error("RepartitionTargetRegionMissing: region " + target.ToString());
        }
        plan.original_target_routes.push_back(*original);
      }
      plan.targets.push_back(TargetDescriptor{target, plan.target_exprs[i]});
    }
    plan.allocated = std::move(regions.allocated);
    plan.pending_deallocate = std::move(regions.deallocated);
    any_allocation = any_allocation || !plan.allocated.empty();
    plan.built = true;
    REPARTSIM_ASSERT(plan.targets.size() == plan.target_exprs.size());
  }
  REPARTSIM_ASSERT(next >= route.NextRegionNumber().value);
  state_ = any_allocation ? State::kAllocateRegionExecute : State::kDispatch;
  return Step::Next(/*persist=*/true);
}

Step RepartitionProcedure::AllocateRegionExecute(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kAllocateRegionExecute);
  REPARTSIM_ASSERT(std::all_of(ctx_.plans.begin(), ctx_.plans.end(),
                               [](const PlanEntry& plan) { return plan.built; }));
  std::optional<InfoSnapshot> info = ReadInfoSnapshot(env.kv(), ctx_.table);
  if (!info.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  const bool under_lock = env.protocol().On(Rule::kAllocateRouteUnderLock);
  if (!requests_.sent()) {
    // Before #8115 the route was read here, before the CreateRegion calls (volatile: a
    // re-execution after a metasrv restart reads again).
    allocate_read_.reset();
    if (!under_lock) {
      allocate_read_ = ReadRouteSnapshot(env, ctx_.table);
      if (!allocate_read_.has_value()) {
        return Step::Error("Table not found: " + ctx_.table.ToString());
      }
    }
    for (const PlanEntry& plan : ctx_.plans) {
      for (const TargetDescriptor& target : plan.targets) {
        if (std::find(plan.allocated.begin(), plan.allocated.end(), target.region) ==
            plan.allocated.end()) {
          continue;
        }
        // Registered so that leases renew before the route lists the region.
        env.operating_regions().emplace(target.region, env.current());
        requests_.Send(env, PlaceRegion(target.region, env.datanodes()), target.region,
                       CreateRegionOp{info->info.schema, target.expr,
                                      env.protocol().On(Rule::kFenceAllocatedRegions)});
      }
    }
    requests_.Seal(env);
    return requests_.WaitStep();
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) return requests_.FailureStep(outcome);

  // "MUST refresh the route to avoid lost update": re-read under the dynamic table lock.
  DynamicTableLock table_lock(env, ctx_.table);
  REPARTSIM_ASSERT_MSG(table_lock.held(), "no dynamic holder spans steps beside a repartition");
  std::optional<RouteSnapshot> snapshot = under_lock || !allocate_read_.has_value()
                                              ? ReadRouteSnapshot(env, ctx_.table)
                                              : std::move(allocate_read_);
  allocate_read_.reset();
  if (!snapshot.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  std::vector<RegionRoute> routes = snapshot->route.region_routes;
  const bool fence = env.protocol().On(Rule::kFenceAllocatedRegions);
  for (const PlanEntry& plan : ctx_.plans) {
    for (const TargetDescriptor& target : plan.targets) {
      if (std::find(plan.allocated.begin(), plan.allocated.end(), target.region) ==
          plan.allocated.end()) {
        continue;
      }
      if (FindRoute(routes, target.region) != nullptr) {
        // Re-execution after the route commit: the real WAL-option merge refuses to
        // overwrite the region's existing option (P12).
        if (!env.protocol().On(Rule::kIdempotentAllocate)) {
          return Step::Error("Unexpected: WAL options of region " + target.region.ToString() +
                             " already exist and cannot be overwritten");
        }
        continue;
      }
      RegionRoute route;
      route.region_id = target.region;
      route.partition_expr = target.expr;
      route.leader = PlaceRegion(target.region, env.datanodes());
      if (fence) route.write_policy = WritePolicy::kIgnoreAllWrites;
      routes.push_back(std::move(route));
    }
  }
  REPARTSIM_ASSERT(routes.size() >= snapshot->route.region_routes.size());
  MetaUpdateResult result =
      UpdateTableRoute(env.kv(), ctx_.table, snapshot->raw, snapshot->route, std::move(routes));
  if (!result.ok) {
    // Under the lock the CAS cannot lose to another writer; from the early read it loses to
    // any route write in between, and update_table_route's `Unexpected` is not retryable.
    // The message names the two route versions instead of printing both values.
    if (!under_lock) {
      std::optional<RouteSnapshot> now = ReadRouteSnapshot(env, ctx_.table);
      return Step::Error(std::string(kStaleRouteCasError) +
                         " during Updating table route: the route is at version " +
                         std::to_string(now.has_value() ? now->route.version : 0) +
                         ", the new value was built from version " +
                         std::to_string(snapshot->route.version) +
                         ", read before the CreateRegion calls");
    }
    return Step::RetryLater(result.error);
  }
  env.InvalidateTable(ctx_.table);
  state_ = State::kDispatch;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
