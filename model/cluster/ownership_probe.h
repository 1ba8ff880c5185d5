// OwnershipProbe: INV-OWN at acceptance (docs/invariants.md). The cluster hands it to each
// datanode's OnMessage; for every region write the datanode acknowledges it records in History
// the rows that the expression the region is entitled to (its staging expression while it
// stages one, else its committed expression) does not cover by the filter path's semantics, and
// logs `dn.accepted_outside`. The checker turns each record into an INV-OWN violation. It only
// watches: the datanode is unchanged.
#pragma once

#include "model/datanode/datanode.h"
#include "model/datanode/region.h"
#include "model/node/history.h"
#include "model/node/message.h"
#include "model/node/node_context.h"

namespace repartsim::model {

class OwnershipProbe final : public AcceptedWriteObserver {
 public:
  // Records into `history`, which must outlive the probe.
  explicit OwnershipProbe(History& history) : history_(history) {}

  // Appends one OwnershipBreach (step, time, node, region, expressions, the rows outside)
  // when some row of `write` is outside `region`'s expressions; nothing otherwise.
  // REQUIRES: region.id() == write.region.
  void OnAccepted(const Region& region, const RegionWrite& write, uint64_t write_id,
                  NodeContext& ctx) override;

 private:
  History& history_;
};

}  // namespace repartsim::model
