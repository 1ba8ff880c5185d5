// Faults of a Cluster. Scripted: the fault actions of a scenario (fault_action.h), per-kind
// message rules (drop, delay, duplicate, hold until a procedure state has passed, reorder two
// messages), steps armed on a procedure state, an explicit lease expiry, and the fingerprint of
// that state. Random node faults: datanode pauses and the metasrv's leader-start window. Kept
// apart from cluster.cc, which holds the event loop.
#include <algorithm>

#include "model/cluster/cluster.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

bool Matches(const MessageRule& rule, NodeId from, const Outgoing& out) {
  if (rule.from && *rule.from != from) return false;
  if (rule.to && *rule.to != out.to) return false;
  if (rule.kind == MessageKindName(out.message)) return true;
  const auto* request = std::get_if<RegionRequest>(&out.message.body);
  return request != nullptr && rule.kind == RegionOpName(request->op());
}

}  // namespace

void Cluster::ScheduleAfterState(std::string state, uint32_t occurrence, sim::Duration delay,
                                 ScheduledOp op) {
  REPARTSIM_ASSERT(occurrence >= 1);
  track_states_ = true;
  armed_.push_back(ArmedOp{std::move(state), occurrence, delay, std::move(op), std::nullopt});
}

void Cluster::SendWith(NodeId from, Outgoing out, sim::Duration extra, sim::StepContext& step) {
  Transmit(from, std::move(out), extra, step);
}

bool Cluster::InterceptMessage(NodeId from, Outgoing& out, sim::StepContext& step) {
  for (size_t i = 0; i < message_rules_.size(); ++i) {
    ActiveRule& active = message_rules_[i];
    if (active.spent() || !Matches(active.rule, from, out)) continue;
    const MessageRule& rule = active.rule;
    const std::string what = std::string(MessageActionName(rule.action)) + " " +
                             MessageKindName(out.message) + " " + NodeName(from) + "->" +
                             NodeName(out.to);
    const std::string id = " id=" + std::to_string(out.id);
    switch (rule.action) {
      case MessageAction::kDrop:
        ++active.matched;
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
        ++active.matched;
        step.Log(from.value, "net.rule", what + " +" + std::to_string(rule.delay.ms) + "ms" + id);
        SendWith(from, std::move(out), rule.delay, step);
        return true;
      case MessageAction::kDuplicate: {
        ++active.matched;
        step.Log(
            from.value, "net.rule",
            what + (rule.delay.ms > 0 ? " +" + std::to_string(rule.delay.ms) + "ms" : "") + id);
        // The network never duplicates: a second copy of a frontend's write is the frontend
        // resending it (an application retry), which its statement knows of.
        if (const auto* write = std::get_if<WriteRequest>(&out.message.body);
            write != nullptr && IsFrontend(from)) {
          NodeContext ctx(from, step, protocol_, history_);
          mutable_frontend(from).NoteResent(write->corr, ctx);
        }
        SendWith(from, out, sim::Duration{0}, step);
        SendWith(from, std::move(out), rule.delay, step);
        return true;
      }
      case MessageAction::kHold: {
        ++active.matched;
        // A lease reply waits in the metasrv's handler chain (later pushes pass it); any other
        // stream message holds its stream's line; a call waits alone.
        const bool head_of_line = ChannelOf(out.message) == sim::Channel::kStream &&
                                  !std::holds_alternative<HeartbeatReply>(out.message.body);
        step.Log(from.value, "net.rule",
                 what + " until " + rule.until_state +
                     (rule.delay.ms > 0 ? " +" + std::to_string(rule.delay.ms) + "ms" : "") + id);
        held_.push_back(HeldMessage{from, std::move(out), rule.until_state, i, rule.delay,
                                    std::nullopt, head_of_line});
        return true;
      }
      case MessageAction::kReorder: {
        auto held = std::find_if(held_.begin(), held_.end(), [&](const HeldMessage& m) {
          return m.until_state.empty() && !m.release_at && m.rule == i;
        });
        if (held == held_.end()) {
          step.Log(from.value, "net.rule", what + " (held for the next one)" + id);
          held_.push_back(HeldMessage{from, std::move(out), std::string(), i, sim::Duration{0},
                                      std::nullopt, false});
          return true;
        }
        ++active.matched;
        HeldMessage first = std::move(*held);
        held_.erase(held);
        step.Log(from.value, "net.rule", what + " (sent before the held one)" + id);
        SendWith(from, std::move(out), sim::Duration{0}, step);
        SendWith(first.from, std::move(first.out), sim::Ms(1), step);
        return true;
      }
    }
    REPARTSIM_UNREACHABLE();
  }
  return false;
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
  const uint32_t times = ++passed_[before];
  step.Log(metasrv_id().value, "ms.state_passed",
           before + " procedure=" + std::to_string(id.value) + " times=" + std::to_string(times));
  std::vector<ScheduledOp> now_ops;
  for (size_t i = 0; i < armed_.size();) {
    ArmedOp& armed = armed_[i];
    if (armed.due || armed.state != before || armed.occurrence != times) {
      ++i;
    } else if (armed.delay.ms > 0) {
      armed.due = step.now + armed.delay;
      ++i;
    } else {
      now_ops.push_back(std::move(armed.op));
      armed_.erase(armed_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  std::vector<size_t> release;
  for (size_t i = 0; i < held_.size(); ++i) {
    HeldMessage& m = held_[i];
    if (m.until_state.empty() || m.until_state != before) continue;
    m.until_state.clear();
    if (m.release_delay.ms > 0) {
      m.release_at = step.now + m.release_delay;  // released by a kHeldRelease event
    } else {
      release.push_back(i);
    }
  }
  if (!release.empty()) SendHeld(std::move(release), std::string(), step);
  for (ScheduledOp& op : now_ops) ExecuteOp(op, step);
}

void Cluster::EndScriptedFaults(sim::StepContext& step) {
  std::vector<size_t> all(held_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  message_rules_.clear();
  SendHeld(std::move(all), " (safety phase ended)", step);
  for (const ArmedOp& a : armed_) {
    step.Log(sim::kNoNode, "op.disarmed",
             std::string(ScheduledOpName(a.op)) + " after " + a.state + " #" +
                 std::to_string(a.occurrence) +
                 (a.due ? ": due after the safety phase" : ": the state never passed"));
  }
  armed_.clear();
}

void Cluster::RunArmedOp(size_t index, sim::StepContext& step) {
  REPARTSIM_ASSERT(index < armed_.size() && armed_[index].due.has_value());
  ScheduledOp op = std::move(armed_[index].op);
  armed_.erase(armed_.begin() + static_cast<std::ptrdiff_t>(index));
  ExecuteOp(op, step);
}

void Cluster::ExpireLeasesNow(NodeId node, sim::StepContext& step) {
  Datanode& dn = mutable_datanode(node);
  if (!dn.is_up()) return;
  for (RegionId region : dn.ExpireLeases(sim::SimTime{INT64_MAX}, protocol_)) {
    step.Log(dn.id().value, "dn.lease_expired", region.ToString());
  }
}

void Cluster::DropHeldMessages(NodeId node, sim::StepContext& step) {
  std::erase_if(held_, [&](const HeldMessage& m) {
    const bool lost = m.from == node || m.out.to == node;
    if (lost) TraceLostHeld(m.from, m.out, "crash", step);
    return lost;
  });
}

void Cluster::RunFaultAction(FaultAction& op, sim::StepContext& step) {
  if (auto* crash = std::get_if<CrashNodeOp>(&op)) return CrashNode(crash->node, step);
  if (auto* restart = std::get_if<RestartNodeOp>(&op)) return RestartNode(restart->node, step);
  if (auto* flush = std::get_if<FlushOp>(&op)) {
    Datanode& dn = mutable_datanode(flush->node);
    if (!dn.is_up()) return;
    NodeContext ctx(dn.id(), step, protocol_, history_);
    Reply reply = dn.HandleFlush(flush->region, object_store_, ctx, protocol_);
    ctx.Log("dn.flush", flush->region.ToString() + " " + std::string(ReplyCodeName(reply.code)));
    Flush(ctx, step);
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
    if (!rule->rule.until_state.empty()) track_states_ = true;
    message_rules_.push_back(ActiveRule{std::move(rule->rule), 0});
    return;
  }
  if (auto* expire = std::get_if<ExpireLeaseOp>(&op)) return ExpireLeasesNow(expire->node, step);
  if (auto* stale = std::get_if<StaleCacheOp>(&op)) {
    frontends_[stale->frontend_index].SetIgnoreInvalidations(stale->table,
                                                             stale->ignore_invalidations);
    return;
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::HashScriptedFaults(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(message_rules_.size()));
  for (const ActiveRule& r : message_rules_) {
    HashMessageRule(h, r.rule);
    h.Add(r.matched);
  }
  h.Add(static_cast<uint64_t>(held_.size()));
  for (const HeldMessage& m : held_) {
    h.Add(m.from.value).Add(m.out.to.value).Add(m.until_state).Add(static_cast<uint64_t>(m.rule));
    h.Add(m.release_delay.ms).Add(m.release_at ? m.release_at->ms : int64_t{-1});
    h.Add(m.head_of_line);
    HashMessage(h, m.out.message);
  }
  h.Add(static_cast<uint64_t>(armed_.size()));
  for (const ArmedOp& a : armed_) {
    h.Add(a.state).Add(a.occurrence).Add(a.delay.ms).Add(a.due ? a.due->ms : int64_t{-1});
    HashScheduledOp(h, a.op);
  }
  for (const auto& [state, times] : passed_) h.Add(state).Add(times);
  h.Add(track_states_);
}

bool Cluster::MaybePause(NodeId node, sim::StepContext& step) {
  const NodeFaults& faults = config_.node_faults;
  if (step.now <= paused_until_[node.value] || faults.pause_ms_max.ms <= 0 ||
      !step.chooser.Chance("net.pause", faults.pause)) {
    return false;
  }
  REPARTSIM_ASSERT(faults.pause_ms_max.ms <= int64_t{0xffffffff});
  const uint32_t extra =
      step.chooser.Choose("net.pause_ms", static_cast<uint32_t>(faults.pause_ms_max.ms));
  paused_until_[node.value] = step.now + sim::Ms(1 + int64_t{extra});
  sim::Detail d;
  d.Add("node", NodeName(node)).Add("pause_ms", 1 + int64_t{extra});
  d.Add("until", paused_until_[node.value].ms);
  step.Log(node.value, "net.pause", d.view());
  return true;
}

sim::Duration Cluster::ChooseLeaderStartWindow(sim::StepContext& step) {
  const sim::Duration window_max = config_.node_faults.leader_start_ms_max;
  if (window_max.ms <= 0) return sim::Duration{0};
  REPARTSIM_ASSERT(window_max.ms < int64_t{0xffffffff});
  return sim::Ms(
      step.chooser.Choose("net.leader_start_ms", static_cast<uint32_t>(window_max.ms) + 1));
}

}  // namespace repartsim::model
