#include "model/repartition/group/group_procedure.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/ddl/lock_keys.h"
#include "model/node/message.h"
#include "model/node/refusal.h"
#include "model/protocol/rules.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"
#include "sim/json_text.h"
#include "sim/text_memo.h"

namespace repartsim::model {

namespace {

sim::Error Corrupt(const char* what) {
  return sim::MakeError({}, std::string("corrupt RepartitionGroup record: ") + what);
}

nlohmann::json Ids(const std::vector<RegionId>& ids) {
  nlohmann::json out = nlohmann::json::array();
  for (RegionId id : ids) out.push_back(id.value);
  return out;
}

std::vector<RegionId> IdsFrom(const nlohmann::json& j) {
  std::vector<RegionId> out;
  for (const auto& v : j) out.push_back(RegionId{v.get<uint64_t>()});
  return out;
}

}  // namespace

std::string RepartitionGroupProcedure::state_name() const {
  return std::string(kStateNames[static_cast<size_t>(state_)]);
}

std::string RepartitionGroupProcedure::Dump() const {
  thread_local sim::TextMemo<std::pair<State, PersistentContext>> memo;
  const uint64_t key = sim::Hasher()
                           .Add(static_cast<uint64_t>(state_))
                           .Add(ctx_.group_id)
                           .Add(ctx_.parent)
                           .Add(static_cast<uint64_t>(ctx_.plan_index))
                           .Add(ctx_.created_at_ms)
                           .Add(ctx_.remapped)
                           .Add(ctx_.prepare.has_value())
                           .Add(static_cast<uint64_t>(ctx_.allocated.size()))
                           .Add(static_cast<uint64_t>(ctx_.pending_deallocate.size()))
                           .Finish();
  return memo.Get(key, std::pair{state_, ctx_}, [&] { return DumpJson(); });
}

std::string RepartitionGroupProcedure::DumpJson() const {
  nlohmann::json j;
  j["state"] = static_cast<int>(state_);
  j["group_id"] = ctx_.group_id;
  j["parent"] = ctx_.parent;
  j["plan_index"] = ctx_.plan_index;
  j["table"] = ctx_.table.value;
  PlanEntry carrier;  // reuse the plan codec for sources and targets
  carrier.sources = ctx_.sources;
  carrier.targets = ctx_.targets;
  j["descriptors"] = PlanToJson(carrier);
  nlohmann::json mapping = nlohmann::json::array();
  for (const auto& [src, dsts] : ctx_.region_mapping) {
    mapping.push_back({{"src", src.value}, {"dst", Ids(dsts)}});
  }
  j["region_mapping"] = mapping;
  j["sync_region"] = ctx_.sync_region;
  j["allocated"] = Ids(ctx_.allocated);
  j["pending_deallocate"] = Ids(ctx_.pending_deallocate);
  j["timeout_ms"] = ctx_.timeout_ms;
  j["created_at_ms"] = ctx_.created_at_ms;
  if (ctx_.prepare.has_value()) {
    j["prepare"] = {{"source_routes", RoutesToJson(ctx_.prepare->source_routes)},
                    {"target_routes", RoutesToJson(ctx_.prepare->target_routes)},
                    {"central_region", ctx_.prepare->central_region.value},
                    {"central_datanode", ctx_.prepare->central_datanode.value}};
  } else {
    j["prepare"] = nullptr;
  }
  j["remapped"] = ctx_.remapped;
  return sim::JsonText(j);
}

sim::Result<RepartitionGroupProcedure> RepartitionGroupProcedure::Load(std::string_view dump) {
  nlohmann::json j = nlohmann::json::parse(dump, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Corrupt("not JSON");
  for (const char* key : {"state", "group_id", "parent", "plan_index", "table", "descriptors",
                          "region_mapping", "sync_region", "allocated", "pending_deallocate",
                          "timeout_ms", "created_at_ms", "prepare", "remapped"}) {
    if (!j.contains(key)) return Corrupt(key);
  }
  PersistentContext ctx;
  ctx.group_id = j["group_id"].get<uint64_t>();
  ctx.parent = j["parent"].get<uint64_t>();
  ctx.plan_index = j["plan_index"].get<size_t>();
  ctx.table = TableId{j["table"].get<uint32_t>()};
  sim::Result<PlanEntry> carrier = PlanFromJson(j["descriptors"]);
  if (!carrier.ok()) return carrier.error();
  ctx.sources = carrier.value().sources;
  ctx.targets = carrier.value().targets;
  for (const auto& m : j["region_mapping"]) {
    ctx.region_mapping[RegionId{m["src"].get<uint64_t>()}] = IdsFrom(m["dst"]);
  }
  ctx.sync_region = j["sync_region"].get<bool>();
  ctx.allocated = IdsFrom(j["allocated"]);
  ctx.pending_deallocate = IdsFrom(j["pending_deallocate"]);
  ctx.timeout_ms = j["timeout_ms"].get<int64_t>();
  ctx.created_at_ms = j["created_at_ms"].get<int64_t>();
  if (!j["prepare"].is_null()) {
    const auto& p = j["prepare"];
    auto sources = RoutesFromJson(p["source_routes"]);
    auto targets = RoutesFromJson(p["target_routes"]);
    if (!sources.ok() || !targets.ok()) return Corrupt("prepare routes");
    ctx.prepare = PrepareResult{sources.value(), targets.value(),
                                RegionId{p["central_region"].get<uint64_t>()},
                                NodeId{p["central_datanode"].get<uint32_t>()}};
  }
  ctx.remapped = j["remapped"].get<bool>();
  int state = j["state"].get<int>();
  if (state < 0 || state > static_cast<int>(State::kRepartitionEnd)) return Corrupt("state");
  RepartitionGroupProcedure procedure(std::move(ctx));
  procedure.state_ = static_cast<State>(state);
  return procedure;
}

Step RepartitionGroupProcedure::Execute(MetasrvEnv& env, const ProcedureView& view) {
  REPARTSIM_ASSERT(view.id == env.current());
  REPARTSIM_ASSERT(view.parent.value == ctx_.parent);
  switch (state_) {
    case State::kRepartitionStart:
      return RepartitionStart(env);
    case State::kSyncRegion:
      return SyncRegion(env);
    case State::kApplyStaging:
      return ApplyStaging(env);
    case State::kEnterStagingRegion:
      return EnterStagingRegion(env);
    case State::kRemapManifest:
      return RemapManifest(env);
    case State::kApplyStagingManifest:
      return ApplyStagingManifest(env);
    case State::kExitStaging:
      return ExitStaging(env);
    case State::kRepartitionEnd:
      return Step::Done();
  }
  REPARTSIM_UNREACHABLE();
}

std::vector<LockKey> RepartitionGroupProcedure::lock_keys() const {
  REPARTSIM_ASSERT(!ctx_.sources.empty());
  std::vector<LockKey> keys = {CatalogReadLock(), SchemaReadLock()};
  for (const SourceDescriptor& source : ctx_.sources)
    keys.push_back(RegionWriteLock(source.region));
  return keys;
}

void RepartitionGroupProcedure::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(state_)).Add(ctx_.group_id).Add(ctx_.parent);
  h.Add(static_cast<uint64_t>(ctx_.plan_index)).Add(ctx_.created_at_ms).Add(ctx_.remapped);
  for (const SourceDescriptor& s : ctx_.sources) h.Add(s.region.value);
  for (const TargetDescriptor& t : ctx_.targets) h.Add(t.region.value).Add(ExprVersion(&t.expr));
  h.Add(ctx_.prepare.has_value());
  requests_.Hash(h);
  h.Add(static_cast<uint64_t>(phase_)).Add(apply_timeout_.ms);
}

std::optional<Step> RepartitionGroupProcedure::CheckDeadline(MetasrvEnv& env) const {
  if (env.Now() < deadline()) return std::nullopt;
  return Step::Error("ExceededDeadline: repartition group " + std::to_string(ctx_.group_id) +
                     " exceeded its " + std::to_string(ctx_.timeout_ms) + " ms timeout");
}

bool RepartitionGroupProcedure::IsPendingDeallocate(RegionId region) const {
  return std::find(ctx_.pending_deallocate.begin(), ctx_.pending_deallocate.end(), region) !=
         ctx_.pending_deallocate.end();
}

std::optional<NodeId> RepartitionGroupProcedure::LeaderOf(MetasrvEnv& env, RegionId region) const {
  REPARTSIM_ASSERT(region.table_id() == ctx_.table);
  // The peers captured at RepartitionStart: a region migration since then does not redirect
  // the group's instructions (docs/protocol.md 12.2). Rule::kFenceCapturedPeers reads the
  // current route instead, so the group follows a region a migration moved.
  if (ctx_.prepare.has_value() && !env.protocol().On(Rule::kFenceCapturedPeers)) {
    for (const auto* routes : {&ctx_.prepare->source_routes, &ctx_.prepare->target_routes}) {
      for (const RegionRoute& r : *routes) {
        if (r.region_id == region) return r.leader;
      }
    }
  }
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return std::nullopt;
  const RegionRoute* route = snapshot->route.Find(region);
  if (route == nullptr) return std::nullopt;
  return route->leader;
}

std::optional<Step> RepartitionGroupProcedure::SendToLeader(MetasrvEnv& env, RegionId region,
                                                            RegionOp op) {
  std::optional<NodeId> leader = LeaderOf(env, region);
  if (!leader.has_value()) return Step::Error("Unexpected: no leader for " + region.ToString());
  REPARTSIM_ASSERT(leader->value != 0);
  requests_.Send(env, *leader, region, std::move(op));
  REPARTSIM_ASSERT(!requests_.sent());
  return std::nullopt;
}

Step RepartitionGroupProcedure::RoundFailed(MetasrvEnv& env,
                                            PendingRequests::Outcome outcome) const {
  if (outcome != PendingRequests::Outcome::kAbort || !ctx_.prepare.has_value()) {
    return requests_.FailureStep(outcome);
  }
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return requests_.FailureStep(outcome);
  for (const auto* routes : {&ctx_.prepare->source_routes, &ctx_.prepare->target_routes}) {
    for (const RegionRoute& captured : *routes) {
      const RegionRoute* now = snapshot->route.Find(captured.region_id);
      if (now == nullptr || now->leader == captured.leader || !captured.leader.has_value()) {
        continue;
      }
      // fence-captured-peers: the state runs again and sends to the region's current leader.
      if (env.protocol().On(Rule::kFenceCapturedPeers)) {
        return Step::RetryLater("region " + captured.region_id.ToString() +
                                " moved after the group started: " + requests_.message());
      }
      return Step::Error(std::string(kStaleCapturedPeerError) + "region " +
                         captured.region_id.ToString() + " moved from datanode " +
                         std::to_string(captured.leader->value) + " to datanode " +
                         (now->leader ? std::to_string(now->leader->value) : "none") +
                         " after the group started; " + requests_.message());
    }
  }
  return requests_.FailureStep(outcome);
}

Step RepartitionGroupProcedure::FinishTwoPhaseRound(MetasrvEnv& env, State next) {
  REPARTSIM_ASSERT(requests_.sent());
  REPARTSIM_ASSERT(static_cast<uint8_t>(next) > static_cast<uint8_t>(state_));
  PendingRequests::Outcome outcome = requests_.Collect(env);
  if (outcome == PendingRequests::Outcome::kWaiting) return requests_.WaitStep();
  if (outcome != PendingRequests::Outcome::kOk) {
    // A retry re-runs the whole state from its first round, as GreptimeDB's State::next does.
    phase_ = 0;
    return RoundFailed(env, outcome);
  }
  if (phase_ == 0) {
    phase_ = 1;
    return Step::Next(/*persist=*/false);
  }
  phase_ = 0;
  state_ = next;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
