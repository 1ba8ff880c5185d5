#include "model/cluster/scheduled_op.h"

namespace repartsim::model {

const char* ScheduledOpName(const ScheduledOp& op) {
  if (const auto* statement = std::get_if<ClientStatement>(&op)) return StatementName(*statement);
  return FaultActionName(std::get<FaultAction>(op));
}

void HashScheduledOp(sim::Hasher& h, const ScheduledOp& op) {
  if (const auto* statement = std::get_if<ClientStatement>(&op)) {
    h.Add(static_cast<uint64_t>(statement->index()));
    HashStatement(h, *statement);
    return;
  }
  const FaultAction& action = std::get<FaultAction>(op);
  h.Add(static_cast<uint64_t>(std::variant_size_v<ClientStatement> + action.index()));
  HashFaultAction(h, action);
}

}  // namespace repartsim::model
