// PreFlushRegion (flush_leader_region.rs): FlushRegions to from_peer with reason RegionMigration
// and ErrorStrategy::Ignore: whatever the answer (or none), the migration goes on to
// UpdateMetadataDowngrade.
#include "model/migration/region_migration_procedure.h"
#include "model/node/message.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RegionMigrationProcedure::PreFlushRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kPreFlushRegion);
  if (!requests_.sent()) {
    return SendOne(env, ctx_.from_peer, FlushRegionOp{}, env.Now() + env.request_timeout());
  }
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) {
    env.TraceProcedure(env.current(), "pre-flush ignored: " + requests_.message());
  }
  return Goto(State::kUpdateMetadataDowngrade);
}

}  // namespace repartsim::model
