// The datanode's message dispatch (the region server's handlers): writes, scans, region
// requests of the metasrv and heartbeat replies, each answered through the NodeContext; and
// its timers (the heartbeat it sends, lease expiry).
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "model/datanode/datanode.h"
#include "sim/assert.h"

namespace repartsim::model {

void Datanode::OnMessage(NodeId from, const Message& message, ObjectStore& store, NodeContext& ctx,
                         AcceptedWriteObserver* observer) {
  REPARTSIM_ASSERT(up_);
  REPARTSIM_ASSERT(ctx.self == id_);
  if (const auto* m = std::get_if<WriteRequest>(&message.body)) {
    return OnWriteRequest(from, *m, ctx, observer);
  }
  if (const auto* m = std::get_if<ScanRequest>(&message.body)) {
    ScanReply reply = HandleScan(m->region, m->planned_version, ctx.protocol, store,
                                 m->route_version, m->count_only);
    ctx.Send(from, ScanResponse{m->corr, m->region, reply.code, reply.message,
                                std::move(reply.rows), reply.count});
    return;
  }
  if (const auto* m = std::get_if<RegionRequest>(&message.body)) {
    return OnRegionRequest(from, *m, store, ctx);
  }
  if (const auto* m = std::get_if<HeartbeatReply>(&message.body)) {
    return OnHeartbeatReply(*m, store, ctx);
  }
  REPARTSIM_ASSERT_MSG(false, "datanode got a message it does not handle");
}

Heartbeat Datanode::MakeHeartbeat(sim::SimTime now) const {
  REPARTSIM_ASSERT(up_);
  Heartbeat heartbeat{now, {}};
  for (const auto& [region, state] : regions_) heartbeat.regions.push_back(region);
  return heartbeat;
}

void Datanode::OnLeaseTimer(NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  for (RegionId region : ExpireLeases(ctx.now(), ctx.protocol)) {
    ctx.Log("dn.lease_expired", region.ToString());
  }
}

void Datanode::OnWriteRequest(NodeId from, const WriteRequest& request, NodeContext& ctx,
                              AcceptedWriteObserver* observer) {
  WriteReply reply{request.corr, {}};
  for (const RegionWrite& write : request.writes) {
    Reply result =
        HandleWrite(write.region, write.rows, write.version, ctx.protocol, ctx, ctx.now());
    if (result.code == ReplyCode::kCrashed) return;  // no reply: the node goes down
    if (result.ok() && observer != nullptr) {
      const Region* region = FindRegion(write.region);
      REPARTSIM_ASSERT(region != nullptr);
      observer->OnAccepted(*region, write, request.write_id, ctx);
    }
    reply.results.push_back(RegionWriteResult{write.region, result.code, result.message});
  }
  REPARTSIM_ASSERT(reply.results.size() == request.writes.size());
  ctx.Send(from, std::move(reply));
}

void Datanode::OnRegionRequest(NodeId from, const RegionRequest& request, ObjectStore& store,
                               NodeContext& ctx) {
  REPARTSIM_ASSERT(!request.items.empty());
  RegionResponse response{request.corr, {}, IsMailboxOp(request.op())};
  // A batch (one mailbox instruction for several regions) is handled region by region, and
  // answered once (GreptimeDB's instruction handlers join the per-region futures).
  for (const RegionInstruction& item : request.items) {
    REPARTSIM_ASSERT(item.op.index() == request.op().index());
    uint64_t last_entry_id = 0;
    Reply result = HandleRegionInstruction(item, request.route_version, store, ctx, last_entry_id);
    if (result.code == ReplyCode::kCrashed) return;  // no reply: the node goes down
    ctx.Log("dn.region_op", std::string(RegionOpName(item.op)) + " " + item.region.ToString() +
                                " " + std::string(ReplyCodeName(result.code)));
    response.results.push_back(
        RegionResult{item.region, result.code, result.message, last_entry_id});
  }
  REPARTSIM_ASSERT(response.results.size() == request.items.size());
  ctx.Send(from, std::move(response));
}

Reply Datanode::HandleRegionInstruction(const RegionInstruction& item, uint64_t route_version,
                                        ObjectStore& store, NodeContext& ctx,
                                        uint64_t& last_entry_id) {
  NoteRouteVersion(item.region, route_version);
  const Protocol& protocol = ctx.protocol;
  Reply result;
  std::visit(
      [&](const auto& op) {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, CreateRegionOp>) {
          result = HandleCreateRegion(item.region, op.schema, op.expr, store, ctx,
                                      op.awaiting_apply, ctx.protocol, route_version);
          // The region alive keeper starts a lease countdown for a newly opened region.
          if (result.ok()) {
            ApplyLease(item.region, RegionRole::kLeader, ctx.now() + region_lease_, protocol,
                       store);
          }
        } else if constexpr (std::is_same_v<T, DropRegionOp>) {
          result = HandleDropRegion(item.region, store, ctx, ctx.protocol, route_version);
        } else if constexpr (std::is_same_v<T, FlushRegionOp>) {
          result = HandleFlush(item.region, store, ctx, protocol);
        } else if constexpr (std::is_same_v<T, EnterStagingOp>) {
          result = HandleEnterStaging(item.region, op.directive, protocol, store, ctx);
        } else if constexpr (std::is_same_v<T, RemapManifestOp>) {
          // A source whose checkpoint runs may lose a listed delta before the read reaches it.
          std::optional<RegionId> vanished;
          for (RegionId input : op.inputs) {
            if (vanished || checkpoint_race_.IsNever() || !store.CheckpointInFlight(input)) {
              continue;
            }
            if (ctx.step.chooser.Chance("net.checkpoint_race", checkpoint_race_)) vanished = input;
          }
          result = HandleRemapManifest(item.region, op.inputs, op.mapping, op.target_exprs, store,
                                       ctx, vanished);
        } else if constexpr (std::is_same_v<T, ApplyStagingManifestOp>) {
          result =
              HandleApplyStagingManifest(item.region, op.expr, op.central, protocol, store, ctx);
        } else if constexpr (std::is_same_v<T, OpenRegionOp>) {
          REPARTSIM_ASSERT(op.skip_wal_replay);  // only migration candidates are opened
          result = HandleOpenCandidate(item.region, store);
        } else if constexpr (std::is_same_v<T, DowngradeRegionOp>) {
          result = HandleDowngradeRegion(item.region, store, ctx, protocol, last_entry_id);
        } else if constexpr (std::is_same_v<T, UpgradeRegionOp>) {
          result = HandleUpgradeRegion(item.region, store, ctx.now(), ctx.protocol);
        } else {
          static_assert(std::is_same_v<T, CloseRegionOp>);
          result = HandleCloseRegion(item.region);
        }
      },
      item.op);
  return result;
}

void Datanode::OnHeartbeatReply(const HeartbeatReply& reply, ObjectStore& store, NodeContext& ctx) {
  for (const RegionLease& lease : reply.leases) {
    if (!ApplyLease(lease.region, lease.role, reply.lease_deadline, ctx.protocol, store,
                    lease.route_version) &&
        FindRegion(lease.region) != nullptr) {
      ctx.Log("dn.stale_lease_ignored",
              lease.region.ToString() + " route_version=" + std::to_string(lease.route_version));
    }
  }
  for (RegionId region : reply.closeable) {
    HandleCloseRegion(region);
    ctx.Log("dn.close_region", region.ToString());
  }
}

}  // namespace repartsim::model
