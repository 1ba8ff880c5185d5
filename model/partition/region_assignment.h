// The region assignment of one repartition group (GreptimeDB's AllocateRegion build step),
// as one pure function shared by the SQL planner (the `plan` verb) and the Repartition
// procedure: target i < min(M, N) reuses source i, the remaining targets get fresh regions
// in target order (the caller's `new_region` hands out numbers that are never reused), and
// the remaining sources are deallocated. RegionMappingPanic is the panic of the Dispatch
// state building a group's region mapping from a transition map whose indices overrun the
// group's own targets (defect P1, global transition indices).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/assert.h"

namespace repartsim::model {

template <class Region>
struct GroupRegions {
  std::vector<Region> targets;      // one per target: reused sources first, then fresh ones
  std::vector<Region> allocated;    // the fresh regions, in target order
  std::vector<Region> deallocated;  // merged-away sources, in source order
};

// `new_region()` returns the next fresh region; it is called once per allocated target.
template <class Region, class NewRegion>
GroupRegions<Region> AssignGroupRegions(const std::vector<Region>& sources, size_t target_count,
                                        NewRegion new_region) {
  GroupRegions<Region> out;
  const size_t reuse = sources.size() < target_count ? sources.size() : target_count;
  for (size_t i = 0; i < reuse; ++i) out.targets.push_back(sources[i]);
  for (size_t i = reuse; i < target_count; ++i) {
    out.allocated.push_back(new_region());
    out.targets.push_back(out.allocated.back());
  }
  for (size_t i = reuse; i < sources.size(); ++i) out.deallocated.push_back(sources[i]);
  REPARTSIM_ASSERT(out.targets.size() == target_count);
  REPARTSIM_ASSERT(out.targets.size() + out.deallocated.size() ==
                   sources.size() + out.allocated.size());
  return out;
}

// The panic message for the first transition index (source order, then target order) that is
// not below `target_count`; nullopt iff every index is in range.
std::optional<std::string> RegionMappingPanic(
    const std::vector<std::vector<size_t>>& transition_map, size_t target_count);

}  // namespace repartsim::model
