// Network<Msg>: simulated node-to-node messages with per-message faults and partitions.
// Value type (copy = snapshot); Msg must be copyable plain data. Nodes are 0..node_count-1.
// Send decides, in this fixed order, each through the Chooser (forced ratios cost nothing):
//   1. dropped without a choice if the link from->to is cut or either node is down;
//   2. Chance("net.drop", drop); 3. Chance("net.duplicate", duplicate) -> two copies;
//   4. per copy: Chance("net.delay", delay), then extra = 1 + Choose("net.delay_ms",
//      delay_ms_max.ms) ms; delivery at now + latency + extra.
// A message whose link is cut when it is taken for delivery is dropped then (Take returns
// delivered=false). DropNode (crash) removes in-flight messages to/from the node and drops
// later sends until RestoreNode. Pending() exposes deliveries in (time, seq) order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/assert.h"
#include "sim/chooser.h"
#include "sim/event_queue.h"
#include "sim/fingerprint.h"
#include "sim/ratio.h"
#include "sim/time.h"

namespace repartsim::sim {

using NodeId = uint32_t;

struct FaultProfile {
  Ratio drop = Ratio::Never();
  Ratio duplicate = Ratio::Never();
  Ratio delay = Ratio::Never();
  Duration delay_ms_max{0};  // extra delay is uniform in [1, delay_ms_max] ms
  Duration latency{1};       // base latency of every message
};

struct NetworkCounters {
  uint64_t sent = 0;               // Send calls
  uint64_t delivered = 0;          // Take calls that delivered
  uint64_t dropped_fault = 0;      // net.drop said yes
  uint64_t dropped_partition = 0;  // cut at send or at delivery
  uint64_t dropped_down = 0;       // endpoint down at send, or removed by DropNode
  uint64_t duplicated = 0;
  uint64_t delayed = 0;  // copies given extra delay
  // "sent=.. delivered=.. dropped_fault=.. dropped_partition=.. dropped_down=.. duplicated=..
  // delayed=.."
  std::string ToString() const;
};

template <class Msg>
struct Envelope {
  NodeId from = 0;
  NodeId to = 0;
  uint64_t id = 0;  // per-network message id; both copies of a duplicate share it
  Msg msg;
};

template <class Msg>
class Network {
 public:
  using Queue = EventQueue<Envelope<Msg>>;

  struct Delivery {
    SimTime at;
    Envelope<Msg> envelope;
    bool delivered = true;  // false: dropped because the link was cut at delivery time
  };

  explicit Network(uint32_t node_count)
      : node_count_(node_count), cut_(size_t{node_count} * node_count, 0), down_(node_count, 0) {}

  void Send(SimTime now, NodeId from, NodeId to, Msg msg, Chooser& chooser,
            const FaultProfile& profile) {
    CheckNode(from);
    CheckNode(to);
    ++counters_.sent;
    const uint64_t id = next_message_id_++;
    if (down_[from] || down_[to]) {
      ++counters_.dropped_down;
      return;
    }
    if (IsCut(from, to)) {
      ++counters_.dropped_partition;
      return;
    }
    if (chooser.Chance("net.drop", profile.drop)) {
      ++counters_.dropped_fault;
      return;
    }
    const bool duplicate = chooser.Chance("net.duplicate", profile.duplicate);
    if (duplicate) {
      ++counters_.duplicated;
      Schedule(now, Envelope<Msg>{from, to, id, msg}, chooser, profile);
    }
    Schedule(now, Envelope<Msg>{from, to, id, std::move(msg)}, chooser, profile);
  }

  // Cuts every link a->b for a in `side_a`, b in `side_b` (and b->a when symmetric).
  void Partition(const std::vector<NodeId>& side_a, const std::vector<NodeId>& side_b,
                 bool symmetric) {
    for (NodeId a : side_a) {
      for (NodeId b : side_b) {
        CheckNode(a);
        CheckNode(b);
        if (a == b) continue;
        cut_[Link(a, b)] = 1;
        if (symmetric) cut_[Link(b, a)] = 1;
      }
    }
  }
  // Restores every link.
  void Heal() { std::fill(cut_.begin(), cut_.end(), uint8_t{0}); }
  bool IsCut(NodeId from, NodeId to) const { return cut_[Link(from, to)] != 0; }
  bool AnyCut() const {
    for (uint8_t c : cut_) {
      if (c) return true;
    }
    return false;
  }

  // The node crashed: its in-flight messages (either direction) vanish; returns their count.
  size_t DropNode(NodeId node) {
    CheckNode(node);
    down_[node] = 1;
    const size_t removed =
        queue_.RemoveIf([node](const Envelope<Msg>& e) { return e.from == node || e.to == node; });
    counters_.dropped_down += removed;
    return removed;
  }
  void RestoreNode(NodeId node) {
    CheckNode(node);
    down_[node] = 0;
  }
  bool IsDown(NodeId node) const { return down_[node] != 0; }

  // Pending deliveries in (time, seq) order.
  const Queue& Pending() const { return queue_; }

  // Removes the index-th pending delivery (in Pending() order) for delivery.
  Delivery Take(size_t index) {
    typename Queue::Entry entry = queue_.PopAt(index);
    const bool cut = IsCut(entry.payload.from, entry.payload.to);
    REPARTSIM_ASSERT(!down_[entry.payload.to]);  // DropNode removed these
    if (cut) {
      ++counters_.dropped_partition;
    } else {
      ++counters_.delivered;
    }
    return Delivery{entry.at, std::move(entry.payload), !cut};
  }

  // Hashes pending messages (via hash_msg(Hasher&, const Msg&)), cuts and down nodes.
  template <class HashMsg>
  void Fingerprint(Hasher& h, HashMsg hash_msg) const {
    h.Add(uint64_t{node_count_});
    queue_.Fingerprint(h, [&](Hasher& hh, const Envelope<Msg>& e) {
      hh.Add(uint64_t{e.from}).Add(uint64_t{e.to});
      hash_msg(hh, e.msg);
    });
    for (uint8_t c : cut_) h.Add(uint64_t{c});
    for (uint8_t d : down_) h.Add(uint64_t{d});
  }

  const NetworkCounters& counters() const { return counters_; }
  uint32_t node_count() const { return node_count_; }

 private:
  void CheckNode(NodeId node) const { REPARTSIM_ASSERT(node < node_count_); }
  size_t Link(NodeId from, NodeId to) const { return size_t{from} * node_count_ + to; }

  void Schedule(SimTime now, Envelope<Msg> envelope, Chooser& chooser,
                const FaultProfile& profile) {
    REPARTSIM_ASSERT(profile.latency.ms >= 0);
    Duration delay = profile.latency;
    if (profile.delay_ms_max.ms > 0 && chooser.Chance("net.delay", profile.delay)) {
      REPARTSIM_ASSERT(profile.delay_ms_max.ms <= int64_t{0xffffffff});
      const uint32_t options = static_cast<uint32_t>(profile.delay_ms_max.ms);
      delay += Ms(1 + int64_t{chooser.Choose("net.delay_ms", options)});
      ++counters_.delayed;
    }
    queue_.Push(now + delay, std::move(envelope));
  }

  uint32_t node_count_;
  std::vector<uint8_t> cut_;   // cut_[from * node_count_ + to] != 0: link blocked
  std::vector<uint8_t> down_;  // down_[node] != 0: crashed
  Queue queue_;
  NetworkCounters counters_;
  uint64_t next_message_id_ = 0;
};

}  // namespace repartsim::sim
