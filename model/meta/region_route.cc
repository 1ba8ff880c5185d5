#include "model/meta/region_route.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::model {

std::string_view LeaderStateName(LeaderState state) {
  switch (state) {
    case LeaderState::kNone:
      return "None";
    case LeaderState::kStaging:
      return "Staging";
    case LeaderState::kDowngrading:
      return "Downgrading";
  }
  REPARTSIM_UNREACHABLE();
}

std::string_view WritePolicyName(WritePolicy policy) {
  switch (policy) {
    case WritePolicy::kNormal:
      return "Normal";
    case WritePolicy::kIgnoreAllWrites:
      return "IgnoreAllWrites";
  }
  REPARTSIM_UNREACHABLE();
}

std::string_view RegionRoleName(RegionRole role) {
  switch (role) {
    case RegionRole::kLeader:
      return "Leader";
    case RegionRole::kFollower:
      return "Follower";
    case RegionRole::kDowngradingLeader:
      return "DowngradingLeader";
    case RegionRole::kStagingLeader:
      return "StagingLeader";
  }
  REPARTSIM_UNREACHABLE();
}

std::string RegionRoute::ExprText() const {
  return partition_expr ? partition_expr->CanonicalText() : std::string();
}

uint64_t RegionRoute::ExprVersionValue() const {
  return ExprVersion(partition_expr ? &*partition_expr : nullptr);
}

void RegionRoute::Hash(sim::Hasher& h) const {
  region_id.Hash(h);
  h.Add(partition_expr.has_value());
  if (partition_expr) h.Add(partition_expr->version());  // cached hash of CanonicalText
  h.Add(leader.has_value());
  if (leader) leader->Hash(h);
  h.Add(static_cast<uint64_t>(followers.size()));
  for (NodeId f : followers) f.Hash(h);
  h.Add(static_cast<uint64_t>(leader_state));
  h.Add(leader_down_since.has_value());
  if (leader_down_since) h.Add(leader_down_since->ms);
  h.Add(static_cast<uint64_t>(write_policy));
}

bool RegionRoute::SetLeaderState(LeaderState state, sim::SimTime now) {
  const bool updated = leader_state != state;
  if (state == LeaderState::kDowngrading) {
    if (updated) leader_down_since = now;
  } else {
    leader_down_since.reset();
  }
  leader_state = state;
  REPARTSIM_ASSERT(is_downgrading() || !leader_down_since.has_value());
  return updated;
}

void RegionRoute::SetLeaderStaging() {
  leader_state = LeaderState::kStaging;
  leader_down_since.reset();
  REPARTSIM_ASSERT(is_staging());
}

void RegionRoute::ClearLeaderStaging() {
  if (leader_state != LeaderState::kStaging) return;
  leader_state = LeaderState::kNone;
  leader_down_since.reset();
  REPARTSIM_ASSERT(!leader_down_since.has_value());
}

RegionRole LeaderRegionRole(const RegionRoute& route) {
  switch (route.leader_state) {
    case LeaderState::kStaging:
      return RegionRole::kStagingLeader;
    case LeaderState::kDowngrading:
      return RegionRole::kDowngradingLeader;
    case LeaderState::kNone:
      return RegionRole::kLeader;
  }
  REPARTSIM_UNREACHABLE();
}

std::optional<RegionRole> RegionRoleOf(const RegionRoute& route, NodeId node) {
  if (route.leader && *route.leader == node) return LeaderRegionRole(route);
  for (NodeId f : route.followers) {
    if (f == node) return RegionRole::kFollower;
  }
  return std::nullopt;
}

namespace {

RegionNumber LargestNumber(const std::vector<RegionRoute>& routes) {
  RegionNumber largest{0};
  for (const RegionRoute& r : routes) largest = std::max(largest, r.region_id.region_number());
  return largest;
}

}  // namespace

TableRoute TableRoute::New(std::vector<RegionRoute> routes) {
  TableRoute route;
  route.max_region_number = LargestNumber(routes);
  route.region_routes = std::move(routes);
  route.version = 0;
  return route;
}

TableRoute TableRoute::Updated(std::vector<RegionRoute> routes) const {
  TableRoute next;
  next.max_region_number = std::max(max_region_number, LargestNumber(routes));
  next.region_routes = std::move(routes);
  next.version = version + 1;
  REPARTSIM_ASSERT(next.max_region_number >= max_region_number);
  REPARTSIM_ASSERT(next.version > version);
  return next;
}

const RegionRoute* TableRoute::Find(RegionId region) const {
  for (const RegionRoute& r : region_routes) {
    if (r.region_id == region) return &r;
  }
  return nullptr;
}

RegionRoute* TableRoute::FindMutable(RegionId region) {
  for (RegionRoute& r : region_routes) {
    if (r.region_id == region) return &r;
  }
  return nullptr;
}

void TableRoute::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(region_routes.size()));
  for (const RegionRoute& r : region_routes) r.Hash(h);
  max_region_number.Hash(h);
  h.Add(version);
}

}  // namespace repartsim::model
