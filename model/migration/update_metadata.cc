// UpdateMetadata::{Downgrade, Upgrade, Rollback} (update_metadata/*.rs): each takes the dynamic
// table lock, reads the route fresh and writes it with a compare-and-put (a failed compare is
// retryable). Downgrade: the region's route, if its leader is from_peer, gets leader_state
// Downgrading (set_leader_state: overwrites Staging). Upgrade: leader_state None (clears
// Staging too), leader from_peer -> to_peer, to_peer dropped from the followers, the operating
// Follower registration released, caches invalidated. Rollback: leader_state None (clears
// Staging too), caches invalidated, then RegionMigrationAbort fails the procedure.
#include <algorithm>

#include "model/migration/region_migration_procedure.h"
#include "model/procedure/procedure_manager.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

// Returns write(snapshot) for the table's route read under the dynamic table lock, held until
// `write` returns (the route write happens inside it); waits for the lock, and fails when the
// table route is gone (Downgrade and Upgrade; Rollback treats a missing route as done).
template <class Write>
Step WithLockedRoute(MetasrvEnv& env, TableId table, Write write) {
  DynamicTableLock table_lock(env, table);
  if (!table_lock.held()) return Step::Wait(kNever);
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, table);
  if (!snapshot.has_value()) {
    return Step::Error("Unexpected: TableRoute(" + table.ToString() + ") is not found");
  }
  return write(*snapshot);
}

}  // namespace

Step RegionMigrationProcedure::UpdateMetadataDowngrade(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kUpdateMetadataDowngrade);
  return WithLockedRoute(env, table(), [&](RouteSnapshot& snapshot) {
    std::vector<RegionRoute> routes = snapshot.route.region_routes;
    RegionRoute* route = FindRoute(routes, ctx_.region);
    bool updated = false;
    if (route != nullptr && route->leader == ctx_.from_peer) {
      updated = route->SetLeaderState(LeaderState::kDowngrading, env.Now());
    }
    if (updated) {  // update_leader_region_status writes nothing when nothing changed
      MetaUpdateResult result =
          UpdateTableRoute(env.kv(), table(), snapshot.raw, snapshot.route, std::move(routes));
      if (!result.ok) return Step::RetryLater(result.error);
    }
    return Goto(State::kDowngradeLeaderRegion);
  });
}

Step RegionMigrationProcedure::UpdateMetadataUpgrade(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kUpdateMetadataUpgrade);
  return WithLockedRoute(env, table(), [&](RouteSnapshot& snapshot) {
    std::vector<RegionRoute> routes = snapshot.route.region_routes;
    RegionRoute* route = FindRoute(routes, ctx_.region);
    if (route == nullptr) {
      return Step::Error("RegionRouteNotFound: region " + ctx_.region.ToString());
    }
    const bool upgraded = route->leader == ctx_.to_peer && !route->is_downgrading();
    if (!upgraded) {
      if (route->leader != ctx_.from_peer) {
        return Step::Error("Unexpected: region " + ctx_.region.ToString() +
                           " leader is not the from_peer " + ctx_.from_peer.ToString());
      }
      route->SetLeaderState(LeaderState::kNone, env.Now());
      route->leader = ctx_.to_peer;
      std::erase(route->followers, ctx_.to_peer);
      MetaUpdateResult result =
          UpdateTableRoute(env.kv(), table(), snapshot.raw, snapshot.route, std::move(routes));
      if (!result.ok) return Step::RetryLater(result.error);
    }
    env.follower_regions().erase(std::pair{ctx_.to_peer, ctx_.region});
    env.InvalidateTable(table());
    return Goto(State::kCloseDowngradedRegion);
  });
}

std::optional<Step> RegionMigrationProcedure::ClearLeaderState(MetasrvEnv& env,
                                                               bool only_downgrading) {
  DynamicTableLock table_lock(env, table());
  if (!table_lock.held()) return Step::Wait(kNever);
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, table());
  if (!snapshot.has_value()) return std::nullopt;
  std::vector<RegionRoute> routes = snapshot->route.region_routes;
  RegionRoute* route = FindRoute(routes, ctx_.region);
  if (route == nullptr) return std::nullopt;
  if (only_downgrading && !route->is_downgrading()) return std::nullopt;
  if (!route->SetLeaderState(LeaderState::kNone, env.Now())) return std::nullopt;
  MetaUpdateResult result =
      UpdateTableRoute(env.kv(), table(), snapshot->raw, snapshot->route, std::move(routes));
  if (!result.ok) return Step::RetryLater(result.error);
  env.InvalidateTable(table());
  return std::nullopt;
}

Step RegionMigrationProcedure::UpdateMetadataRollback(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kUpdateMetadataRollback);
  if (std::optional<Step> step = ClearLeaderState(env, /*only_downgrading=*/false)) return *step;
  state_ = State::kRegionMigrationAbort;
  return Step::Next(/*persist=*/false);
}

}  // namespace repartsim::model
