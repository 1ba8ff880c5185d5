#include "tools/demo/toy_system.h"

#include <algorithm>

#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/trace.h"

namespace repartsim::demo {

void ToyNode::Crash() {
  REPARTSIM_ASSERT(status_ == NodeStatus::kUp);
  status_ = NodeStatus::kDown;
  std::fill(seen_hops.begin(), seen_hops.end(), 0u);
  received = 0;
  outstanding.clear();
}

void ToyNode::Restart() {
  REPARTSIM_ASSERT(status_ == NodeStatus::kDown);
  status_ = NodeStatus::kUp;
  ++incarnation;
  seen_hops = persisted_hops;
  received = persisted_received;
}

ToySystem::ToySystem(ToyConfig config)
    : config_(config), nodes_(config.node_count), network_(config.node_count) {
  REPARTSIM_ASSERT(config_.node_count >= 2);
  REPARTSIM_ASSERT(config_.hops_max >= 1);
  for (ToyNode& node : nodes_) {
    node.persisted_hops.assign(config_.token_count, 0);
    node.seen_hops.assign(config_.token_count, 0);
  }
  for (uint32_t token = 0; token < config_.token_count; ++token) {
    timers_.Push(sim::AtMs(0), ToyTimer{TimerKind::kStart, token % config_.node_count, token});
  }
  for (sim::NodeId node = 0; node < config_.node_count; ++node) {
    timers_.Push(sim::AtMs(0) + config_.tick, ToyTimer{TimerKind::kTick, node, 0});
  }
  timers_.Push(sim::AtMs(0) + config_.chaos_period, ToyTimer{TimerKind::kChaos, 0, 0});
}

void ToySystem::Enabled(std::vector<sim::EnabledEvent>& out) const {
  const auto& pending = network_.Pending();
  for (size_t i = 0; i < pending.size(); ++i) {
    const auto& e = pending.At(i);
    out.push_back(sim::EnabledEvent{e.at, e.seq, e.payload.to,
                                    static_cast<uint32_t>(ToyEventKind::kDeliver), i});
  }
  for (size_t i = 0; i < timers_.size(); ++i) {
    const auto& e = timers_.At(i);
    out.push_back(sim::EnabledEvent{e.at, e.seq, e.payload.node,
                                    static_cast<uint32_t>(ToyEventKind::kTimer), i});
  }
}

void ToySystem::Fire(const sim::EnabledEvent& event, sim::StepContext& ctx) {
  if (event.kind == static_cast<uint32_t>(ToyEventKind::kDeliver)) {
    REPARTSIM_ASSERT(network_.Pending().At(event.ref).seq == event.seq);
    Deliver(event.ref, ctx);
    return;
  }
  REPARTSIM_ASSERT(event.kind == static_cast<uint32_t>(ToyEventKind::kTimer));
  REPARTSIM_ASSERT(timers_.At(event.ref).seq == event.seq);
  const ToyTimer timer = timers_.PopAt(event.ref).payload;
  OnTimer(timer, ctx);
}

void ToySystem::Deliver(size_t index, sim::StepContext& ctx) {
  sim::Network<ToyMsg>::Delivery d = network_.Take(index);
  const sim::Envelope<ToyMsg>& e = d.envelope;
  const char* kind = e.msg.kind == ToyMsgKind::kPing ? "ping" : "ack";
  if (!d.delivered) {
    ctx.Log(e.to, "drop_cut", sim::Detail().Add("from", e.from).Add("msg", kind).view());
    return;
  }
  ctx.Log(e.to, "recv",
          sim::Detail()
              .Add("from", e.from)
              .Add("msg", kind)
              .Add("token", e.msg.token)
              .Add("hops", e.msg.hops)
              .view());
  if (e.msg.kind == ToyMsgKind::kPing) {
    OnPing(e, ctx);
  } else {
    OnAck(e, ctx);
  }
}

void ToySystem::OnPing(const sim::Envelope<ToyMsg>& e, sim::StepContext& ctx) {
  if (ctx.ShouldCrash("toy.recv")) {
    CrashNode(e.to, "toy.recv", ctx);
    return;
  }
  ToyNode& node = nodes_[e.to];
  ++node.received;
  network_.Send(ctx.now, e.to, e.from, ToyMsg{ToyMsgKind::kAck, e.msg.token, e.msg.hops},
                ctx.chooser, config_.faults);
  uint32_t& seen = node.seen_hops[e.msg.token];
  if (seen > e.msg.hops) return;  // duplicate or stale: acknowledged, not forwarded
  seen = e.msg.hops + 1;
  if (e.msg.hops + 1 >= config_.hops_max) {
    ++tokens_finished_;
    ctx.Log(e.to, "finish", sim::Detail().Add("token", e.msg.token).view());
    return;
  }
  SendPing(e.to, e.msg.token, e.msg.hops + 1, ctx);
}

void ToySystem::OnAck(const sim::Envelope<ToyMsg>& e, sim::StepContext&) {
  std::vector<OutstandingPing>& out = nodes_[e.to].outstanding;
  std::erase_if(out, [&](const OutstandingPing& p) {
    return p.token == e.msg.token && p.hops == e.msg.hops && p.to == e.from;
  });
}

void ToySystem::SendPing(sim::NodeId from, uint32_t token, uint32_t hops, sim::StepContext& ctx) {
  const sim::NodeId to = (from + 1) % config_.node_count;
  network_.Send(ctx.now, from, to, ToyMsg{ToyMsgKind::kPing, token, hops}, ctx.chooser,
                config_.faults);
  nodes_[from].outstanding.push_back(
      OutstandingPing{token, hops, to, ctx.now + config_.retry_after, 1});
}

void ToySystem::OnTimer(const ToyTimer& timer, sim::StepContext& ctx) {
  switch (timer.kind) {
    case TimerKind::kStart:
      if (nodes_[timer.node].status() == NodeStatus::kDown) {  // untimed drivers reorder
        ctx.Log(timer.node, "start_lost", sim::Detail().Add("token", timer.token).view());
        return;
      }
      ctx.Log(timer.node, "start", sim::Detail().Add("token", timer.token).view());
      SendPing(timer.node, timer.token, 0, ctx);
      return;
    case TimerKind::kTick:
      OnTick(timer.node, ctx);
      return;
    case TimerKind::kRestart:
      nodes_[timer.node].Restart();
      network_.RestoreNode(timer.node);
      ctx.Log(timer.node, "restart",
              sim::Detail().Add("incarnation", nodes_[timer.node].incarnation).view());
      timers_.Push(ctx.now + config_.tick, ToyTimer{TimerKind::kTick, timer.node, 0});
      return;
    case TimerKind::kChaos:
      OnChaos(ctx);
      return;
  }
  REPARTSIM_UNREACHABLE();
}

void ToySystem::OnTick(sim::NodeId id, sim::StepContext& ctx) {
  ctx.Log(id, "tick");
  if (ctx.ShouldCrash("toy.tick.before_persist")) {
    CrashNode(id, "toy.tick.before_persist", ctx);
    return;
  }
  ToyNode& node = nodes_[id];
  node.persisted_hops = node.seen_hops;
  node.persisted_received = node.received;
  if (ctx.ShouldCrash("toy.tick.after_persist")) {
    CrashNode(id, "toy.tick.after_persist", ctx);
    return;
  }
  for (OutstandingPing& p : node.outstanding) {
    if (p.deadline > ctx.now || p.attempts >= config_.attempts_max) continue;
    ++p.attempts;
    p.deadline = ctx.now + config_.retry_after;
    ctx.Log(id, "retry", sim::Detail().Add("token", p.token).Add("hops", p.hops).view());
    network_.Send(ctx.now, id, p.to, ToyMsg{ToyMsgKind::kPing, p.token, p.hops}, ctx.chooser,
                  config_.faults);
  }
  std::erase_if(node.outstanding, [&](const OutstandingPing& p) {
    return p.attempts >= config_.attempts_max && p.deadline <= ctx.now;
  });
  timers_.Push(ctx.now + config_.tick, ToyTimer{TimerKind::kTick, id, 0});
}

void ToySystem::OnChaos(sim::StepContext& ctx) {
  if (ctx.chooser.Chance("toy.partition", config_.partition_ratio)) {
    const sim::NodeId victim = ctx.chooser.Choose("toy.partition.node", config_.node_count);
    const bool symmetric = ctx.chooser.Chance("toy.partition.symmetric", sim::Ratio{1, 2});
    std::vector<sim::NodeId> others;
    for (sim::NodeId n = 0; n < config_.node_count; ++n) {
      if (n != victim) others.push_back(n);
    }
    network_.Heal();
    network_.Partition({victim}, others, symmetric);
    ctx.Log(sim::kNoNode, "partition",
            sim::Detail().Add("victim", victim).Add("symmetric", symmetric ? 1u : 0u).view());
  } else if (network_.AnyCut()) {
    network_.Heal();
    ctx.Log(sim::kNoNode, "heal");
  }
  timers_.Push(ctx.now + config_.chaos_period, ToyTimer{TimerKind::kChaos, 0, 0});
}

void ToySystem::CrashNode(sim::NodeId id, std::string_view site, sim::StepContext& ctx) {
  ++crashes_;
  nodes_[id].Crash();
  const size_t lost = network_.DropNode(id);
  timers_.RemoveIf([id](const ToyTimer& t) { return t.node == id && t.kind == TimerKind::kTick; });
  ctx.Log(id, "crash", sim::Detail().Add("site", site).Add("lost_msgs", uint64_t{lost}).view());
  timers_.Push(ctx.now + config_.restart_after, ToyTimer{TimerKind::kRestart, id, 0});
}

uint64_t ToySystem::Fingerprint() const {
  sim::Hasher h;
  for (const ToyNode& node : nodes_) {
    h.Add(uint64_t{node.status_ == NodeStatus::kUp})
        .Add(node.persisted_received)
        .Add(uint64_t{node.incarnation})
        .Add(node.received);
    for (uint32_t v : node.persisted_hops) h.Add(v);
    for (uint32_t v : node.seen_hops) h.Add(v);
    h.Add(uint64_t{node.outstanding.size()});
    for (const OutstandingPing& p : node.outstanding) {
      h.Add(p.token).Add(p.hops).Add(p.to).Add(p.deadline.ms).Add(p.attempts);
    }
  }
  network_.Fingerprint(h, [](sim::Hasher& hh, const ToyMsg& m) {
    hh.Add(uint64_t{static_cast<uint8_t>(m.kind)}).Add(m.token).Add(m.hops);
  });
  timers_.Fingerprint(h, [](sim::Hasher& hh, const ToyTimer& t) {
    hh.Add(uint64_t{static_cast<uint8_t>(t.kind)}).Add(t.node).Add(t.token);
  });
  h.Add(tokens_finished_);
  return h.Finish();
}

}  // namespace repartsim::demo
