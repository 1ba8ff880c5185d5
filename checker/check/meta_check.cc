#include "checker/check/meta_check.h"

#include <algorithm>
#include <map>

namespace repartsim::check {

namespace {

class Collector {
 public:
  explicit Collector(CheckAt at) : at_(at) {}
  void Add(model::RegionId region, std::string message) {
    Violation v;
    v.invariant = Invariant::kMeta;
    v.step = at_.step;
    v.time_ms = at_.time_ms;
    v.regions = {region.ToString()};
    v.message = "region " + region.ToString() + " " + message;
    out_.push_back(std::move(v));
  }
  std::vector<Violation> Take() { return std::move(out_); }

 private:
  CheckAt at_;
  std::vector<Violation> out_;
};

std::string Node(model::NodeId node) { return "node " + node.ToString(); }

void CheckRouteAgainstNodes(const RoutedRegion& route, const MetaState& state, Collector& out) {
  const std::vector<OpenRegion>& open = state.open_regions;
  if (route.staging) out.Add(route.region, "is still staging in its route");
  if (!route.leader.has_value()) {
    out.Add(route.region, "is routed without a leader");
    return;
  }
  auto it = std::find_if(open.begin(), open.end(), [&](const OpenRegion& o) {
    return o.region == route.region && o.node == *route.leader;
  });
  if (it == open.end()) {
    out.Add(route.region, "is routed to " + Node(*route.leader) + " but not open there");
    return;
  }
  if (!it->leader) {
    out.Add(route.region, "is open on its route leader " + Node(it->node) + " as a follower");
  }
  if (it->expr_version != route.expr_version) {
    out.Add(route.region, "is open on " + Node(it->node) + " with " +
                              FormatVersion(it->expr_version, state) + " but routed with " +
                              FormatVersion(route.expr_version, state));
  }
}

}  // namespace

std::string FormatVersion(uint64_t version, const MetaState& state) {
  const auto text = state.expressions.find(version);
  if (text == state.expressions.end()) return "expression version " + std::to_string(version);
  return "expression `" + text->second + "`";
}

std::vector<Violation> CheckMeta(const MetaState& state, CheckAt at) {
  Collector out(at);
  std::map<model::RegionId, uint64_t> partitions;
  for (const PartitionEntry& p : state.partitions) partitions[p.region] = p.expr_version;
  std::map<model::RegionId, const RoutedRegion*> routes;
  for (const RoutedRegion& r : state.routes) routes[r.region] = &r;

  for (const auto& [region, route] : routes) {
    auto p = partitions.find(region);
    if (p == partitions.end()) {
      out.Add(region, "is routed but has no partition metadata");
    } else if (p->second != route->expr_version) {
      out.Add(region, "has " + FormatVersion(route->expr_version, state) + " in its route but " +
                          FormatVersion(p->second, state) + " in the partition metadata");
    }
    CheckRouteAgainstNodes(*route, state, out);
  }
  for (const auto& [region, version] : partitions) {
    if (routes.count(region) == 0) out.Add(region, "has partition metadata but is not routed");
  }
  std::vector<OpenRegion> open = state.open_regions;
  std::sort(open.begin(), open.end(), [](const OpenRegion& a, const OpenRegion& b) {
    return a.region != b.region ? a.region < b.region : a.node < b.node;
  });
  for (const OpenRegion& o : open) {
    if (o.staging) out.Add(o.region, "is still staging on " + Node(o.node));
    if (routes.count(o.region) == 0) {
      out.Add(o.region, "is open on " + Node(o.node) + " but not routed (orphaned)");
    }
  }
  std::map<model::RegionId, size_t> allocated;
  for (model::RegionId region : state.allocations) ++allocated[region];
  for (const auto& [region, count] : allocated) {
    if (count > 1) {
      out.Add(region, "was allocated " + std::to_string(count) +
                          " times (region numbers must never be reused)");
    }
  }
  return out.Take();
}

}  // namespace repartsim::check
