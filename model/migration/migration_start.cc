// RegionMigrationStart (migration_start.rs): reads the route; a region already led by to_peer
// ends the migration, a leader other than from_peer aborts it, a missing route is Unexpected
// (non-retryable). Persists its successor, OpenCandidateRegion: the only persisted transition.
// Rule::kMigrationRespectsStaging: a region whose route is Staging fails the migration;
// Rule::kLockNewTargets: so does one that a repartition of its table registered as operating
// (a target it allocated). Neither waits: the migration holds Region-W on the region for its life,
// and a repartition that re-dispatches a group over that region would wait for the lock while the
// migration waited for the repartition.
#include "model/migration/region_migration_procedure.h"
#include "model/protocol/rules.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RegionMigrationProcedure::MigrationStart(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kRegionMigrationStart);
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, table());
  if (!snapshot.has_value()) {
    return Step::Error("Unexpected: TableRoute(" + table().ToString() + ") is not found");
  }
  const RegionRoute* route = snapshot->route.Find(ctx_.region);
  if (route == nullptr) {
    return Step::Error("Unexpected: RegionRoute(" + ctx_.region.ToString() +
                       ") is not found in TableRoute(" + table().ToString() + ")");
  }
  if (!route->leader.has_value()) {
    return Step::Error("Unexpected: Region route leader peer is not found in region(" +
                       ctx_.region.ToString() + ")");
  }
  if (*route->leader == ctx_.to_peer) {
    env.TraceProcedure(env.current(), "region already migrated to " + ctx_.to_peer.ToString());
    state_ = State::kRegionMigrationEnd;
    return Step::Done();
  }
  if (*route->leader != ctx_.from_peer) {
    state_ = State::kRegionMigrationAbort;
    return Step::Error("Region's leader peer changed: Region's leader peer(" +
                       route->leader->ToString() + ") is not the `from_peer`(" +
                       ctx_.from_peer.ToString() + "), region: " + ctx_.region.ToString());
  }
  if (env.protocol().On(Rule::kMigrationRespectsStaging) && route->is_staging()) {
    return Step::Error("Region " + ctx_.region.ToString() +
                       " is staging: the table is being repartitioned");
  }
  if (env.protocol().On(Rule::kLockNewTargets)) {
    auto operating = env.operating_regions().find(ctx_.region);
    if (operating != env.operating_regions().end() && operating->second != env.current()) {
      return Step::Error("Region " + ctx_.region.ToString() + " is operated by procedure " +
                         std::to_string(operating->second.value) +
                         ": the table is being repartitioned");
    }
  }
  state_ = State::kOpenCandidateRegion;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
