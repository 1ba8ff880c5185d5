// Message-rule steps (drop, delay, duplicate, hold, reorder of one message kind): the rule
// read from YAML, with a rule whose from/to can never send or receive that kind rejected.
#include "checker/scenario/loader_internal.h"
#include "model/node/message.h"

namespace repartsim::scenario {

namespace {

enum class Role : uint8_t { kMetasrv, kDatanode, kFrontend };

const char* RoleName(Role role) {
  switch (role) {
    case Role::kMetasrv:
      return "the metasrv";
    case Role::kDatanode:
      return "a datanode";
    case Role::kFrontend:
      return "a frontend";
  }
  return "";
}

Role RoleOf(model::NodeId node, const Scenario& s) {
  if (node.value == 0) return Role::kMetasrv;
  return node.value <= s.datanode_count ? Role::kDatanode : Role::kFrontend;
}

// Who sends and who receives each message kind (model/node/message.h).
std::pair<Role, Role> Endpoints(const std::string& kind) {
  if (kind == "RouteRequest" || kind == "InvalidateAck") return {Role::kFrontend, Role::kMetasrv};
  if (kind == "RouteReply" || kind == "InvalidateCache") return {Role::kMetasrv, Role::kFrontend};
  if (kind == "WriteRequest" || kind == "ScanRequest") return {Role::kFrontend, Role::kDatanode};
  if (kind == "WriteReply" || kind == "ScanResponse") return {Role::kDatanode, Role::kFrontend};
  if (kind == "Heartbeat" || kind == "RegionResponse") return {Role::kDatanode, Role::kMetasrv};
  return {Role::kMetasrv, Role::kDatanode};  // HeartbeatReply, RegionRequest and its ops
}

// A rule on `kind` from/to `node` that can never match is a scenario bug: say so.
void CheckEndpoint(const std::string& kind, const std::optional<model::NodeId>& node, bool is_from,
                   const YAML::Node& at, LoadContext& ctx, const Scenario& s,
                   const std::string& path) {
  if (!node || ctx.failed()) return;
  const auto [sender, receiver] = Endpoints(kind);
  const Role expected = is_from ? sender : receiver;
  if (RoleOf(*node, s) == expected) return;
  ctx.Fail(at, path,
           kind + " goes from " + RoleName(sender) + " to " + RoleName(receiver) + ", so '" +
               (is_from ? "from: " : "to: ") + at.Scalar() + "' never matches");
}

}  // namespace

// drop|delay|duplicate|hold|reorder: {kind: K, from: N, to: N, count: C|all, ms: D, until: S}
model::MessageRule ReadMessageRule(const std::string& action, const YAML::Node& node,
                                   LoadContext& ctx, const Scenario& s, const std::string& path) {
  model::MessageRule rule;
  if (action == "drop") rule.action = model::MessageAction::kDrop;
  if (action == "delay") rule.action = model::MessageAction::kDelay;
  if (action == "duplicate") rule.action = model::MessageAction::kDuplicate;
  if (action == "hold") rule.action = model::MessageAction::kHold;
  if (action == "reorder") rule.action = model::MessageAction::kReorder;
  Fields f(node, ctx, path);
  if (ctx.failed()) return rule;
  const YAML::Node kind = f.Require("kind");
  rule.kind = ReadString(kind, ctx, path + ".kind");
  if (!ctx.failed() && !model::IsMessageKindName(rule.kind)) {
    ctx.Fail(kind, path + ".kind",
             "unknown message kind '" + rule.kind + "'; kinds are " + model::MessageKindList());
  }
  if (f.Has("from")) {
    const YAML::Node from = f.Get("from");
    rule.from = ReadNode(from, ctx, s, path + ".from");
    CheckEndpoint(rule.kind, rule.from, /*is_from=*/true, from, ctx, s, path + ".from");
  }
  if (f.Has("to")) {
    const YAML::Node to = f.Get("to");
    rule.to = ReadNode(to, ctx, s, path + ".to");
    CheckEndpoint(rule.kind, rule.to, /*is_from=*/false, to, ctx, s, path + ".to");
  }
  if (f.Has("count")) {
    const YAML::Node count = f.Get("count");
    if (count.IsScalar() && count.Scalar() == "all") {
      rule.count = 0;
    } else if (count.IsScalar() && count.Scalar() == "0") {
      ctx.Fail(count, path + ".count",
               "count 0 matches nothing; give a count of at least 1, or 'all' for every match");
    } else {
      rule.count = static_cast<uint32_t>(ReadInt(count, ctx, path + ".count", 1, 1000000));
    }
  }
  if (rule.action == model::MessageAction::kDelay) {
    rule.delay = sim::Ms(ReadInt(f.Require("ms"), ctx, path + ".ms", 1, 3600000));
  }
  if (rule.action == model::MessageAction::kDuplicate && f.Has("ms")) {
    rule.delay = sim::Ms(ReadInt(f.Get("ms"), ctx, path + ".ms", 1, 3600000));
  }
  if (rule.action == model::MessageAction::kHold) {
    rule.until_state = ReadProcedureState(f.Require("until"), ctx, path + ".until");
    if (f.Has("ms")) rule.delay = sim::Ms(ReadInt(f.Get("ms"), ctx, path + ".ms", 1, 3600000));
  }
  if (rule.action == model::MessageAction::kReorder && !ctx.failed() &&
      model::IsStreamKind(rule.kind)) {
    ctx.Fail(kind, path + ".kind",
             rule.kind +
                 " travels on a heartbeat stream, which is ordered: two of its messages "
                 "never arrive swapped (delay or hold the stream instead)");
  }
  std::vector<std::string> allowed = {"kind", "from", "to", "count"};
  if (rule.action == model::MessageAction::kDelay) allowed.push_back("ms");
  if (rule.action == model::MessageAction::kDuplicate) allowed.push_back("ms");
  if (rule.action == model::MessageAction::kHold) {
    allowed.push_back("until");
    allowed.push_back("ms");
  }
  f.Finish(allowed);
  return rule;
}

}  // namespace repartsim::scenario
