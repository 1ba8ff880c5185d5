// The transport of a Cluster, as GreptimeDB has it: unary calls that may overtake each other,
// one ordered heartbeat stream per datanode and per frontend with the metasrv (resets lose
// everything in flight; the client end reconnects), the metasrv's handler-chain gap between
// computing a lease reply and pushing it, and the serial heartbeat session that handles
// nothing else of that datanode meanwhile.
#include <algorithm>

#include "model/cluster/cluster.h"
#include "sim/assert.h"

namespace repartsim::model {

void Cluster::Transmit(NodeId from, Outgoing out, sim::Duration extra, sim::StepContext& step,
                       bool behind_held) {
  const sim::Channel channel = ChannelOf(out.message);
  const NodeId to = out.to;
  if (channel == sim::Channel::kStream) {
    if (behind_held) {
      // A held stream message holds its line: later ones wait behind it, released with it.
      if (const HeldMessage* head = held_.LineHead(from, to)) {
        HeldMessage behind = *head;
        behind.out = std::move(out);
        behind.release_delay = sim::Duration{0};
        if (head->release_at) behind.release_at = head->release_at;
        step.Log(from.value, "net.behind_held",
                 std::string(MessageKindName(behind.out.message)) + " " + NodeName(from) + "->" +
                     NodeName(to) + " id=" + std::to_string(behind.out.id));
        held_.Add(std::move(behind));
        return;
      }
    }
    // The datanode or frontend end reconnects a stream that was reset.
    if (from != metasrv_id() && !network_.IsStreamOpen(from.value, to.value) &&
        !network_.IsDown(from.value) && !network_.IsDown(to.value)) {
      network_.OpenStream(from.value, to.value);
      step.Log(from.value, "net.reconnect", NodeName(from) + "->" + NodeName(to));
    }
  }
  sim::FaultProfile profile = config_.faults;
  profile.latency += extra;
  const char* kind = MessageKindName(out.message);
  const sim::SendResult result =
      network_.Send(step.now, from.value, to.value, std::move(out.message), step.chooser, profile,
                    channel, out.id);
  TraceSend(from, to, kind, step);
  if (result == sim::SendResult::kReset) OnStreamReset(from, to, step);
}

void Cluster::TraceSend(NodeId from, NodeId to, const char* kind, sim::StepContext& step) {
  const sim::SendNote& note = network_.last_send();
  if (note.loss != sim::SendLoss::kNone) {
    sim::Detail d;
    d.Add("id", note.id).Add("msg", kind).Add("from", NodeName(from)).Add("to", NodeName(to));
    d.Add("cause", sim::SendLossName(note.loss));
    step.Log(from.value, "net.drop", d.view());
    return;
  }
  if (note.duplicated) {
    sim::Detail d;
    d.Add("id", note.id).Add("msg", kind).Add("from", NodeName(from)).Add("to", NodeName(to));
    step.Log(from.value, "net.duplicate", d.view());
  }
  for (uint32_t copy = 0; copy < note.copies; ++copy) {
    if (note.extra_delay[copy].ms == 0) continue;
    sim::Detail d;
    d.Add("id", note.id).Add("msg", kind).Add("from", NodeName(from)).Add("to", NodeName(to));
    d.Add("extra_ms", note.extra_delay[copy].ms).Add("deliver_at", note.deliver_at[copy].ms);
    if (note.copies > 1) d.Add("copy", copy + 1);
    step.Log(from.value, "net.delay", d.view());
  }
}

void Cluster::TraceLost(std::string_view cause, sim::StepContext& step) {
  for (const auto& e : network_.TakeLost()) {
    sim::Detail d;
    d.Add("id", e.id).Add("msg", MessageKindName(e.msg));
    d.Add("from", NodeName(NodeId{e.from})).Add("to", NodeName(NodeId{e.to})).Add("cause", cause);
    step.Log(e.from, "net.lost", d.view());
  }
}

void Cluster::TraceLostHeld(NodeId from, const Outgoing& out, std::string_view cause,
                            sim::StepContext& step) {
  sim::Detail d;
  d.Add("id", out.id).Add("msg", MessageKindName(out.message));
  d.Add("from", NodeName(from)).Add("to", NodeName(out.to)).Add("cause", cause).Add("held", 1u);
  step.Log(from.value, "net.lost", d.view());
}

void Cluster::OnStreamReset(NodeId a, NodeId b, sim::StepContext& step) {
  const NodeId client = a == metasrv_id() ? b : a;
  step.Log(client.value, "net.reset", "metasrv<->" + NodeName(client));
  TraceLost("reset", step);
  // What the stream's ends kept back for it (a reply in the handler chain, a line held in the
  // network) is lost with it.
  for (const HeldMessage& m : held_.TakeIf([&](const HeldMessage& m) {
         return ChannelOf(m.out.message) == sim::Channel::kStream &&
                ((m.from == a && m.out.to == b) || (m.from == b && m.out.to == a));
       })) {
    TraceLostHeld(m.from, m.out, "reset", step);
  }
  const bool reachable = !network_.IsCut(a.value, b.value) && !network_.IsCut(b.value, a.value);
  if (IsDatanode(client)) {
    // The datanode sees the break, reconnects and sends a heartbeat at once; while the link
    // is cut the reconnect fails and it retries at its next heartbeat.
    if (reachable) next_heartbeat_[DatanodeIndex(client)] = step.now;
  } else if (IsFrontend(client) && !network_.IsDown(a.value) && !network_.IsDown(b.value)) {
    network_.OpenStream(a.value, b.value);
  }
}

bool Cluster::MaybeLeaseGap(NodeId from, Outgoing& out, sim::StepContext& step) {
  if (from != metasrv_id() || !std::holds_alternative<HeartbeatReply>(out.message.body)) {
    return false;
  }
  const std::optional<sim::Duration> gap = ChooseLeaseGap(config_.node_faults, step.chooser);
  if (!gap) return false;
  const sim::SimTime push_at = step.now + *gap;
  sim::Detail d;
  d.Add("id", out.id).Add("msg", "HeartbeatReply").Add("to", NodeName(out.to));
  d.Add("gap_ms", gap->ms).Add("push_at", push_at.ms);
  step.Log(from.value, "net.lease_gap", d.view());
  held_.Add(HeldMessage{from, std::move(out), std::string(), HeldMessage::kNoRule, sim::Duration{0},
                        push_at, /*head_of_line=*/false});
  return true;
}

bool Cluster::StreamConnected(NodeId a, NodeId b) const {
  return !network_.IsDown(a.value) && !network_.IsDown(b.value) &&
         network_.IsStreamOpen(a.value, b.value);
}

void Cluster::ReleaseHeld(size_t index, sim::StepContext& step) {
  SendHeld(held_.ReleaseBatch(index), std::string(), step);
}

void Cluster::SendHeld(std::vector<size_t> indices, const std::string& why,
                       sim::StepContext& step) {
  for (HeldMessage& m : held_.Take(std::move(indices))) {
    step.Log(m.from.value, "net.release",
             std::string(MessageKindName(m.out.message)) + " " + NodeName(m.from) + "->" +
                 NodeName(m.out.to) + why + " id=" + std::to_string(m.out.id));
    Transmit(m.from, std::move(m.out), sim::Duration{0}, step, /*behind_held=*/false);
  }
}

}  // namespace repartsim::model
