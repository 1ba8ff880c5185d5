// G5 ApplyStagingManifest (docs/protocol.md sections 10.4, 10.5): every non-central target applies
// its remapped manifest first (in parallel); only when all succeeded does the central region apply
// last, because its successful exit from staging clears the staging area the others read.
#include "model/repartition/group/group_procedure.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::ApplyStagingManifest(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kApplyStagingManifest);
  REPARTSIM_ASSERT(ctx_.prepare.has_value());
  REPARTSIM_ASSERT(ctx_.remapped);
  REPARTSIM_ASSERT(phase_ <= 1);
  const RegionId central = ctx_.prepare->central_region;
  if (!requests_.sent()) {
    if (std::optional<Step> exceeded = CheckDeadline(env)) return *exceeded;
    for (const TargetDescriptor& target : ctx_.targets) {
      bool is_central = target.region == central;
      if (is_central != (phase_ == 1)) continue;
      std::optional<Step> error =
          SendToLeader(env, target.region, ApplyStagingManifestOp{target.expr, central});
      if (error) return *error;
    }
    requests_.Seal(env, deadline());
    if (!requests_.empty()) return requests_.WaitStep();
  }
  return FinishTwoPhaseRound(env, State::kExitStaging);
}

}  // namespace repartsim::model
