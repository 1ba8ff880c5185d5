// Faults of a Cluster. Scripted: the fault actions of a scenario (fault_action.h), per-kind
// message rules (drop, delay, duplicate, hold until a procedure state has passed, reorder two
// messages), steps armed on a procedure state, an explicit lease expiry, and the fingerprint of
// that state. Random node faults: datanode pauses and the metasrv's leader-start window. Kept
// apart from cluster.cc, which holds the event loop.
#include <algorithm>

#include "model/cluster/cluster.h"
#include "model/gc/gc.h"
#include "model/meta/table_metadata.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

void Cluster::ScheduleAfterState(std::string state, uint32_t occurrence, sim::Duration delay,
                                 ScheduledOp op) {
  script_.Arm(std::move(state), occurrence, delay, std::move(op));
}

bool Cluster::InterceptMessage(NodeId from, Outgoing& out, sim::StepContext& step) {
  const std::optional<size_t> match = script_.Match(from, out);
  if (!match) return false;
  const size_t i = *match;
  const MessageRule& rule = script_.rule(i);
  const std::string what = std::string(MessageActionName(rule.action)) + " " +
                           MessageKindName(out.message) + " " + NodeName(from) + "->" +
                           NodeName(out.to);
  const std::string id = " id=" + std::to_string(out.id);
  const std::string later = rule.delay.ms > 0 ? " +" + std::to_string(rule.delay.ms) + "ms" : "";
  switch (rule.action) {
    case MessageAction::kDrop:
      script_.Count(i);
      if (ChannelOf(out.message) == sim::Channel::kStream) {
        // A stream loses a message only by breaking: everything in flight on it is lost.
        step.Log(from.value, "net.rule", what + " (stream reset)" + id);
        network_.ResetStream(from.value, out.to.value);
        OnStreamReset(from, out.to, step);
        return true;
      }
      step.Log(from.value, "net.rule", what + id);
      return true;
    case MessageAction::kDelay:
      script_.Count(i);
      step.Log(from.value, "net.rule", what + " +" + std::to_string(rule.delay.ms) + "ms" + id);
      Transmit(from, std::move(out), rule.delay, step);
      return true;
    case MessageAction::kDuplicate: {
      script_.Count(i);
      step.Log(from.value, "net.rule", what + later + id);
      // The network never duplicates: a second copy of a frontend's write is the frontend
      // resending it (an application retry), which its statement knows of.
      if (const auto* write = std::get_if<WriteRequest>(&out.message.body);
          write != nullptr && IsFrontend(from)) {
        NodeContext ctx(from, step, protocol_, history_);
        mutable_frontend(from).NoteResent(write->corr, ctx);
      }
      Transmit(from, out, sim::Duration{0}, step);
      Transmit(from, std::move(out), rule.delay, step);
      return true;
    }
    case MessageAction::kHold: {
      script_.Count(i);
      // A lease reply waits in the metasrv's handler chain (later pushes pass it); any other
      // stream message holds its stream's line; a call waits alone.
      const bool head_of_line = ChannelOf(out.message) == sim::Channel::kStream &&
                                !std::holds_alternative<HeartbeatReply>(out.message.body);
      step.Log(from.value, "net.rule", what + " until " + rule.until_state + later + id);
      held_.Add(HeldMessage{from, std::move(out), rule.until_state, i, rule.delay, std::nullopt,
                            head_of_line});
      return true;
    }
    case MessageAction::kReorder: {
      std::optional<HeldMessage> first = held_.TakeReorderPartner(i);
      if (!first) {
        step.Log(from.value, "net.rule", what + " (held for the next one)" + id);
        held_.Add(HeldMessage{from, std::move(out), std::string(), i, sim::Duration{0},
                              std::nullopt, false});
        return true;
      }
      script_.Count(i);
      step.Log(from.value, "net.rule", what + " (sent before the held one)" + id);
      Transmit(from, std::move(out), sim::Duration{0}, step);
      Transmit(first->from, std::move(first->out), sim::Ms(1), step);
      return true;
    }
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::TraceProcedureState(ProcedureId id, const std::string& before, int status_before,
                                  sim::StepContext& step) {
  if (!metasrv_.is_up()) return;  // crashed mid-step: the crash line says so
  const auto* slot = metasrv_.procedures().Find(id);
  const std::string after = ProcedureStateName(id);
  const int status_after = slot == nullptr ? -1 : static_cast<int>(slot->status);
  // A step that only waits (Running <-> Waiting) is not a transition.
  auto waits = [](int s) {
    return s == static_cast<int>(ProcedureStatus::kWaiting)
               ? static_cast<int>(ProcedureStatus::kRunning)
               : s;
  };
  if (after == before && waits(status_after) == waits(status_before)) return;
  sim::Detail d;
  d.Add("procedure", id.value);
  if (slot != nullptr) d.Add("type", slot->body.type());
  auto state_of = [](const std::string& name) {
    const size_t dot = name.find('.');
    return dot == std::string::npos ? std::string_view("-")
                                    : std::string_view(name).substr(dot + 1);
  };
  d.Add("from", state_of(before)).Add("to", state_of(after));
  d.Add("status", slot == nullptr ? "gone" : ProcedureStatusName(slot->status));
  step.Log(metasrv_id().value, "ms.state", d.view());
}

std::string Cluster::ProcedureStateName(ProcedureId id) const {
  const auto* slot = metasrv_.procedures().Find(id);
  if (slot == nullptr) return std::string();
  std::string name(slot->body.type());
  name += '.';
  name += slot->body.state_name();
  return name;
}

void Cluster::NoteProcedureStep(ProcedureId id, const std::string& before, sim::StepContext& step) {
  if (!metasrv_.is_up()) return;  // crashed mid-step: the state did not pass
  const auto* slot = metasrv_.procedures().Find(id);
  const bool ended = slot == nullptr || !MetaProcedureManager::IsActive(slot->status);
  if (!ended && ProcedureStateName(id) == before) return;
  std::vector<ScheduledOp> now_ops;
  const uint32_t times = script_.PassState(before, step.now, &now_ops);
  step.Log(metasrv_id().value, "ms.state_passed",
           before + " procedure=" + std::to_string(id.value) + " times=" + std::to_string(times));
  std::vector<size_t> release = held_.PassState(before, step.now);
  if (!release.empty()) SendHeld(std::move(release), std::string(), step);
  for (ScheduledOp& op : now_ops) ExecuteOp(op, step);
}

void Cluster::EndScriptedFaults(sim::StepContext& step) {
  script_.ClearRules();
  SendHeld(held_.All(), " (safety phase ended)", step);
  for (const ArmedOp& a : script_.TakeAllArmed()) {
    step.Log(sim::kNoNode, "op.disarmed",
             std::string(ScheduledOpName(a.op)) + " after " + a.state + " #" +
                 std::to_string(a.occurrence) +
                 (a.due ? ": due after the safety phase" : ": the state never passed"));
  }
}

void Cluster::ExpireLeasesNow(NodeId node, sim::StepContext& step) {
  Datanode& dn = mutable_datanode(node);
  if (!dn.is_up()) return;
  for (RegionId region : dn.ExpireLeases(sim::SimTime{INT64_MAX}, protocol_)) {
    step.Log(dn.id().value, "dn.lease_expired", region.ToString());
  }
}

void Cluster::DropHeldMessages(NodeId node, sim::StepContext& step) {
  for (const HeldMessage& m :
       held_.TakeIf([&](const HeldMessage& m) { return m.from == node || m.out.to == node; })) {
    TraceLostHeld(m.from, m.out, "crash", step);
  }
}

void Cluster::RunFaultAction(FaultAction& op, sim::StepContext& step) {
  if (auto* crash = std::get_if<CrashNodeOp>(&op)) return CrashNode(crash->node, step);
  if (auto* restart = std::get_if<RestartNodeOp>(&op)) return RestartNode(*restart, step);
  if (auto* flush = std::get_if<FlushOp>(&op)) {
    if (!flush->every_region)
      return FlushRegion(mutable_datanode(flush->node), flush->region, step);
    for (Datanode& dn : datanodes_) {
      std::vector<RegionId> regions;
      for (const auto& [id, region] : dn.regions()) {
        if (region.state() == RegionState::kWritable) regions.push_back(id);
      }
      for (RegionId region : regions) FlushRegion(dn, region, step);  // stops if dn crashes
    }
    return;
  }
  if (auto* partition = std::get_if<PartitionOp>(&op)) {
    std::vector<sim::NodeId> a, b;
    for (NodeId n : partition->side_a) a.push_back(n.value);
    for (NodeId n : partition->side_b) b.push_back(n.value);
    network_.Partition(a, b, partition->symmetric);
    return;
  }
  if (auto* heal = std::get_if<HealOp>(&op)) {
    network_.Heal();
    if (heal->end_of_safety) EndScriptedFaults(step);
    return;
  }
  if (auto* rule = std::get_if<MessageRuleOp>(&op)) {
    script_.AddRule(std::move(rule->rule));
    return;
  }
  if (auto* expire = std::get_if<ExpireLeaseOp>(&op)) return ExpireLeasesNow(expire->node, step);
  if (auto* compact = std::get_if<CompactOp>(&op)) return Compact(*compact, step);
  if (std::holds_alternative<GcOp>(op)) return RunGcPass(step);
  if (auto* migrate = std::get_if<MigrateRegionOp>(&op)) return SubmitMigration(*migrate, step);
  if (auto* stale = std::get_if<StaleCacheOp>(&op)) {
    frontends_[stale->frontend_index].SetIgnoreInvalidations(stale->table,
                                                             stale->ignore_invalidations);
    return;
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::FlushRegion(Datanode& dn, RegionId region, sim::StepContext& step) {
  if (!dn.is_up()) return;
  NodeContext ctx(dn.id(), step, protocol_, history_);
  Reply reply = dn.HandleFlush(region, object_store_, ctx, protocol_);
  ctx.Log("dn.flush", region.ToString() + " " + std::string(ReplyCodeName(reply.code)));
  Flush(ctx, step);
}

bool Cluster::CompactRegion(Datanode& dn, RegionId region, sim::StepContext& step) {
  NodeContext ctx(dn.id(), step, protocol_, history_);
  Reply reply = dn.HandleCompact(region, object_store_, ctx, protocol_, step.now);
  sim::Detail d;
  d.Word(region.ToString()).Word(ReplyCodeName(reply.code));
  if (reply.ok()) d.Add("rows", reply.affected_rows);
  ctx.Log("dn.compact", d.view());
  Flush(ctx, step);
  return reply.code != ReplyCode::kCrashed;
}

bool Cluster::CompactRegionsOf(Datanode& dn, Compaction kind, sim::StepContext& step) {
  if (!dn.is_up()) return true;
  std::vector<RegionId> regions;
  for (const auto& [id, region] : dn.regions()) {
    // An automatic compaction follows a flush of the region (Region::compaction_requested).
    if (kind == Compaction::kAutomatic && !region.compaction_requested()) continue;
    if (region.state() == RegionState::kWritable && region.version().files.size() >= 2) {
      regions.push_back(id);
    }
  }
  for (RegionId region : regions) {
    if (!CompactRegion(dn, region, step)) return false;  // the crash point fired: dn is down
  }
  return true;
}

void Cluster::RunGcPass(sim::StepContext& step) {
  if (!config_.gc_enabled || !metasrv_.is_up()) return;  // the metasrv's scheduler runs it
  std::set<TableId> tables;
  for (const auto& [id, file] : object_store_.files()) tables.insert(file->writer.table_id());
  for (TableId table : tables) {
    const std::optional<TableRoute> route = ReadTableRoute(metasrv_.kv(), table);
    if (!route) continue;
    GcScope scope{table, {}, {}, step.now, config_.gc_lingering.ms, {}};
    if (std::optional<std::string> failed = GcReferenceRegions(*route, scope.unread)) {
      sim::Detail d;
      d.Add("table", table.value).AddQuoted("reason", *failed);
      step.Log(metasrv_id().value, "ms.gc_failed", d.view());
      continue;
    }
    for (const RegionRoute& r : route->region_routes) {
      scope.route.push_back(r.region_id);
      // Collected: open as a writable leader on a running datanode, and not write-locked by
      // a running procedure (GC takes read locks; a repartition group holds its sources).
      if (metasrv_.procedures().locks().Held("region/" + std::to_string(r.region_id.value))) {
        continue;
      }
      for (const Datanode& dn : datanodes_) {
        const Region* region = dn.is_up() ? dn.FindRegion(r.region_id) : nullptr;
        if (region != nullptr && region->state() == RegionState::kWritable) {
          scope.collectable.insert(r.region_id);
        }
      }
    }
    const GcReport report = RunGc(object_store_, metasrv_.kv(), scope, protocol_);
    sim::Detail d;
    d.Add("table", table.value)
        .Add("regions", report.regions_collected)
        .Add("files", report.files_examined)
        .Add("deleted", report.deleted.size());
    step.Log(metasrv_id().value, "ms.gc", d.view());
    for (FileId f : report.deleted) {
      // A route region whose manifest still lists the file (its references were left out)
      // has lost its rows: named, so that a loss story can point here.
      sim::Detail del;
      del.Add("file", f.value);
      for (const RegionRoute& r : route->region_routes) {
        const RegionManifest* m = object_store_.Manifest(r.region_id);
        if (m != nullptr && m->files.count(f) != 0) del.Add("listed_by", r.region_id.ToString());
      }
      step.Log(metasrv_id().value, "ms.gc_delete", del.view());
    }
  }
}

std::optional<std::string> Cluster::GcReferenceRegions(const TableRoute& route,
                                                       std::set<RegionId>& unread) const {
  // The metasrv asks each route region's leader for its manifest's references (GetFileRefs,
  // src/meta-srv/src/gc/procedure.rs); any failed call fails the table's pass.
  for (const RegionRoute& r : route.region_routes) {
    if (!r.leader) continue;  // the model reads its manifest from the store
    const Datanode& dn = datanode(*r.leader);
    if (!dn.is_up()) return "GetFileRefs to " + NodeName(*r.leader) + " failed: unreachable";
    if (dn.FindRegion(r.region_id) == nullptr) {
      // The datanode has not opened the region (a background reopen, a failed open). Since
      // GreptimeDB #8445 the call fails with RegionNotFound; before it the region was skipped.
      if (protocol_.On(Rule::kGcRefsNeedOpenRegions)) {
        return "GetFileRefs to " + NodeName(*r.leader) + " failed: Region " +
               r.region_id.ToString() + " not found";
      }
      unread.insert(r.region_id);
    }
  }
  return std::nullopt;
}

void Cluster::FinishCheckpoints(const Datanode& dn, sim::StepContext& step) {
  if (object_store_.checkpoints().empty()) return;
  for (RegionId region : dn.hosted()) {
    if (object_store_.FinishCheckpoint(region)) {
      step.Log(dn.id().value, "dn.checkpoint_done", region.ToString());
    }
  }
}

void Cluster::SubmitMigration(const MigrateRegionOp& op, sim::StepContext& step) {
  if (op.frontend && !frontends_[*op.frontend].is_up()) {
    step.Log(frontends_[*op.frontend].id().value, "fe.admin_refused",
             "migrate_region " + op.region.ToString() + " frontend down");
    return;
  }
  NodeContext ctx(metasrv_id(), step, protocol_, history_);
  if (!metasrv_.is_up() || !metasrv_.recovered()) {
    ctx.Log("ms.migrate_refused", op.region.ToString() + " metasrv not serving");
    Flush(ctx, step);
    return;
  }
  metasrv_.SubmitMigration(op.region, op.from, op.to, op.timeout_ms, ctx);
  Flush(ctx, step);
}

void Cluster::Rebalance(sim::StepContext& step) {
  if (!metasrv_.is_up() || !metasrv_.recovered()) return;
  NodeContext ctx(metasrv_id(), step, protocol_, history_);
  std::vector<NodeId> datanodes;
  for (const Datanode& dn : datanodes_) datanodes.push_back(dn.id());
  metasrv_.RebalanceRandomRegion(datanodes, step.chooser, ctx);
  Flush(ctx, step);
}

void Cluster::Compact(const CompactOp& op, sim::StepContext& step) {
  if (!op.every_region) {
    Datanode& dn = mutable_datanode(op.node);
    if (dn.is_up()) CompactRegion(dn, op.region, step);
    return;
  }
  for (Datanode& dn : datanodes_) CompactRegionsOf(dn, Compaction::kManual, step);
}

bool Cluster::MaybePause(NodeId node, sim::StepContext& step) {
  if (step.now <= paused_until_[node.value]) return false;
  const std::optional<sim::Duration> pause = ChoosePause(config_.node_faults, step.chooser);
  if (!pause) return false;
  paused_until_[node.value] = step.now + *pause;
  sim::Detail d;
  d.Add("node", NodeName(node)).Add("pause_ms", pause->ms);
  d.Add("until", paused_until_[node.value].ms);
  step.Log(node.value, "net.pause", d.view());
  return true;
}

}  // namespace repartsim::model
