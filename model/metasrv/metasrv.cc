#include "model/metasrv/metasrv.h"

#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "model/meta/table_metadata.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

// ---- Metasrv --------------------------------------------------------------------------------

Metasrv::Metasrv(NodeId id, std::vector<NodeId> datanodes, std::vector<NodeId> frontends,
                 MetasrvConfig config)
    : id_(id),
      datanodes_(std::move(datanodes)),
      frontends_(std::move(frontends)),
      config_(config),
      procedures_(config.procedure) {}

ProcedureId Metasrv::Submit(MetaProcedure procedure, sim::SimTime now) {
  REPARTSIM_ASSERT(up_);
  return procedures_.Submit(std::move(procedure), now);
}

bool Metasrv::RunProcedure(ProcedureId id, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  MetasrvEnv env(*this, ctx, id);
  RunResult result = procedures_.Run(id, env);
  if (result == RunResult::kCrashed) return false;
  const auto* slot = procedures_.Find(id);
  if (slot == nullptr || !MetaProcedureManager::IsActive(slot->status)) {
    // The procedure ended: its operating-region guards are dropped with it.
    std::erase_if(operating_regions_, [&](const auto& entry) { return entry.second == id; });
    std::erase_if(follower_regions_, [&](const auto& entry) { return entry.second == id; });
  }
  if (slot != nullptr && !slot->parent.valid() && !MetaProcedureManager::IsActive(slot->status)) {
    const bool done = slot->status == ProcedureStatus::kDone;
    ctx.history.procedure_ends.push_back(
        ProcedureEnd{id.value, ctx.step.step, ctx.now(), done, done ? std::string() : slot->error});
  }
  AnswerEndedDdls(ctx);
  return true;
}

uint64_t Metasrv::RegisterRequest(ProcedureId owner) {
  REPARTSIM_ASSERT(owner.valid());
  uint64_t corr = next_corr_++;
  corr_owner_[corr] = owner;
  return corr;
}

void Metasrv::ForgetRequest(ProcedureId owner, uint64_t corr) {
  corr_owner_.erase(corr);
  auto inbox = inboxes_.find(owner);
  if (inbox != inboxes_.end()) inbox->second.erase(corr);
}

uint64_t Metasrv::epoch(TableId table) const {
  auto it = epochs_.find(table);
  return it == epochs_.end() ? 0 : it->second;
}

void Metasrv::Broadcast(TableId table, NodeContext& ctx) {
  uint64_t epoch = ++epochs_[table];
  for (NodeId frontend : frontends_) {
    ctx.Send(frontend, InvalidateCache{table, epoch});
    if (ctx.protocol.On(Rule::kAckedInvalidation)) pending_acks_[{frontend, table}] = epoch;
  }
  if (!pending_acks_.empty() && next_resend_ <= ctx.now()) {
    next_resend_ = ctx.now() + config_.invalidation_retry;
  }
  ctx.Log("ms.invalidate", "table=" + table.ToString() + " epoch=" + std::to_string(epoch));
}

void Metasrv::OnMessage(NodeId from, const Message& message, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  if (const auto* m = std::get_if<RouteRequest>(&message.body)) {
    return OnRouteRequest(from, *m, ctx);
  }
  if (const auto* m = std::get_if<Heartbeat>(&message.body)) return OnHeartbeat(from, *m, ctx);
  if (const auto* m = std::get_if<RegionResponse>(&message.body)) {
    return OnRegionResponse(*m, ctx);
  }
  if (const auto* m = std::get_if<DdlSubmit>(&message.body)) return OnDdlSubmit(from, *m, ctx);
  if (const auto* m = std::get_if<InvalidateAck>(&message.body)) {
    auto it = pending_acks_.find({from, m->table});
    if (it != pending_acks_.end() && it->second <= m->epoch) pending_acks_.erase(it);
    return;
  }
  REPARTSIM_ASSERT_MSG(false, "metasrv got a message it does not handle");
}

const TableRoute& Metasrv::DecodeRoute(const std::string& key, const std::string& bytes) const {
  DecodedRoute& cached = decoded_routes_[key];
  if (cached.raw != bytes) {
    sim::Result<TableRoute> route = DecodeTableRoute(bytes);
    REPARTSIM_ASSERT_MSG(route.ok(), "stored table route does not decode");
    cached.raw = bytes;
    cached.route = std::move(route).value();
  }
  return cached.route;
}

void Metasrv::OnRouteRequest(NodeId from, const RouteRequest& request, NodeContext& ctx) {
  RouteReply reply;
  reply.corr = request.corr;
  reply.table = request.table;
  reply.epoch = epoch(request.table);
  const std::string route_key = TableRouteKey(request.table);
  const std::string* route_bytes = kv_.Find(route_key);
  std::optional<TableInfo> info = ReadTableInfo(kv_, request.table);
  if (route_bytes != nullptr && info.has_value()) {
    reply.found = true;
    reply.route = DecodeRoute(route_key, *route_bytes);
    reply.info = std::move(*info);
  }
  ctx.Send(from, std::move(reply));
}

void Metasrv::OnHeartbeat(NodeId from, const Heartbeat& heartbeat, NodeContext& ctx) {
  // RegionLeaseHandler: every route of every table, to find the role of each reported region,
  // with the route version the lease is computed from.
  std::map<RegionId, RegionRole> roles;
  std::map<TableId, uint64_t> versions;
  for (const auto& [key, bytes] : kv_.Range(kTableRoutePrefix)) {
    const TableRoute& route = DecodeRoute(key, bytes);
    for (const RegionRoute& r : route.region_routes) {
      versions[r.region_id.table_id()] = route.version;
      std::optional<RegionRole> role = RegionRoleOf(r, from);
      if (role.has_value()) roles[r.region_id] = *role;
    }
  }
  auto version_of = [&](RegionId region) {
    auto it = versions.find(region.table_id());
    return it == versions.end() ? uint64_t{0} : it->second;
  };
  // In the leader-start window nothing knows the regions procedures are creating yet; the
  // reference rule lists no closeable region until procedures are recovered.
  const bool may_close = recovered() || !ctx.protocol.On(Rule::kCloseableAfterRecovery);
  HeartbeatReply reply;
  reply.lease_deadline = heartbeat.sent_at + config_.region_lease;
  for (RegionId region : heartbeat.regions) {
    auto role = roles.find(region);
    if (role != roles.end()) {
      reply.leases.push_back(RegionLease{region, role->second, version_of(region)});
    } else if (follower_regions_.count(std::pair{from, region}) != 0) {
      // A migration candidate: its keeper role (renew_region_lease_via_operating_regions).
      reply.leases.push_back(RegionLease{region, RegionRole::kFollower, version_of(region)});
    } else if (operating_regions_.count(region) != 0) {
      reply.leases.push_back(RegionLease{region, RegionRole::kLeader, version_of(region)});
    } else if (may_close) {
      reply.closeable.push_back(region);
    }
  }
  ctx.Send(from, std::move(reply));
}

void Metasrv::OnRegionResponse(const RegionResponse& response, NodeContext& ctx) {
  auto owner = corr_owner_.find(response.corr);
  if (owner == corr_owner_.end()) return;  // duplicate, stale or forgotten
  ProcedureId id = owner->second;
  corr_owner_.erase(owner);
  inboxes_[id][response.corr] = response;
  procedures_.Wake(id, ctx.now());
}

std::optional<sim::SimTime> Metasrv::NextTimer() const {
  if (recover_at_) {
    if (pending_acks_.empty()) return recover_at_;
    return std::min(*recover_at_, next_resend_);
  }
  if (pending_acks_.empty()) return std::nullopt;
  return next_resend_;
}

void Metasrv::OnTimer(NodeContext& ctx) {
  if (recover_at_ && *recover_at_ <= ctx.now()) {
    recover_at_.reset();
    sim::Status status = RecoverProcedures(ctx.now());
    REPARTSIM_ASSERT_MSG(status.ok(), "metasrv recovery failed on its own records");
    ctx.Log("ms.procedures_recovered");
    if (pending_acks_.empty() || next_resend_ > ctx.now()) return;
  }
  if (pending_acks_.empty()) return;
  for (const auto& [key, epoch] : pending_acks_) {
    ctx.Send(key.first, InvalidateCache{key.second, epoch});
  }
  next_resend_ = ctx.now() + config_.invalidation_retry;
  ctx.Log("ms.invalidate_resend", "pending=" + std::to_string(pending_acks_.size()));
}

void Metasrv::Crash() {
  up_ = false;
  recover_at_.reset();
  procedures_.Crash();
  corr_owner_.clear();
  inboxes_.clear();
  operating_regions_.clear();
  follower_regions_.clear();
  pending_acks_.clear();
  ddl_waiters_.clear();
}

sim::Status Metasrv::Restart(sim::SimTime now, sim::Duration window) {
  up_ = true;
  if (window.ms > 0) {
    recover_at_ = now + window;
    return sim::Ok{};
  }
  return RecoverProcedures(now);
}

sim::Status Metasrv::RecoverProcedures(sim::SimTime now) {
  sim::Status status = procedures_.Recover(now);
  if (!status.ok()) return status;
  // CreateTableProcedure::recover registers its regions again once the route is allocated.
  std::vector<ProcedureId> ids;
  procedures_.ForEachRunnable([&](ProcedureId id, sim::SimTime) { ids.push_back(id); });
  for (ProcedureId id : ids) {
    const auto* slot = procedures_.Find(id);
    if (slot == nullptr) continue;
    const auto* create = MetaProcedureManager::BodyOf(*slot).As<CreateTableProcedure>();
    if (create == nullptr || create->state() == CreateTableProcedure::State::kPrepare) continue;
    for (const RegionRoute& r : create->route().region_routes) {
      operating_regions_.emplace(r.region_id, id);
    }
  }
  return status;
}

void Metasrv::Hash(sim::Hasher& h) const {
  // Every field but the construction constants (peers, config) and the decode cache; each
  // container with its size, so that an entry cannot pass from one container to the next.
  h.Add(id_.value).Add(up_).Add(next_corr_);
  kv_.Hash(h);
  procedures_.Fingerprint(h);
  h.Add(static_cast<uint64_t>(epochs_.size()));
  for (const auto& [table, epoch] : epochs_) h.Add(table.value).Add(epoch);
  h.Add(static_cast<uint64_t>(corr_owner_.size()));
  for (const auto& [corr, id] : corr_owner_) h.Add(corr).Add(id.value);
  h.Add(static_cast<uint64_t>(inboxes_.size()));
  for (const auto& [id, inbox] : inboxes_) {
    h.Add(id.value).Add(static_cast<uint64_t>(inbox.size()));
    for (const auto& [corr, response] : inbox) {
      h.Add(corr).Add(response.corr).Add(static_cast<uint64_t>(response.results.size()));
      for (const RegionResult& r : response.results) {
        h.Add(r.region.value).Add(static_cast<uint64_t>(r.code)).Add(r.message);
      }
      h.Add(response.mailbox);
    }
  }
  h.Add(static_cast<uint64_t>(operating_regions_.size()));
  for (const auto& [region, owner] : operating_regions_) h.Add(region.value).Add(owner.value);
  for (const auto& [key, owner] : follower_regions_) {  // only migrations add entries
    h.Add(key.first.value).Add(key.second.value).Add(owner.value);
  }
  h.Add(static_cast<uint64_t>(ddl_waiters_.size()));
  for (const auto& [procedure, waiter] : ddl_waiters_) {
    h.Add(procedure.value).Add(waiter.frontend.value).Add(waiter.corr).Add(waiter.ddl);
  }
  h.Add(static_cast<uint64_t>(pending_acks_.size()));
  for (const auto& [key, epoch] : pending_acks_) {
    h.Add(key.first.value).Add(key.second.value).Add(epoch);
  }
  h.Add(next_resend_.ms).Add(recover_at_ ? recover_at_->ms : int64_t{-1});
}

}  // namespace repartsim::model
