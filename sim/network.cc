#include "sim/network.h"

namespace repartsim::sim {

std::string NetworkCounters::ToString() const {
  return "sent=" + std::to_string(sent) + " delivered=" + std::to_string(delivered) +
         " dropped_fault=" + std::to_string(dropped_fault) +
         " dropped_partition=" + std::to_string(dropped_partition) +
         " dropped_down=" + std::to_string(dropped_down) +
         " duplicated=" + std::to_string(duplicated) + " delayed=" + std::to_string(delayed) +
         " resets=" + std::to_string(resets) + " dropped_reset=" + std::to_string(dropped_reset);
}

}  // namespace repartsim::sim
