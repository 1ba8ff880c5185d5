#include "model/partition/region_assignment.h"

namespace repartsim::model {

std::optional<std::string> RegionMappingPanic(
    const std::vector<std::vector<size_t>>& transition_map, size_t target_count) {
  for (const std::vector<size_t>& targets : transition_map) {
    for (size_t j : targets) {
      if (j >= target_count) {
        return "index out of bounds: the len is " + std::to_string(target_count) +
               " but the index is " + std::to_string(j);
      }
    }
  }
  return std::nullopt;
}

}  // namespace repartsim::model
