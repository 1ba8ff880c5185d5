// G4 RemapManifest (docs/protocol.md sections 10.4, 10.5): the central region's datanode builds one
// manifest per target from the sources' persisted normal manifests (whole-file references), stored
// in the central region's staging area; the group records that the paths exist.
#include "model/node/message.h"
#include "model/repartition/group/group_procedure.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::RemapManifest(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kRemapManifest);
  REPARTSIM_ASSERT(ctx_.prepare.has_value());
  if (!requests_.sent()) {
    if (std::optional<Step> exceeded = CheckDeadline(env)) return *exceeded;
    RemapManifestOp op;
    for (const SourceDescriptor& source : ctx_.sources) op.inputs.push_back(source.region);
    op.mapping = ctx_.region_mapping;
    for (const TargetDescriptor& target : ctx_.targets)
      op.target_exprs[target.region] = target.expr;
    RegionId central = ctx_.prepare->central_region;
    if (std::optional<Step> error = SendToLeader(env, central, std::move(op))) return *error;
    requests_.Seal(env, deadline());
    return requests_.WaitStep();
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) return RoundFailed(env, outcome);
  ctx_.remapped = true;
  state_ = State::kApplyStagingManifest;
  phase_ = 0;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
