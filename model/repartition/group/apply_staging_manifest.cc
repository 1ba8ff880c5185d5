// G5 ApplyStagingManifest (reference 5.3, 5.4): every non-central target applies its remapped
// manifest first (in parallel); only when all succeeded does the central region apply last,
// because its successful exit from staging clears the staging area the others read.
#include "model/repartition/group/group_procedure.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::ApplyStagingManifest(MetasrvEnv& env) {
  const RegionId central = ctx_.prepare->central_region;
  if (!requests_.sent()) {
    if (std::optional<Step> exceeded = CheckDeadline(env)) return *exceeded;
    for (const TargetDescriptor& target : ctx_.targets) {
      bool is_central = target.region == central;
      if (is_central != (phase_ == 1)) continue;
      std::optional<NodeId> leader = LeaderOf(env, target.region);
      if (!leader.has_value()) return Step::Error("Unexpected: no leader for " + target.region.ToString());
      requests_.Send(env, *leader, target.region, ApplyStagingManifestOp{target.expr, central});
    }
    requests_.Seal(env, deadline());
    if (!requests_.empty()) return requests_.WaitStep();
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) return requests_.FailureStep(outcome);
  if (phase_ == 0) {
    phase_ = 1;
    return Step::Next(/*persist=*/false);
  }
  phase_ = 0;
  state_ = State::kExitStaging;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
