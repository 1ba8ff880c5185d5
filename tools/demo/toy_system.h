// ToySystem: a small ring of nodes passing tokens, used to test and benchmark the engine.
// Each token is a Ping forwarded to the next node (hops+1) until hops_max; every Ping is
// acknowledged, unacknowledged Pings are retransmitted on the sender's tick. Nodes crash at
// named crash points ("toy.recv", "toy.tick.before_persist", "toy.tick.after_persist") and
// restart after restart_after from durable state (last persisted per-token hops and receive
// count); volatile state (outstanding pings, unpersisted progress) is lost. A global chaos
// timer partitions one node away (symmetric or one-way) or heals. Implements sim::Model:
// all pending work (messages, timers) is plain data inside the value.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/event_queue.h"
#include "sim/network.h"
#include "sim/simulation.h"
#include "tools/demo/toy_node.h"

namespace repartsim::demo {

struct ToyConfig {
  uint32_t node_count = 4;
  uint32_t token_count = 3;
  uint32_t hops_max = 30;
  uint32_t attempts_max = 5;  // sends of one ping, first one included
  sim::Duration tick{20};
  sim::Duration retry_after{30};
  sim::Duration restart_after{50};
  sim::Duration chaos_period{100};
  sim::Ratio partition_ratio{1, 4};  // per chaos tick: partition (else heal)
  sim::FaultProfile faults{sim::Ratio{1, 20}, sim::Ratio{1, 20}, sim::Ratio{1, 5},
                           sim::Duration{25}, sim::Duration{1}};
};

enum class ToyMsgKind : uint8_t { kPing, kAck };

struct ToyMsg {
  ToyMsgKind kind = ToyMsgKind::kPing;
  uint32_t token = 0;
  uint32_t hops = 0;
};

struct OutstandingPing {
  uint32_t token = 0;
  uint32_t hops = 0;
  sim::NodeId to = 0;
  sim::SimTime deadline;
  uint32_t attempts = 0;
};

// One node; satisfies sim::NodeLike.
struct ToyNode {
  NodeStatus status_ = NodeStatus::kUp;
  // Durable: survives a crash.
  std::vector<uint32_t> persisted_hops;  // per token: highest hops persisted + 1, 0 = none
  uint64_t persisted_received = 0;
  uint32_t incarnation = 0;
  // Volatile: rebuilt from durable state on restart.
  std::vector<uint32_t> seen_hops;  // per token: highest hops seen + 1, 0 = none
  uint64_t received = 0;
  std::vector<OutstandingPing> outstanding;

  void Crash();
  void Restart();
  NodeStatus status() const { return status_; }
};
static_assert(NodeLike<ToyNode>);

enum class ToyEventKind : uint32_t { kDeliver = 0, kTimer = 1 };
enum class TimerKind : uint8_t { kStart, kTick, kRestart, kChaos };

struct ToyTimer {
  TimerKind kind = TimerKind::kTick;
  sim::NodeId node = 0;
  uint32_t token = 0;  // kStart only
};

class ToySystem {
 public:
  explicit ToySystem(ToyConfig config);

  void Enabled(std::vector<sim::EnabledEvent>& out) const;
  void Fire(const sim::EnabledEvent& event, sim::StepContext& ctx);
  uint64_t Fingerprint() const;

  const std::vector<ToyNode>& nodes() const { return nodes_; }
  const sim::Network<ToyMsg>& network() const { return network_; }
  uint64_t tokens_finished() const { return tokens_finished_; }
  uint64_t crashes() const { return crashes_; }

 private:
  void Deliver(size_t index, sim::StepContext& ctx);
  void OnPing(const sim::Envelope<ToyMsg>& e, sim::StepContext& ctx);
  void OnAck(const sim::Envelope<ToyMsg>& e, sim::StepContext& ctx);
  void OnTimer(const ToyTimer& timer, sim::StepContext& ctx);
  void OnTick(sim::NodeId node, sim::StepContext& ctx);
  void OnChaos(sim::StepContext& ctx);
  void SendPing(sim::NodeId from, uint32_t token, uint32_t hops, sim::StepContext& ctx);
  void CrashNode(sim::NodeId node, std::string_view site, sim::StepContext& ctx);

  ToyConfig config_;
  std::vector<ToyNode> nodes_;
  sim::Network<ToyMsg> network_;
  sim::EventQueue<ToyTimer> timers_;
  uint64_t tokens_finished_ = 0;
  uint64_t crashes_ = 0;
};

static_assert(sim::Model<ToySystem>);

}  // namespace repartsim::demo
