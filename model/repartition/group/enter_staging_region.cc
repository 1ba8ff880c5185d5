// G3 EnterStagingRegion (docs/protocol.md sections 10.4, 10.5): flushes the merged-away sources,
// then sends EnterStaging with UpdatePartitionExpr(target) to every target and RejectAllWrites to
// every merged-away source, in parallel. A missing region aborts; "not writable" retries.
#include "model/node/message.h"
#include "model/protocol/rules.h"
#include "model/repartition/group/group_procedure.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::EnterStagingRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kEnterStagingRegion);
  REPARTSIM_ASSERT(phase_ <= 1);
  if (phase_ == 0 && ctx_.pending_deallocate.empty()) phase_ = 1;
  if (!requests_.sent()) {
    if (std::optional<Step> exceeded = CheckDeadline(env)) return *exceeded;
    std::optional<Step> error;
    if (phase_ == 0) {
      for (RegionId region : ctx_.pending_deallocate) {
        if ((error = SendToLeader(env, region, FlushRegionOp{}))) return *error;
      }
    } else {
      for (const TargetDescriptor& target : ctx_.targets) {
        error = SendToLeader(env, target.region,
                             EnterStagingOp{StagingInfo::UpdatePartitionExpr(target.expr)});
        if (error) return *error;
      }
      // Before GreptimeDB #7694 a merged-away source was not fenced: it stayed writable.
      if (env.protocol().On(Rule::kRejectMergedAwayWrites)) {
        for (RegionId region : ctx_.pending_deallocate) {
          error = SendToLeader(env, region, EnterStagingOp{StagingInfo::RejectAllWrites()});
          if (error) return *error;
        }
      }
    }
    requests_.Seal(env, deadline());
    REPARTSIM_ASSERT(requests_.sent());
    return requests_.WaitStep();
  }
  return FinishTwoPhaseRound(env, State::kRemapManifest);
}

}  // namespace repartsim::model
