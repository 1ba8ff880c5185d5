// P5 DeallocateRegion (docs/protocol.md section 10.3): drops the merged-away sources on their
// leaders (RegionNotFound ignored: idempotent), removes their routes and invalidates caches.
#include <algorithm>

#include "model/node/message.h"
#include "model/repartition/repartition_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionProcedure::DeallocateRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kDeallocateRegion);
  std::vector<RegionId> pending;
  for (const PlanEntry& plan : ctx_.plans) {
    pending.insert(pending.end(), plan.pending_deallocate.begin(), plan.pending_deallocate.end());
  }
  if (pending.empty()) {
    state_ = State::kRepartitionEnd;
    return Step::Next(/*persist=*/false);
  }
  // The dynamic table lock is held from the route read, across the DropRegion round trip, to
  // the route write (deallocate_region.rs keeps its guard alive across deallocate_regions).
  DynamicTableLock table_lock(env, ctx_.table);
  REPARTSIM_ASSERT_MSG(table_lock.held(), "no dynamic holder spans steps beside a repartition");
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  PendingRequests::Outcome outcome;
  if (std::optional<Step> wait = DropRegionsRound(env, snapshot->route, pending, outcome)) {
    table_lock.Keep();
    return *wait;
  }
  if (outcome != PendingRequests::Outcome::kOk) return requests_.FailureStep(outcome);
  std::vector<RegionRoute> routes = snapshot->route.region_routes;
  std::erase_if(routes, [&](const RegionRoute& r) {
    return std::find(pending.begin(), pending.end(), r.region_id) != pending.end();
  });
  REPARTSIM_ASSERT(routes.size() + pending.size() >= snapshot->route.region_routes.size());
  if (routes.size() != snapshot->route.region_routes.size()) {
    MetaUpdateResult result =
        UpdateTableRoute(env.kv(), ctx_.table, snapshot->raw, snapshot->route, std::move(routes));
    if (!result.ok) return Step::RetryLater(result.error);
    env.InvalidateTable(ctx_.table);
  }
  state_ = State::kRepartitionEnd;
  return Step::Next(/*persist=*/true);
}

std::optional<Step> RepartitionProcedure::DropRegionsRound(MetasrvEnv& env, const TableRoute& route,
                                                           const std::vector<RegionId>& regions,
                                                           PendingRequests::Outcome& outcome) {
  REPARTSIM_ASSERT(
      state_ == State::kDeallocateRegion || state_ == State::kUpdatePartitionMetadata ||
      state_ == State::kAllocateRegionBuild || state_ == State::kAllocateRegionExecute ||
      state_ == State::kDispatch || state_ == State::kCollect);
  if (!requests_.sent()) {
    for (RegionId region : regions) {
      const RegionRoute* r = route.Find(region);
      if (r == nullptr || !r->leader.has_value()) continue;
      requests_.Send(env, *r->leader, region, DropRegionOp{});
    }
    requests_.Seal(env);
    if (!requests_.empty()) return requests_.WaitStep();
  }
  outcome = requests_.Collect(env, /*not_found_ok=*/true);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  REPARTSIM_ASSERT(!requests_.sent());  // the batch is over: the next round sends anew
  return std::nullopt;
}

}  // namespace repartsim::model
