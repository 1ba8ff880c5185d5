// G5 ApplyStagingManifest (docs/protocol.md sections 10.4, 10.5): every non-central target applies
// its remapped manifest first (one instruction per datanode); only when all succeeded does the
// central region apply last, because its successful exit from staging clears the staging area the
// others read. Both rounds wait as long as the group had left before the first one.
#include "model/node/message.h"
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
    if (phase_ == 0) {
      if (std::optional<Step> exceeded = CheckDeadline(env)) return *exceeded;
      apply_timeout_ = deadline() - env.Now();
    }
    REPARTSIM_ASSERT(apply_timeout_.ms > 0);
    for (const TargetDescriptor& target : ctx_.targets) {
      bool is_central = target.region == central;
      if (is_central != (phase_ == 1)) continue;
      std::optional<Step> error =
          SendToLeader(env, target.region, ApplyStagingManifestOp{target.expr, central});
      if (error) return *error;
    }
    // The central round reuses the timeout computed before the first round, so it may wait
    // past the group deadline (GreptimeDB computes next_operation_timeout once per state).
    requests_.Seal(env, env.Now() + apply_timeout_);
    if (!requests_.empty()) return requests_.WaitStep();
  }
  return FinishTwoPhaseRound(env, State::kExitStaging);
}

}  // namespace repartsim::model
