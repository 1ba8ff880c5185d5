// G0 RepartitionStart (docs/protocol.md section 10.4): checks every source route still carries the
// expression the plan expects, that targets exist with leaders, and persists the prepare result. A
// re-dispatched group after a metasrv restart finds sources whose route already holds the
// TARGET expression (ApplyStaging ran before the crash): PartitionExprMismatch in the real
// system (P2); Rule::kIdempotentRedispatch accepts it and resumes.
#include "model/protocol/rules.h"
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::RepartitionStart(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kRepartitionStart);
  REPARTSIM_ASSERT(!ctx_.sources.empty());
  if (ctx_.prepare.has_value()) {
    state_ = State::kApplyStaging;
    return Step::Next(/*persist=*/false);
  }
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  const TableRoute& route = snapshot->route;
  PrepareResult prepare;
  for (size_t i = 0; i < ctx_.sources.size(); ++i) {
    const SourceDescriptor& source = ctx_.sources[i];
    const RegionRoute* r = route.Find(source.region);
    if (r == nullptr) {
      return Step::Error("RepartitionSourceRegionMissing: region " + source.region.ToString());
    }
    const std::string expected = source.expr.has_value() ? source.expr->CanonicalText() : "";
    if (r->ExprText() != expected) {
      bool already_applied =
          i < ctx_.targets.size() && r->ExprText() == ctx_.targets[i].expr.CanonicalText();
      if (!(already_applied && env.protocol().On(Rule::kIdempotentRedispatch))) {
        return Step::Error("PartitionExprMismatch: region " + source.region.ToString() +
                           " expects '" + expected + "' but the route has '" + r->ExprText() + "'");
      }
    }
    prepare.source_routes.push_back(*r);
  }
  for (const TargetDescriptor& target : ctx_.targets) {
    const RegionRoute* r = route.Find(target.region);
    if (r == nullptr) {
      return Step::Error("RepartitionTargetRegionMissing: region " + target.region.ToString());
    }
    if (!r->leader.has_value()) {
      return Step::Error("Unexpected: target region " + target.region.ToString() +
                         " has no leader");
    }
    prepare.target_routes.push_back(*r);
  }
  prepare.central_region = ctx_.sources.at(0).region;
  const RegionRoute* central = route.Find(prepare.central_region);
  if (!central->leader.has_value()) {
    return Step::Error("Unexpected: central region " + prepare.central_region.ToString() +
                       " has no leader");
  }
  prepare.central_datanode = *central->leader;
  REPARTSIM_ASSERT(prepare.source_routes.size() == ctx_.sources.size());
  REPARTSIM_ASSERT(prepare.target_routes.size() == ctx_.targets.size());
  ctx_.prepare = std::move(prepare);
  state_ = ctx_.sync_region && !ctx_.allocated.empty() ? State::kSyncRegion : State::kApplyStaging;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
