#include "model/meta/meta_codec.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "model/meta/codec_memo.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/json_text.h"

namespace repartsim::model {
namespace {

using Json = nlohmann::json;

sim::Error DecodeError(std::string message) {
  return sim::MakeError(sim::SourceLocation{"<kv>", 0, 0}, std::move(message));
}

std::optional<Json> ParseJson(std::string_view bytes) {
  Json j = Json::parse(bytes.begin(), bytes.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

// ---- PartitionExpr from canonical text --------------------------------------------------

std::optional<CompareOp> OpFromName(std::string_view name) {
  for (CompareOp op : {CompareOp::kEq, CompareOp::kNotEq, CompareOp::kLt, CompareOp::kLtEq,
                       CompareOp::kGt, CompareOp::kGtEq}) {
    if (CompareOpName(op) == name) return op;
  }
  return std::nullopt;
}

std::optional<Value> ValueFromJson(const Json& j) {
  if (j.is_string() && j.get<std::string>() == "Null") return Value::Null();
  if (!j.is_object() || j.size() != 1) return std::nullopt;
  const std::string& tag = j.begin().key();
  const Json& v = j.begin().value();
  if (tag == ValueTypeName(ValueType::kBool) && v.is_boolean()) return Value::Bool(v.get<bool>());
  if (tag == ValueTypeName(ValueType::kInt64) && v.is_number_integer()) {
    return Value::Int(v.get<int64_t>());
  }
  if (tag == ValueTypeName(ValueType::kUInt64) && v.is_number_integer()) {
    return Value::UInt(v.get<uint64_t>());
  }
  if (tag == ValueTypeName(ValueType::kTimestamp) && v.is_number_integer()) {
    return Value::Timestamp(v.get<int64_t>());
  }
  if (tag == ValueTypeName(ValueType::kString) && v.is_string()) {
    return Value::String(v.get<std::string>());
  }
  if (tag == ValueTypeName(ValueType::kDouble) && v.is_string()) {
    const std::string text = v.get<std::string>();
    char* end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return std::nullopt;
    return Value::Double(d);
  }
  return std::nullopt;
}

std::optional<PartitionExpr> ExprFromJson(const Json& j, int depth) {
  // {"Expr": {"lhs": ..., "op": ..., "rhs": ...}}
  if (depth > 64 || !j.is_object() || !j.contains("Expr")) return std::nullopt;
  const Json& e = j["Expr"];
  if (!e.is_object() || !e.contains("lhs") || !e.contains("op") || !e.contains("rhs")) {
    return std::nullopt;
  }
  if (!e["op"].is_string()) return std::nullopt;
  const std::string op = e["op"].get<std::string>();
  const Json& lhs = e["lhs"];
  const Json& rhs = e["rhs"];
  if (op == "And" || op == "Or") {
    std::optional<PartitionExpr> l = ExprFromJson(lhs, depth + 1);
    std::optional<PartitionExpr> r = ExprFromJson(rhs, depth + 1);
    if (!l || !r) return std::nullopt;
    return op == "And" ? PartitionExpr::And(std::move(*l), std::move(*r))
                       : PartitionExpr::Or(std::move(*l), std::move(*r));
  }
  std::optional<CompareOp> cmp = OpFromName(op);
  if (!cmp || !lhs.is_object() || !lhs.contains("Column") || !lhs["Column"].is_string()) {
    return std::nullopt;
  }
  if (!rhs.is_object() || !rhs.contains("Value")) return std::nullopt;
  std::optional<Value> value = ValueFromJson(rhs["Value"]);
  if (!value) return std::nullopt;
  return PartitionExpr::Leaf(lhs["Column"].get<std::string>(), *cmp, std::move(*value));
}

// ---- RegionRoute / TableRoute -----------------------------------------------------------

Json RouteToJson(const RegionRoute& r) {
  Json j;
  j["region_id"] = r.region_id.value;
  j["partition_expr"] = r.ExprText();
  j["leader_peer"] = r.leader ? Json(r.leader->value) : Json(nullptr);
  Json followers = Json::array();
  for (NodeId f : r.followers) followers.push_back(f.value);
  j["follower_peers"] = std::move(followers);
  j["leader_state"] = std::string(LeaderStateName(r.leader_state));
  j["leader_down_since"] = r.leader_down_since ? Json(r.leader_down_since->ms) : Json(nullptr);
  j["write_route_policy"] = std::string(WritePolicyName(r.write_policy));
  return j;
}

template <class E, size_t N>
std::optional<E> EnumFromName(std::string_view name, const E (&values)[N],
                              std::string_view (*namer)(E)) {
  for (E v : values) {
    if (namer(v) == name) return v;
  }
  return std::nullopt;
}

std::optional<RegionRoute> RouteFromJson(const Json& j) {
  static constexpr LeaderState kStates[] = {LeaderState::kNone, LeaderState::kStaging,
                                            LeaderState::kDowngrading};
  static constexpr WritePolicy kPolicies[] = {WritePolicy::kNormal, WritePolicy::kIgnoreAllWrites};
  if (!j.is_object()) return std::nullopt;
  for (const char* key : {"region_id", "partition_expr", "leader_peer", "follower_peers",
                          "leader_state", "leader_down_since", "write_route_policy"}) {
    if (!j.contains(key)) return std::nullopt;
  }
  RegionRoute r;
  if (!j["region_id"].is_number_unsigned()) return std::nullopt;
  r.region_id = RegionId{j["region_id"].get<uint64_t>()};
  if (!j["partition_expr"].is_string()) return std::nullopt;
  const std::string text = j["partition_expr"].get<std::string>();
  if (!text.empty()) {
    std::optional<Json> parsed = ParseJson(text);
    if (!parsed) return std::nullopt;
    std::optional<PartitionExpr> expr = ExprFromJson(*parsed, 0);
    if (!expr) return std::nullopt;
    r.partition_expr = std::move(*expr);
  }
  if (j["leader_peer"].is_number_unsigned()) {
    r.leader = NodeId{j["leader_peer"].get<uint32_t>()};
  } else if (!j["leader_peer"].is_null()) {
    return std::nullopt;
  }
  if (!j["follower_peers"].is_array()) return std::nullopt;
  for (const Json& f : j["follower_peers"]) {
    if (!f.is_number_unsigned()) return std::nullopt;
    r.followers.push_back(NodeId{f.get<uint32_t>()});
  }
  if (!j["leader_state"].is_string() || !j["write_route_policy"].is_string()) return std::nullopt;
  std::optional<LeaderState> state =
      EnumFromName(j["leader_state"].get<std::string>(), kStates, &LeaderStateName);
  std::optional<WritePolicy> policy =
      EnumFromName(j["write_route_policy"].get<std::string>(), kPolicies, &WritePolicyName);
  if (!state || !policy) return std::nullopt;
  r.leader_state = *state;
  r.write_policy = *policy;
  if (j["leader_down_since"].is_number_integer()) {
    r.leader_down_since = sim::SimTime{j["leader_down_since"].get<int64_t>()};
  } else if (!j["leader_down_since"].is_null()) {
    return std::nullopt;
  }
  return r;
}

}  // namespace

sim::Result<PartitionExpr> DecodePartitionExpr(std::string_view canonical_text) {
  std::optional<Json> j = ParseJson(canonical_text);
  if (!j) return DecodeError("partition expression is not JSON: " + std::string(canonical_text));
  std::optional<PartitionExpr> expr = ExprFromJson(*j, 0);
  if (!expr) return DecodeError("malformed partition expression: " + std::string(canonical_text));
  return std::move(*expr);
}

namespace {

std::string EncodeTableRouteJson(const TableRoute& route) {
  Json j;
  Json routes = Json::array();
  for (const RegionRoute& r : route.region_routes) routes.push_back(RouteToJson(r));
  j["region_routes"] = std::move(routes);
  j["max_region_number"] = route.max_region_number.value;
  j["version"] = route.version;
  return sim::JsonText(Json{{"Physical", std::move(j)}});
}

}  // namespace

std::string EncodeTableRoute(const TableRoute& route) {
  return MemoizedEncode<TableRoute>(route, &EncodeTableRouteJson);
}

namespace {

sim::Result<TableRoute> DecodeTableRouteJson(std::string_view bytes) {
  std::optional<Json> parsed = ParseJson(bytes);
  if (!parsed || !parsed->is_object() || !parsed->contains("Physical")) {
    return DecodeError("malformed table route: " + std::string(bytes));
  }
  const Json& j = (*parsed)["Physical"];
  if (!j.is_object() || !j.contains("region_routes") || !j["region_routes"].is_array() ||
      !j.contains("max_region_number") || !j["max_region_number"].is_number_unsigned() ||
      !j.contains("version") || !j["version"].is_number_unsigned()) {
    return DecodeError("malformed table route: " + std::string(bytes));
  }
  TableRoute route;
  for (const Json& r : j["region_routes"]) {
    std::optional<RegionRoute> decoded = RouteFromJson(r);
    if (!decoded) return DecodeError("malformed region route: " + sim::JsonText(r));
    route.region_routes.push_back(std::move(*decoded));
  }
  route.max_region_number = RegionNumber{j["max_region_number"].get<uint32_t>()};
  route.version = j["version"].get<uint64_t>();
  return route;
}

}  // namespace

sim::Result<TableRoute> DecodeTableRoute(std::string_view bytes) {
  return MemoizedDecode<TableRoute>(bytes, &DecodeTableRouteJson);
}

std::string EncodeTableRepart(const TableRepart& repart) {
  Json map = Json::array();
  for (const auto& [src, dsts] : repart.src_to_dst) {
    Json d = Json::array();
    for (RegionId dst : dsts) d.push_back(dst.value);
    map.push_back(Json::array({src.value, std::move(d)}));
  }
  return sim::JsonText(Json{{"src_to_dst", std::move(map)}});
}

sim::Result<TableRepart> DecodeTableRepart(std::string_view bytes) {
  std::optional<Json> parsed = ParseJson(bytes);
  if (!parsed || !parsed->is_object() || !parsed->contains("src_to_dst") ||
      !(*parsed)["src_to_dst"].is_array()) {
    return DecodeError("malformed table repart: " + std::string(bytes));
  }
  TableRepart repart;
  for (const Json& entry : (*parsed)["src_to_dst"]) {
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_number_unsigned() ||
        !entry[1].is_array()) {
      return DecodeError("malformed table repart entry: " + sim::JsonText(entry));
    }
    std::set<RegionId>& dsts = repart.src_to_dst[RegionId{entry[0].get<uint64_t>()}];
    for (const Json& d : entry[1]) {
      if (!d.is_number_unsigned())
        return DecodeError("malformed table repart entry: " + sim::JsonText(entry));
      dsts.insert(RegionId{d.get<uint64_t>()});
    }
  }
  return repart;
}

}  // namespace repartsim::model
