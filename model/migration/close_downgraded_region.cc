// CloseDowngradedRegion (close_downgraded_region.rs): CloseRegions to from_peer; errors are only
// logged; the migration ends (RegionMigrationEnd).
#include "model/migration/region_migration_procedure.h"
#include "model/node/message.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RegionMigrationProcedure::CloseDowngradedRegion(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kCloseDowngradedRegion);
  if (!requests_.sent()) {
    return SendOne(env, ctx_.from_peer, CloseRegionOp{}, env.Now() + env.request_timeout());
  }
  PendingRequests::Outcome outcome = requests_.Collect(env, /*not_found_ok=*/true);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) {
    env.TraceProcedure(env.current(), "close ignored: " + requests_.message());
  }
  state_ = State::kRegionMigrationEnd;
  return Step::Done();
}

}  // namespace repartsim::model
