// OpenCandidateRegion (open_candidate_region.rs): registers the region as an operating region
// with role Follower on to_peer (MemoryRegionKeeper; RegionOperatingRace when another procedure
// holds it), then OpenRegion(skip_wal_replay) to to_peer, waited for max(remaining / 2, region
// lease). A mailbox timeout is retryable; a spent budget (ExceededDeadline) and a candidate
// without a heartbeat stream (PusherNotFound, not retryable in meta-srv's error.rs) fail the
// migration.
#include <algorithm>

#include "model/migration/region_migration_procedure.h"
#include "model/node/message.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RegionMigrationProcedure::OpenCandidateRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kOpenCandidateRegion);
  if (!requests_.sent()) {
    auto& keeper = env.follower_regions();
    const auto key = std::pair{ctx_.to_peer, ctx_.region};
    auto it = keeper.find(key);
    if (it != keeper.end() && it->second != env.current()) {
      return Step::Error("RegionOperatingRace: region " + ctx_.region.ToString() +
                         " is being operated on datanode " + ctx_.to_peer.ToString());
    }
    keeper[key] = env.current();
    const std::optional<sim::Duration> remaining = Remaining(env);
    if (!remaining.has_value()) return Step::Error("ExceededDeadline: Open candidate region");
    if (!env.StreamConnected(ctx_.to_peer)) {
      return Step::Error("PusherNotFound: datanode " + ctx_.to_peer.ToString() +
                         " (open candidate region " + ctx_.region.ToString() + ")");
    }
    const sim::Duration timeout = std::max(sim::Ms(remaining->ms / 2), kRegionLease);
    return SendOne(env, ctx_.to_peer, OpenRegionOp{/*skip_wal_replay=*/true}, env.Now() + timeout);
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) return requests_.FailureStep(outcome);
  return Goto(State::kPreFlushRegion);
}

}  // namespace repartsim::model
