#include "model/cluster/cluster.h"

#include "model/cluster/ownership_probe.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

// Node ids first, first + 1, ..., first + count - 1.
std::vector<NodeId> NodeIds(uint32_t first, uint32_t count) {
  std::vector<NodeId> ids;
  for (uint32_t i = 0; i < count; ++i) ids.push_back(NodeId{first + i});
  return ids;
}

}  // namespace

Cluster::Cluster(ClusterConfig config, Protocol protocol)
    : config_(config),
      protocol_(protocol),
      metasrv_(NodeId{0}, NodeIds(1, config.datanode_count),
               NodeIds(1 + config.datanode_count, config.frontend_count), config.metasrv),
      network_(1 + config.datanode_count + config.frontend_count) {
  REPARTSIM_ASSERT(config.datanode_count >= 1);
  REPARTSIM_ASSERT(config.frontend_count >= 1);
  for (uint32_t i = 0; i < config_.datanode_count; ++i) {
    datanodes_.emplace_back(datanode_id(i), config_.metasrv.region_lease);
    datanodes_.back().ConfigureCheckpoints(config_.checkpoint_distance,
                                           config_.node_faults.checkpoint_race);
    // Heartbeats are staggered so datanodes do not all report at the same instant.
    next_heartbeat_.push_back(sim::SimTime{0} + sim::Ms(1 + i * 100));
  }
  scripted_replay_failures_.assign(config_.datanode_count, 0);
  restarted_at_.assign(config_.datanode_count, sim::SimTime{-1});
  FrontendConfig frontend = config_.frontend;
  frontend.gc_enabled = config_.gc_enabled;
  for (uint32_t i = 0; i < config_.frontend_count; ++i) {
    frontends_.emplace_back(frontend_id(i), metasrv_id(), frontend);
  }
  paused_until_.assign(node_count(), sim::SimTime{0});
  network_.RecordLost(true);  // for the trace's net.lost lines
}

// ---- sim::Model -----------------------------------------------------------------------------

template <class Emit>
void Cluster::ForEachEnabled(bool every_op, Emit&& emit) const {
  // Nothing runs in the past: a deadline that already passed fires now.
  auto at = [&](sim::SimTime t) { return sim::Max(t, now_); };
  // A paused node runs nothing before its pause ends.
  auto at_node = [&](sim::SimTime t, uint32_t node) {
    return at(sim::Max(t, paused_until_[node]));
  };
  // Only the head of each directed stream is deliverable (FIFO), and a datanode's stream to
  // the metasrv waits while its heartbeat session is busy with a reply not pushed yet.
  network_.ForEachDeliverable([&](size_t i, const auto& entry) {
    const auto& e = entry.payload;
    if (e.channel == sim::Channel::kStream && e.to == metasrv_id().value &&
        IsDatanode(NodeId{e.from}) && SessionBusy(NodeId{e.from})) {
      return;
    }
    emit(at_node(entry.at, e.to), entry.seq, e.to, kDeliver, i);
  });
  if (metasrv_.is_up()) {
    metasrv_.procedures().ForEachRunnable(
        [&](ProcedureId id, sim::SimTime wake) { emit(at(wake), 0, 0, kProcedure, id.value); });
    if (std::optional<sim::SimTime> t = metasrv_.NextTimer()) emit(at(*t), 0, 0, kMetasrvTimer, 0);
  }
  for (uint32_t i = 0; i < datanodes_.size(); ++i) {
    const Datanode& dn = datanodes_[i];
    if (!dn.is_up()) continue;
    emit(at_node(next_heartbeat_[i], dn.id().value), 0, dn.id().value, kHeartbeat, i);
    if (std::optional<sim::SimTime> t = dn.NextLeaseDeadline()) {
      emit(at_node(*t, dn.id().value), 0, dn.id().value, kLeaseExpiry, i);
    }
    if (std::optional<sim::SimTime> t = dn.NextPendingOpen()) {
      emit(at_node(*t, dn.id().value), 0, dn.id().value, kRegionOpen, i);
    }
  }
  for (uint32_t i = 0; i < frontends_.size(); ++i) {
    const Frontend& fe = frontends_[i];
    if (!fe.is_up()) continue;
    if (std::optional<sim::SimTime> t = fe.NextTimer()) {
      emit(at(*t), 0, fe.id().value, kFrontendTimer, i);
    }
  }
  const size_t ops = every_op ? ops_.size() : std::min<size_t>(ops_.size(), 1);
  for (size_t i = 0; i < ops; ++i) emit(at(ops_.At(i).at), 0, sim::kNoNode, kScheduledOp, i);
  script_.ForEachDue(
      [&](size_t i, sim::SimTime due) { emit(at(due), 0, sim::kNoNode, kArmedOp, i); });
  held_.ForEachRelease([&](size_t i, sim::SimTime release_at, NodeId from) {
    emit(at(release_at), 0, from.value, kHeldRelease, i);
  });
}

void Cluster::Enabled(std::vector<sim::EnabledEvent>& out) const {
  ForEachEnabled(true,
                 [&](sim::SimTime t, uint64_t seq, uint32_t node, uint32_t kind, uint64_t ref) {
                   out.push_back({t, seq, node, kind, ref});
                 });
}

bool Cluster::Earliest(sim::EnabledEvent& best) const {
  // The first event with the smallest (at, seq) in Enabled()'s order (sim::EarliestEvent's
  // pick), found without building the list.
  bool found = false;
  ForEachEnabled(false,
                 [&](sim::SimTime t, uint64_t seq, uint32_t node, uint32_t kind, uint64_t ref) {
                   if (!found || t < best.at || (t == best.at && seq < best.seq)) {
                     best = sim::EnabledEvent{t, seq, node, kind, ref};
                     found = true;
                   }
                 });
  return found;
}

void Cluster::Fire(const sim::EnabledEvent& event, sim::StepContext& step) {
  FireEvent(event, step);
  MaybeReleaseScript(step);
}

void Cluster::FireEvent(const sim::EnabledEvent& event, sim::StepContext& step) {
  now_ = step.now;
  switch (event.kind) {
    case kDeliver:
      DeliverMessage(event.ref, step);
      return;
    case kProcedure: {
      const ProcedureId id{event.ref};
      const std::string before = ProcedureStateName(id);
      const auto* slot = metasrv_.procedures().Find(id);
      const int status_before = slot == nullptr ? -1 : static_cast<int>(slot->status);
      NodeContext ctx(metasrv_id(), step, protocol_, history_);
      ctx.links = this;
      metasrv_.RunProcedure(id, ctx);
      Flush(ctx, step);
      TraceProcedureState(id, before, status_before, step);
      if (script_.tracks_states() && !before.empty()) NoteProcedureStep(id, before, step);
      return;
    }
    case kMetasrvTimer: {
      NodeContext ctx(metasrv_id(), step, protocol_, history_);
      metasrv_.OnTimer(ctx);
      Flush(ctx, step);
      return;
    }
    case kHeartbeat: {
      Datanode& dn = datanodes_[event.ref];
      if (MaybePause(dn.id(), step)) return;  // the heartbeat goes out when the pause ends
      if (!dn.failed_opens().empty() && step.now > restarted_at_[event.ref]) {
        OpenRegionsOf(dn, nullptr, /*retry=*/true, step);
      }
      FinishCheckpoints(dn, step);
      if (ChooseGc(config_.node_faults, step.chooser)) RunGcPass(step);
      if (config_.gc_interval.ms > 0 && step.now >= next_gc_) {
        next_gc_ = step.now + config_.gc_interval;
        RunGcPass(step);
      }
      if (ChooseRebalance(config_.node_faults, step.chooser)) Rebalance(step);
      if (ChooseCompaction(config_.node_faults, step.chooser)) {
        if (!CompactRegionsOf(dn, Compaction::kAutomatic, step)) return;  // a crash point fired
      }
      NodeContext ctx(dn.id(), step, protocol_, history_);
      ctx.Send(metasrv_id(), dn.MakeHeartbeat(step.now));
      next_heartbeat_[event.ref] = step.now + config_.heartbeat_interval;
      Flush(ctx, step);
      return;
    }
    case kLeaseExpiry: {
      NodeContext ctx(datanodes_[event.ref].id(), step, protocol_, history_);
      datanodes_[event.ref].OnLeaseTimer(ctx);
      return;
    }
    case kFrontendTimer: {
      Frontend& fe = frontends_[event.ref];
      NodeContext ctx(fe.id(), step, protocol_, history_);
      fe.OnTimer(ctx);
      Flush(ctx, step);
      return;
    }
    case kScheduledOp:
      RunScheduledOp(event.ref, step);
      return;
    case kArmedOp: {
      ScheduledOp op = script_.TakeDue(event.ref);
      ExecuteOp(op, step);
      return;
    }
    case kHeldRelease:
      ReleaseHeld(event.ref, step);
      return;
    case kRegionOpen:
      OpenNextRegion(event.ref, step);
      return;
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::DeliverMessage(size_t index, sim::StepContext& step) {
  auto delivery = network_.Take(index);
  auto& envelope = delivery.envelope;  // consumed by the receiver (a frontend moves rows out)
  NodeId from{envelope.from};
  NodeId to{envelope.to};
  const char* kind = MessageKindName(envelope.msg);
  if (!delivery.delivered) {
    sim::Detail d;
    d.Word(kind).Add("from", NodeName(from)).Add("id", envelope.id);
    step.Log(to.value, "net.cut", d.view());
    if (envelope.channel == sim::Channel::kStream) OnStreamReset(from, to, step);
    return;
  }
  sim::Detail d;
  d.Word(kind).Add("from", NodeName(from)).Add("id", envelope.id);
  step.Log(to.value, "recv", d.view());
  NodeContext ctx(to, step, protocol_, history_);
  if (to == metasrv_id()) {
    metasrv_.OnMessage(from, envelope.msg, ctx);
  } else if (IsDatanode(to)) {
    OwnershipProbe probe(history_);
    mutable_datanode(to).OnMessage(from, envelope.msg, object_store_, ctx, &probe);
  } else {
    mutable_frontend(to).OnMessage(from, std::move(envelope.msg), ctx);
  }
  Flush(ctx, step);
}

void Cluster::Flush(NodeContext& ctx, sim::StepContext& step) {
  for (Outgoing& out : ctx.outbox) {
    out.id = next_message_id_++;
    sim::Detail d;
    d.Add("id", out.id).Add("msg", MessageKindName(out.message)).Add("to", NodeName(out.to));
    step.Log(ctx.self.value, "send", d.view());
    if (script_.has_rules() && InterceptMessage(ctx.self, out, step)) continue;
    if (MaybeLeaseGap(ctx.self, out, step)) continue;
    Transmit(ctx.self, std::move(out), sim::Duration{0}, step);
  }
  ctx.outbox.clear();
  if (ctx.crashed) CrashNode(ctx.self, step);
}

void Cluster::CrashNode(NodeId node, sim::StepContext& step) {
  step.Log(node.value, "crash", NodeName(node));
  if (node == metasrv_id()) {
    if (!metasrv_.is_up()) return;
    metasrv_.Crash();
  } else if (IsDatanode(node)) {
    Datanode& dn = mutable_datanode(node);
    if (!dn.is_up()) return;
    FinishCheckpoints(dn, step);  // the task dies; its published checkpoint stands
    dn.Crash();
  } else {
    Frontend& fe = mutable_frontend(node);
    if (!fe.is_up()) return;
    NodeContext ctx(node, step, protocol_, history_);
    fe.Crash(ctx);
  }
  network_.DropNode(node.value);
  TraceLost("crash", step);
  DropHeldMessages(node, step);
  if (node == metasrv_id()) {
    // Each frontend's connection to the metasrv breaks: its DDL calls in flight fail.
    for (Frontend& fe : frontends_) {
      if (!fe.is_up()) continue;
      NodeContext ctx(fe.id(), step, protocol_, history_);
      fe.OnMetasrvLost(ctx);
      REPARTSIM_ASSERT(ctx.outbox.empty());
    }
  }
}

void Cluster::RestartNode(const RestartNodeOp& op, sim::StepContext& step) {
  const NodeId node = op.node;
  step.Log(node.value, "restart", NodeName(node));
  if (!network_.IsDown(node.value)) return;
  network_.RestoreNode(node.value);
  if (node == metasrv_id()) {
    // Leader start: heartbeats are served at once, procedures are recovered after the window.
    const sim::Duration window = ChooseLeaderStartWindow(config_.node_faults, step.chooser);
    sim::Status status = metasrv_.Restart(step.now, window);
    REPARTSIM_ASSERT_MSG(status.ok(), "metasrv recovery failed on its own records");
    if (window.ms > 0) {
      sim::Detail d;
      d.Add("window_ms", window.ms).Add("recover_at", (step.now + window).ms);
      step.Log(node.value, "ms.leader_start", d.view());
    }
    // Frontends reconnect their heartbeat streams; datanodes do at their next heartbeat.
    for (const Frontend& fe : frontends_) {
      if (fe.is_up()) network_.OpenStream(node.value, fe.id().value);
    }
  } else if (IsDatanode(node)) {
    const size_t index = DatanodeIndex(node);
    Datanode& dn = datanodes_[index];
    scripted_replay_failures_[index] = op.replay_failures;
    restarted_at_[index] = step.now;
    if (config_.init_regions_in_background) {
      dn.ReopenInBackground(step.now + config_.region_open);
      sim::Detail d;
      d.Add("regions", dn.pending_opens().size())
          .Add("first_at", (step.now + config_.region_open).ms);
      step.Log(node.value, "dn.opening", d.view());
    } else {
      OpenRegionsOf(dn, &scripted_replay_failures_[index], /*retry=*/false, step);
      scripted_replay_failures_[index] = 0;
    }
    next_heartbeat_[index] = step.now;
  } else {
    mutable_frontend(node).Restart();
    if (metasrv_.is_up()) network_.OpenStream(metasrv_id().value, node.value);
  }
}

ReplayFaults Cluster::ReplayFaultsOf(uint32_t* scripted, sim::StepContext& step) {
  ReplayFaults faults;
  faults.entry_fails = [this, scripted, &step] {
    if (scripted == nullptr || *scripted == 0) {
      return ChooseReplayFailure(config_.node_faults, step.chooser);
    }
    --*scripted;
    return true;
  };
  return faults;
}

void Cluster::LogReplayFailures(const Datanode& dn, const ReplayFaults& faults,
                                sim::StepContext& step) {
  for (const ReplayFaults::Failure& f : faults.failures) {
    sim::Detail d;
    d.Add("region", f.region.ToString()).Add("entry", f.entry_id).Add("rows", uint64_t{f.rows});
    step.Log(dn.id().value, f.open_failed ? "dn.open_failed" : "dn.replay_skip", d.view());
  }
}

void Cluster::OpenRegionsOf(Datanode& dn, uint32_t* scripted, bool retry, sim::StepContext& step) {
  ReplayFaults faults = ReplayFaultsOf(scripted, step);
  std::vector<RegionId> opened;
  if (retry) {
    opened = dn.RetryFailedOpens(object_store_, protocol_, &faults);
  } else {
    dn.Reopen(object_store_, protocol_, &faults);
  }
  LogReplayFailures(dn, faults, step);
  for (RegionId region : opened) step.Log(dn.id().value, "dn.reopen", region.ToString());
}

void Cluster::OpenNextRegion(size_t index, sim::StepContext& step) {
  Datanode& dn = datanodes_[index];
  ReplayFaults faults = ReplayFaultsOf(&scripted_replay_failures_[index], step);
  const std::optional<RegionId> opened =
      dn.OpenNextPending(object_store_, protocol_, &faults, step.now + config_.region_open);
  LogReplayFailures(dn, faults, step);
  if (opened) {
    sim::Detail d;
    d.Word(opened->ToString()).Add("pending", dn.pending_opens().size());
    step.Log(dn.id().value, "dn.open", d.view());
  }
  if (dn.pending_opens().empty()) scripted_replay_failures_[index] = 0;
}

bool Cluster::Idle() const {
  for (const Datanode& dn : datanodes_) {
    if (dn.is_up() && dn.NextPendingOpen()) return false;  // a background reopen goes on
  }
  return !metasrv_.procedures().HasActive() && ops_.empty() && network_.Pending().empty() &&
         held_.empty() && script_.armed_empty() && waiting_create_.empty();
}

uint64_t Cluster::Fingerprint() const {
  sim::Hasher h;
  h.Add(protocol_.bits()).Add(now_.ms);
  metasrv_.Hash(h);
  for (const Datanode& dn : datanodes_) dn.Hash(h);
  for (const Frontend& fe : frontends_) fe.Hash(h);
  object_store_.Hash(h);
  network_.Fingerprint(h, [](sim::Hasher& hh, const Message& m) { HashMessage(hh, m); });
  ops_.Fingerprint(h, [](sim::Hasher& hh, const ScheduledOp& op) { HashScheduledOp(hh, op); });
  for (sim::SimTime t : next_heartbeat_) h.Add(t.ms);
  for (sim::SimTime t : paused_until_) h.Add(t.ms);
  if (config_.gc_interval.ms > 0) h.Add(next_gc_.ms);  // only then, to keep fingerprints
  if (!config_.node_faults.compact.IsNever()) {        // only then: nothing else reads the requests
    for (const Datanode& dn : datanodes_) dn.HashCompactionRequests(h);
  }
  for (size_t i = 0; i < datanodes_.size(); ++i) {
    // Only while it decides something: a failed open waits for a heartbeat after the restart.
    if (!datanodes_[i].failed_opens().empty()) h.Add(uint64_t{i}).Add(restarted_at_[i].ms);
  }
  for (size_t i = 0; i < scripted_replay_failures_.size(); ++i) {
    if (scripted_replay_failures_[i] != 0)
      h.Add(uint64_t{i}).Add(uint64_t{scripted_replay_failures_[i]});
  }
  history_.Hash(h);
  // The scripted-fault state: rules, held messages, armed steps, states passed.
  script_.HashRules(h);
  held_.Hash(h);
  script_.HashArmed(h);
  h.Add(static_cast<uint64_t>(script_seqs_.size()));
  for (uint64_t seq : script_seqs_) h.Add(seq);
  h.Add(static_cast<uint64_t>(waiting_create_.size()));
  for (const ScheduledOp& op : waiting_create_) HashScheduledOp(h, op);
  return h.Finish();
}

uint64_t Cluster::DataFingerprint() const {
  sim::Hasher h;
  h.Add(static_cast<uint64_t>(datanodes_.size()));
  for (const Datanode& dn : datanodes_) dn.Hash(h);
  object_store_.Hash(h);
  return h.Finish();
}

}  // namespace repartsim::model
