// DowngradeLeaderRegion (downgrade_leader_region.rs): sets the leader's lease deadline (now +
// region lease), sends DowngradeRegion to from_peer waited for the remaining budget, up to 3
// optimistic tries 500 ms apart for retryable failures (a mailbox timeout, a retryable reply).
// A reply stores the last entry id; a region not found goes on without one (exists = false).
// A non-retryable failure, the last failed try, or a leader without a heartbeat stream
// (PusherNotFound, at once) sleeps until the lease deadline (the old leader can no longer
// write) and goes on without a last entry id. GreptimeDB recomputes that deadline from the
// leader's last heartbeat on PusherNotFound; the model keeps now + region lease from the
// state's entry. A spent budget (ExceededDeadline) goes to UpdateMetadataRollback.
#include "model/migration/region_migration_procedure.h"
#include "model/node/message.h"
#include "model/node/reply.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RegionMigrationProcedure::DowngradeLeaderRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kDowngradeLeaderRegion);
  if (!leader_lease_deadline_.has_value()) leader_lease_deadline_ = env.Now() + kRegionLease;
  if (resume_at_.has_value()) {
    if (env.Now() < *resume_at_) return Step::Wait(*resume_at_);
    resume_at_.reset();
    if (lease_sleep_) {
      env.TraceProcedure(env.current(), "downgrade slow path: lease deadline passed");
      return Goto(State::kUpgradeCandidateRegion);
    }
  }
  if (!requests_.sent()) {
    std::optional<sim::Duration> remaining = Remaining(env);
    if (!remaining.has_value()) {
      env.TraceProcedure(env.current(), "downgrade exceeded deadline");
      return Goto(State::kUpdateMetadataRollback);
    }
    if (!env.StreamConnected(ctx_.from_peer)) return LeaseSleep(env, "PusherNotFound");
    ++tries_;
    return SendOne(env, ctx_.from_peer, DowngradeRegionOp{}, env.Now() + *remaining);
  }
  PendingRequests::Outcome outcome = requests_.Collect(env, /*not_found_ok=*/true);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome == PendingRequests::Outcome::kOk) {
    if (requests_.last_entry_id() != 0) last_entry_id_ = requests_.last_entry_id();
    return Goto(State::kUpgradeCandidateRegion);
  }
  // downgrade-waits-for-open: the leader is still opening the region; retried within the
  // budget, not counted as an optimistic try (ExceededDeadline then rolls back).
  if (outcome == PendingRequests::Outcome::kRetry &&
      env.protocol().On(Rule::kDowngradeWaitsForOpen) && IsOpeningReply(requests_.message())) {
    resume_at_ = env.Now() + kRetryInterval;
    return Step::Wait(*resume_at_);
  }
  if (outcome == PendingRequests::Outcome::kRetry && tries_ < kOptimisticTries) {
    resume_at_ = env.Now() + kRetryInterval;
    return Step::Wait(*resume_at_);
  }
  return LeaseSleep(env, requests_.message());
}

Step RegionMigrationProcedure::LeaseSleep(MetasrvEnv& env, const std::string& why) {
  REPARTSIM_ASSERT(state_ == State::kDowngradeLeaderRegion);
  REPARTSIM_ASSERT(leader_lease_deadline_.has_value());
  env.TraceProcedure(env.current(), "downgrade failed: " + why);
  lease_sleep_ = true;
  resume_at_ = *leader_lease_deadline_;
  if (env.Now() >= *resume_at_) return Goto(State::kUpgradeCandidateRegion);
  return Step::Wait(*resume_at_);
}

}  // namespace repartsim::model
