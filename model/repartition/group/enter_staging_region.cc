// G3 EnterStagingRegion (reference 5.3, 5.4): flushes the merged-away sources, then sends
// EnterStaging with UpdatePartitionExpr(target) to every target and RejectAllWrites to every
// merged-away source, in parallel. A missing region aborts; "not writable" retries.
#include "model/repartition/group/group_procedure.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::EnterStagingRegion(MetasrvEnv& env) {
  if (phase_ == 0 && ctx_.pending_deallocate.empty()) phase_ = 1;
  if (!requests_.sent()) {
    if (std::optional<Step> exceeded = CheckDeadline(env)) return *exceeded;
    if (phase_ == 0) {
      for (RegionId region : ctx_.pending_deallocate) {
        std::optional<NodeId> leader = LeaderOf(env, region);
        if (!leader.has_value()) return Step::Error("Unexpected: no leader for " + region.ToString());
        requests_.Send(env, *leader, region, FlushRegionOp{});
      }
    } else {
      for (const TargetDescriptor& target : ctx_.targets) {
        std::optional<NodeId> leader = LeaderOf(env, target.region);
        if (!leader.has_value()) return Step::Error("Unexpected: no leader for " + target.region.ToString());
        requests_.Send(env, *leader, target.region,
                       EnterStagingOp{StagingInfo::UpdatePartitionExpr(target.expr)});
      }
      for (RegionId region : ctx_.pending_deallocate) {
        std::optional<NodeId> leader = LeaderOf(env, region);
        if (!leader.has_value()) return Step::Error("Unexpected: no leader for " + region.ToString());
        requests_.Send(env, *leader, region, EnterStagingOp{StagingInfo::RejectAllWrites()});
      }
    }
    requests_.Seal(env, deadline());
    return requests_.WaitStep();
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) return requests_.FailureStep(outcome);
  if (phase_ == 0) {
    phase_ = 1;
    return Step::Next(/*persist=*/false);
  }
  phase_ = 0;
  state_ = State::kRemapManifest;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
