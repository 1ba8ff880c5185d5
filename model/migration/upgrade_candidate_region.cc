// UpgradeCandidateRegion (upgrade_candidate_region.rs): UpgradeRegion{last_entry_id} to to_peer,
// waited for the remaining budget, up to 3 tries 500 ms apart while the failure is retryable
// (a mailbox timeout, a not-ready or retryable reply). Upgraded -> UpdateMetadataUpgrade; a
// non-retryable failure (a region not found, a candidate without a heartbeat stream:
// PusherNotFound), the last failed try or a spent budget -> UpdateMetadataRollback.
// RemoteWalLock is not modelled (local WAL).
#include "model/migration/region_migration_procedure.h"
#include "model/node/message.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RegionMigrationProcedure::UpgradeCandidateRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kUpgradeCandidateRegion);
  if (resume_at_.has_value()) {
    if (env.Now() < *resume_at_) return Step::Wait(*resume_at_);
    resume_at_.reset();
  }
  if (!requests_.sent()) {
    std::optional<sim::Duration> remaining = Remaining(env);
    if (!remaining.has_value()) {
      env.TraceProcedure(env.current(), "upgrade exceeded deadline");
      return Goto(State::kUpdateMetadataRollback);
    }
    if (!env.StreamConnected(ctx_.to_peer)) {
      env.TraceProcedure(env.current(),
                         "upgrade failed: PusherNotFound for datanode " + ctx_.to_peer.ToString());
      return Goto(State::kUpdateMetadataRollback);
    }
    ++tries_;
    return SendOne(env, ctx_.to_peer, UpgradeRegionOp{last_entry_id_}, env.Now() + *remaining);
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome == PendingRequests::Outcome::kOk) return Goto(State::kUpdateMetadataUpgrade);
  env.TraceProcedure(env.current(), "upgrade failed: " + requests_.message());
  if (outcome == PendingRequests::Outcome::kRetry && tries_ < kOptimisticTries) {
    resume_at_ = env.Now() + kRetryInterval;
    return Step::Wait(*resume_at_);
  }
  return Goto(State::kUpdateMetadataRollback);
}

}  // namespace repartsim::model
