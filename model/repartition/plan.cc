#include "model/repartition/plan.h"

#include <nlohmann/json.hpp>

#include "model/meta/meta_codec.h"

namespace repartsim::model {

namespace {

sim::Error Corrupt(const std::string& what) {
  return sim::MakeError({}, "corrupt repartition record: " + what);
}

nlohmann::json RegionIds(const std::vector<RegionId>& ids) {
  nlohmann::json out = nlohmann::json::array();
  for (RegionId id : ids) out.push_back(id.value);
  return out;
}

std::vector<RegionId> RegionIdsFrom(const nlohmann::json& j) {
  std::vector<RegionId> out;
  for (const auto& v : j) out.push_back(RegionId{v.get<uint64_t>()});
  return out;
}

}  // namespace

nlohmann::json ExprToJson(const std::optional<PartitionExpr>& expr) {
  return expr.has_value() ? nlohmann::json(expr->CanonicalText()) : nlohmann::json(nullptr);
}

sim::Result<std::optional<PartitionExpr>> ExprFromJson(const nlohmann::json& j) {
  if (j.is_null()) return std::optional<PartitionExpr>();
  if (!j.is_string()) return Corrupt("expression is not a string");
  sim::Result<PartitionExpr> expr = DecodePartitionExpr(j.get<std::string>());
  if (!expr.ok()) return expr.error();
  return std::optional<PartitionExpr>(std::move(expr).value());
}

nlohmann::json RoutesToJson(const std::vector<RegionRoute>& routes) {
  return nlohmann::json(EncodeTableRoute(TableRoute::New(routes)));
}

sim::Result<std::vector<RegionRoute>> RoutesFromJson(const nlohmann::json& j) {
  if (!j.is_string()) return Corrupt("routes are not a string");
  sim::Result<TableRoute> route = DecodeTableRoute(j.get<std::string>());
  if (!route.ok()) return route.error();
  return route.value().region_routes;
}

nlohmann::json PlanToJson(const PlanEntry& plan) {
  nlohmann::json j;
  j["group_id"] = plan.group_id;
  nlohmann::json sources = nlohmann::json::array();
  for (const SourceDescriptor& s : plan.sources) {
    sources.push_back({{"region", s.region.value}, {"expr", ExprToJson(s.expr)}});
  }
  j["sources"] = sources;
  nlohmann::json exprs = nlohmann::json::array();
  for (const PartitionExpr& e : plan.target_exprs) exprs.push_back(e.CanonicalText());
  j["target_exprs"] = exprs;
  j["transition_map"] = plan.transition_map;
  nlohmann::json targets = nlohmann::json::array();
  for (const TargetDescriptor& t : plan.targets) {
    targets.push_back({{"region", t.region.value}, {"expr", t.expr.CanonicalText()}});
  }
  j["targets"] = targets;
  j["allocated"] = RegionIds(plan.allocated);
  j["pending_deallocate"] = RegionIds(plan.pending_deallocate);
  j["original_target_routes"] = RoutesToJson(plan.original_target_routes);
  j["built"] = plan.built;
  return j;
}

sim::Result<PlanEntry> PlanFromJson(const nlohmann::json& j) {
  for (const char* key : {"group_id", "sources", "target_exprs", "transition_map", "targets",
                          "allocated", "pending_deallocate", "original_target_routes", "built"}) {
    if (!j.contains(key)) return Corrupt(std::string("plan lacks ") + key);
  }
  PlanEntry plan;
  plan.group_id = j["group_id"].get<uint64_t>();
  for (const auto& s : j["sources"]) {
    sim::Result<std::optional<PartitionExpr>> expr = ExprFromJson(s["expr"]);
    if (!expr.ok()) return expr.error();
    plan.sources.push_back(SourceDescriptor{RegionId{s["region"].get<uint64_t>()}, expr.value()});
  }
  for (const auto& e : j["target_exprs"]) {
    sim::Result<PartitionExpr> expr = DecodePartitionExpr(e.get<std::string>());
    if (!expr.ok()) return expr.error();
    plan.target_exprs.push_back(std::move(expr).value());
  }
  plan.transition_map = j["transition_map"].get<std::vector<std::vector<size_t>>>();
  for (const auto& t : j["targets"]) {
    sim::Result<PartitionExpr> expr = DecodePartitionExpr(t["expr"].get<std::string>());
    if (!expr.ok()) return expr.error();
    plan.targets.push_back(
        TargetDescriptor{RegionId{t["region"].get<uint64_t>()}, std::move(expr).value()});
  }
  plan.allocated = RegionIdsFrom(j["allocated"]);
  plan.pending_deallocate = RegionIdsFrom(j["pending_deallocate"]);
  sim::Result<std::vector<RegionRoute>> routes = RoutesFromJson(j["original_target_routes"]);
  if (!routes.ok()) return routes.error();
  plan.original_target_routes = std::move(routes).value();
  plan.built = j["built"].get<bool>();
  return plan;
}

void HashPlan(sim::Hasher& h, const PlanEntry& plan) {
  h.Add(plan.group_id).Add(plan.built);
  for (const SourceDescriptor& s : plan.sources) {
    h.Add(s.region.value).Add(ExprVersion(s.expr ? &*s.expr : nullptr));
  }
  for (const PartitionExpr& e : plan.target_exprs) h.Add(ExprVersion(&e));
  for (const auto& targets : plan.transition_map) {
    h.Add(static_cast<uint64_t>(targets.size()));
    for (size_t t : targets) h.Add(static_cast<uint64_t>(t));
  }
  for (const TargetDescriptor& t : plan.targets) h.Add(t.region.value).Add(ExprVersion(&t.expr));
  for (RegionId r : plan.allocated) h.Add(r.value);
  for (RegionId r : plan.pending_deallocate) h.Add(r.value);
  for (const RegionRoute& r : plan.original_target_routes) r.Hash(h);
}

}  // namespace repartsim::model
