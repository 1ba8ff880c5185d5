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
      auto head = std::find_if(held_.rbegin(), held_.rend(), [&](const HeldMessage& m) {
        return m.head_of_line && m.from == from && m.out.to == to;
      });
      if (head != held_.rend()) {
        HeldMessage behind = *head;
        behind.out = std::move(out);
        behind.release_delay = sim::Duration{0};
        if (head->release_at) behind.release_at = head->release_at;
        step.Log(from.value, "net.behind_held",
                 std::string(MessageKindName(behind.out.message)) + " " + NodeName(from) + "->" +
                     NodeName(to) + " id=" + std::to_string(behind.out.id));
        held_.push_back(std::move(behind));
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
  std::erase_if(held_, [&](const HeldMessage& m) {
    const bool lost = ChannelOf(m.out.message) == sim::Channel::kStream &&
                      ((m.from == a && m.out.to == b) || (m.from == b && m.out.to == a));
    if (lost) TraceLostHeld(m.from, m.out, "reset", step);
    return lost;
  });
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
  const NodeFaults& faults = config_.node_faults;
  if (faults.lease_gap_ms_max.ms <= 0 || !step.chooser.Chance("net.lease_gap", faults.lease_gap)) {
    return false;
  }
  REPARTSIM_ASSERT(faults.lease_gap_ms_max.ms <= int64_t{0xffffffff});
  const uint32_t extra =
      step.chooser.Choose("net.lease_gap_ms", static_cast<uint32_t>(faults.lease_gap_ms_max.ms));
  const sim::SimTime push_at = step.now + sim::Ms(1 + int64_t{extra});
  sim::Detail d;
  d.Add("id", out.id).Add("msg", "HeartbeatReply").Add("to", NodeName(out.to));
  d.Add("gap_ms", 1 + int64_t{extra}).Add("push_at", push_at.ms);
  step.Log(from.value, "net.lease_gap", d.view());
  HeldMessage held{from,
                   std::move(out),
                   std::string(),
                   kNoRule,
                   sim::Duration{0},
                   push_at,
                   /*head_of_line=*/false};
  held_.push_back(std::move(held));
  return true;
}

bool Cluster::StreamConnected(NodeId a, NodeId b) const {
  return !network_.IsDown(a.value) && !network_.IsDown(b.value) &&
         network_.IsStreamOpen(a.value, b.value);
}

bool Cluster::SessionBusy(NodeId dn) const {
  return std::any_of(held_.begin(), held_.end(), [&](const HeldMessage& m) {
    return m.from == metasrv_id() && m.out.to == dn &&
           std::holds_alternative<HeartbeatReply>(m.out.message.body);
  });
}

void Cluster::ReleaseHeld(size_t index, sim::StepContext& step) {
  REPARTSIM_ASSERT(index < held_.size() && held_[index].release_at.has_value());
  const HeldMessage& first = held_[index];
  std::vector<size_t> batch = {index};
  if (first.head_of_line) {
    // The line behind a held stream message moves with it.
    for (size_t i = index + 1; i < held_.size(); ++i) {
      const HeldMessage& m = held_[i];
      if (m.head_of_line && m.from == first.from && m.out.to == first.out.to &&
          m.release_at == first.release_at) {
        batch.push_back(i);
      }
    }
  }
  SendHeld(std::move(batch), std::string(), step);
}

void Cluster::SendHeld(std::vector<size_t> indices, const std::string& why,
                       sim::StepContext& step) {
  std::sort(indices.begin(), indices.end());
  std::vector<HeldMessage> batch;
  for (size_t i : indices) batch.push_back(std::move(held_[i]));
  for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
    held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(*it));
  }
  for (HeldMessage& m : batch) {
    step.Log(m.from.value, "net.release",
             std::string(MessageKindName(m.out.message)) + " " + NodeName(m.from) + "->" +
                 NodeName(m.out.to) + why + " id=" + std::to_string(m.out.id));
    Transmit(m.from, std::move(m.out), sim::Duration{0}, step, /*behind_held=*/false);
  }
}

}  // namespace repartsim::model
