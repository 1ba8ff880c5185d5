// G2 UpdateMetadata::ApplyStaging (docs/protocol.md section 10.4): the route gets the target
// expressions, every target and source goes Staging, merged-away sources get IgnoreAllWrites (and
// new targets lose it). Not persisted: a crash re-runs it, which only bumps the route version.
#include "model/protocol/rules.h"
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::ApplyStaging(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kApplyStaging);
  REPARTSIM_ASSERT(ctx_.prepare.has_value());
  DynamicTableLock table_lock(env, ctx_.table);  // update_metadata.rs: around the whole state
  REPARTSIM_ASSERT_MSG(table_lock.held(), "no dynamic holder spans steps beside a repartition");
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  std::vector<RegionRoute> routes = snapshot->route.region_routes;
  for (const TargetDescriptor& target : ctx_.targets) {
    RegionRoute* r = FindRoute(routes, target.region);
    if (r == nullptr) continue;
    r->partition_expr = target.expr;
    r->SetLeaderStaging();  // overwrites a migration's Downgrading (MIG-3)
    r->write_policy = WritePolicy::kNormal;
  }
  for (const SourceDescriptor& source : ctx_.sources) {
    RegionRoute* r = FindRoute(routes, source.region);
    if (r == nullptr) continue;
    r->SetLeaderStaging();
    // Before GreptimeDB #7694 routes had no write policy: frontends kept writing to it.
    if (IsPendingDeallocate(source.region) && env.protocol().On(Rule::kRejectMergedAwayWrites)) {
      r->write_policy = WritePolicy::kIgnoreAllWrites;
    }
  }
  REPARTSIM_ASSERT(routes.size() == snapshot->route.region_routes.size());
  MetaUpdateResult result =
      UpdateTableRoute(env.kv(), ctx_.table, snapshot->raw, snapshot->route, std::move(routes));
  if (!result.ok) return Step::RetryLater(result.error);
  env.InvalidateTable(ctx_.table);
  state_ = State::kEnterStagingRegion;
  phase_ = 0;
  return Step::Next(/*persist=*/false);
}

}  // namespace repartsim::model
