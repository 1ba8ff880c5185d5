// G1 SyncRegion (docs/protocol.md section 10.4): metric engine only, seeding new regions from the
// central region. The model runs the mito engine, for which Dispatch never sets sync_region; the
// state exists so the state list matches the real one, and moves on when reached.
#include "model/repartition/group/group_procedure.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::SyncRegion(MetasrvEnv&) {
  state_ = State::kApplyStaging;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
