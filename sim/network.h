// Network<Msg>: simulated node-to-node messages over two kinds of channel, as gRPC has them:
// - Calls (Channel::kCall): independent unary requests and their replies. Each may be dropped
//   or delayed on its own, so calls overtake each other freely.
// - Streams (Channel::kStream): one ordered stream per pair of nodes (the heartbeat stream of
//   a datanode or frontend with the metasrv), FIFO in each direction. A delay holds the head of
//   the line: a message never arrives before one sent earlier on the same directed stream. A
//   stream is never lossy without breaking: a reset loses every message in flight in both
//   directions and closes the stream until OpenStream (the client reconnects).
// Value type (copy = snapshot); Msg must be copyable plain data. Nodes are 0..node_count-1.
// Send decides, in this fixed order, each through the Chooser (forced ratios cost nothing):
//   1. dropped without a choice if either node is down;
//   2. a cut link: a call is dropped, a stream is reset (no choice);
//   3. a stream that was reset and not reopened: dropped (no choice);
//   4. calls: Chance("net.drop", drop), Chance("net.duplicate", duplicate) -> two copies;
//      streams: Chance("net.reset", reset) -> the stream is reset, the message lost;
//   5. per copy: Chance("net.delay", delay), then extra = 1 + Choose("net.delay_ms",
//      delay_ms_max.ms) ms; delivery at now + latency + extra, and on a stream no earlier than
//      the last message queued on it.
// A message whose link is cut when it is taken for delivery is dropped then (Take returns
// delivered=false; a stream is reset). DropNode (crash) removes in-flight messages to/from the
// node, closes its streams and drops later sends until RestoreNode. Pending() exposes
// deliveries in (time, seq) order; only Deliverable() ones may be taken (the head of each
// directed stream, every call).
// For traces: last_send() says what the latest Send decided (message id, why it was lost,
// duplicate, the extra delay of each copy); with RecordLost(true) every in-flight message a
// reset or DropNode removes is kept until TakeLost().
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

enum class Channel : uint8_t { kCall, kStream };

struct FaultProfile {
  Ratio drop = Ratio::Never();       // calls only
  Ratio duplicate = Ratio::Never();  // calls only
  Ratio delay = Ratio::Never();
  Duration delay_ms_max{0};      // extra delay is uniform in [1, delay_ms_max] ms
  Duration latency{1};           // base latency of every message
  Ratio reset = Ratio::Never();  // streams only: a send resets the stream
};

struct NetworkCounters {
  uint64_t sent = 0;               // Send calls
  uint64_t delivered = 0;          // Take calls that delivered
  uint64_t dropped_fault = 0;      // net.drop said yes
  uint64_t dropped_partition = 0;  // cut at send or at delivery
  uint64_t dropped_down = 0;       // endpoint down at send, or removed by DropNode
  uint64_t duplicated = 0;
  uint64_t delayed = 0;        // copies given extra delay
  uint64_t resets = 0;         // streams reset (net.reset, a cut, ResetStream)
  uint64_t dropped_reset = 0;  // lost in a reset, or sent on a closed stream
  // "sent=.. delivered=.. dropped_fault=.. dropped_partition=.. dropped_down=.. duplicated=..
  // delayed=.. resets=.. dropped_reset=.."
  std::string ToString() const;
};

template <class Msg>
struct Envelope {
  NodeId from = 0;
  NodeId to = 0;
  uint64_t id = 0;  // per-network message id; both copies of a duplicate share it
  Channel channel = Channel::kCall;
  Msg msg;
};

// Why Send lost a message (kNone: at least one copy is in flight).
enum class SendLoss : uint8_t {
  kNone,
  kDown,    // an endpoint is down
  kCut,     // the link is cut (a stream is reset by it)
  kClosed,  // the stream was reset and not reopened
  kFault,   // net.drop said yes (calls)
  kReset,   // net.reset said yes (streams)
};

// "-", "down", "cut", "closed", "fault", "reset".
constexpr const char* SendLossName(SendLoss loss) {
  switch (loss) {
    case SendLoss::kNone:
      return "-";
    case SendLoss::kDown:
      return "down";
    case SendLoss::kCut:
      return "cut";
    case SendLoss::kClosed:
      return "closed";
    case SendLoss::kFault:
      return "fault";
    case SendLoss::kReset:
      return "reset";
  }
  return "?";
}

// What one Send decided, for the trace.
struct SendNote {
  uint64_t id = 0;
  SendLoss loss = SendLoss::kNone;
  bool duplicated = false;
  uint32_t copies = 0;        // copies queued: 0, 1 or 2
  Duration extra_delay[2]{};  // net.delay extra of each copy (0: not delayed)
  SimTime deliver_at[2]{};    // delivery time of each copy
};

enum class SendResult : uint8_t {
  kQueued,   // at least one copy is in flight
  kDropped,  // lost (down node, cut call, closed stream, net.drop)
  kReset,    // the stream was reset by this send (a cut, or net.reset); the message is lost
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
      : node_count_(node_count),
        cut_(size_t{node_count} * node_count, 0),
        down_(node_count, 0),
        closed_(size_t{node_count} * node_count, 0),
        tail_(size_t{node_count} * node_count, 0) {}

  // Message ids count up from 0 per network unless the caller gives one (`id` != kNewId),
  // e.g. one it assigned when the message was produced, before a hold kept it back.
  static constexpr uint64_t kNewId = UINT64_MAX;

  SendResult Send(SimTime now, NodeId from, NodeId to, Msg msg, Chooser& chooser,
                  const FaultProfile& profile, Channel channel = Channel::kCall,
                  uint64_t id = kNewId) {
    CheckNode(from);
    CheckNode(to);
    ++counters_.sent;
    if (id == kNewId) id = next_message_id_++;
    last_send_ = SendNote{};
    last_send_.id = id;
    if (down_[from] || down_[to]) {
      ++counters_.dropped_down;
      return Lost(SendLoss::kDown, SendResult::kDropped);
    }
    const bool stream = channel == Channel::kStream;
    if (IsCut(from, to)) {
      ++counters_.dropped_partition;
      if (!stream) return Lost(SendLoss::kCut, SendResult::kDropped);
      ResetStream(from, to);
      return Lost(SendLoss::kCut, SendResult::kReset);
    }
    if (stream) {
      if (!IsStreamOpen(from, to)) {
        ++counters_.dropped_reset;
        return Lost(SendLoss::kClosed, SendResult::kDropped);
      }
      if (chooser.Chance("net.reset", profile.reset)) {
        ++counters_.dropped_reset;
        ResetStream(from, to);
        return Lost(SendLoss::kReset, SendResult::kReset);
      }
      Schedule(now, Envelope<Msg>{from, to, id, channel, std::move(msg)}, chooser, profile);
      return SendResult::kQueued;
    }
    if (chooser.Chance("net.drop", profile.drop)) {
      ++counters_.dropped_fault;
      return Lost(SendLoss::kFault, SendResult::kDropped);
    }
    const bool duplicate = chooser.Chance("net.duplicate", profile.duplicate);
    if (duplicate) {
      ++counters_.duplicated;
      last_send_.duplicated = true;
      Schedule(now, Envelope<Msg>{from, to, id, channel, msg}, chooser, profile);
    }
    Schedule(now, Envelope<Msg>{from, to, id, channel, std::move(msg)}, chooser, profile);
    return SendResult::kQueued;
  }

  // What the latest Send decided.
  const SendNote& last_send() const { return last_send_; }

  // With `on`, messages removed from flight by a reset (ResetStream, a cut, net.reset) or by
  // DropNode are kept, in removal order, until TakeLost. Off by default.
  void RecordLost(bool on) { record_lost_ = on; }
  // The messages lost since the last call (see RecordLost), oldest first.
  std::vector<Envelope<Msg>> TakeLost() {
    std::vector<Envelope<Msg>> out;
    out.swap(lost_);
    return out;
  }

  // Breaks the stream between a and b: every stream message in flight between them (either
  // direction) is lost, and the stream stays closed until OpenStream. Returns the count lost.
  size_t ResetStream(NodeId a, NodeId b) {
    CheckNode(a);
    CheckNode(b);
    ++counters_.resets;
    const size_t removed = queue_.RemoveIf([this, a, b](const Envelope<Msg>& e) {
      const bool lost = e.channel == Channel::kStream &&
                        ((e.from == a && e.to == b) || (e.from == b && e.to == a));
      if (lost && record_lost_) lost_.push_back(e);
      return lost;
    });
    counters_.dropped_reset += removed;
    closed_[Link(a, b)] = 1;
    closed_[Link(b, a)] = 1;
    tail_[Link(a, b)] = 0;
    tail_[Link(b, a)] = 0;
    return removed;
  }
  // The stream between a and b carries messages again (a reconnect).
  void OpenStream(NodeId a, NodeId b) {
    CheckNode(a);
    CheckNode(b);
    closed_[Link(a, b)] = 0;
    closed_[Link(b, a)] = 0;
  }
  bool IsStreamOpen(NodeId a, NodeId b) const { return closed_[Link(a, b)] == 0; }

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

  // The node crashed: its in-flight messages (either direction) vanish and its streams close;
  // returns the count of messages lost.
  size_t DropNode(NodeId node) {
    CheckNode(node);
    down_[node] = 1;
    const size_t removed = queue_.RemoveIf([this, node](const Envelope<Msg>& e) {
      const bool lost = e.from == node || e.to == node;
      if (lost && record_lost_) lost_.push_back(e);
      return lost;
    });
    counters_.dropped_down += removed;
    for (NodeId other = 0; other < node_count_; ++other) {
      closed_[Link(node, other)] = 1;
      closed_[Link(other, node)] = 1;
      tail_[Link(node, other)] = 0;
      tail_[Link(other, node)] = 0;
    }
    return removed;
  }
  void RestoreNode(NodeId node) {
    CheckNode(node);
    down_[node] = 0;
  }
  bool IsDown(NodeId node) const { return down_[node] != 0; }

  // Pending deliveries in (time, seq) order.
  const Queue& Pending() const { return queue_; }

  // True iff the index-th pending delivery may be taken now: a call, or the first pending
  // message of its directed stream.
  bool Deliverable(size_t index) const {
    const Envelope<Msg>& e = queue_.At(index).payload;
    if (e.channel != Channel::kStream) return true;
    for (size_t j = 0; j < index; ++j) {
      const Envelope<Msg>& earlier = queue_.At(j).payload;
      if (earlier.channel == Channel::kStream && earlier.from == e.from && earlier.to == e.to) {
        return false;
      }
    }
    return true;
  }
  // Calls f(index, entry) for every Deliverable pending delivery, in Pending() order.
  template <class F>
  void ForEachDeliverable(F f) const {
    seen_.clear();
    for (size_t i = 0; i < queue_.size(); ++i) {
      const auto& entry = queue_.At(i);
      const Envelope<Msg>& e = entry.payload;
      if (e.channel == Channel::kStream) {
        const uint64_t key = Link(e.from, e.to);
        if (std::find(seen_.begin(), seen_.end(), key) != seen_.end()) continue;
        seen_.push_back(key);
      }
      f(i, entry);
    }
  }

  // Removes the index-th pending delivery (in Pending() order) for delivery.
  // REQUIRES: Deliverable(index).
  Delivery Take(size_t index) {
    REPARTSIM_ASSERT(Deliverable(index));
    typename Queue::Entry entry = queue_.PopAt(index);
    const Envelope<Msg>& e = entry.payload;
    const bool cut = IsCut(e.from, e.to);
    REPARTSIM_ASSERT(!down_[e.to]);  // DropNode removed these
    if (cut) {
      ++counters_.dropped_partition;
      if (e.channel == Channel::kStream) ResetStream(e.from, e.to);
    } else {
      ++counters_.delivered;
    }
    return Delivery{entry.at, std::move(entry.payload), !cut};
  }

  // Hashes pending messages (via hash_msg(Hasher&, const Msg&)), cuts, down nodes and stream
  // states.
  template <class HashMsg>
  void Fingerprint(Hasher& h, HashMsg hash_msg) const {
    h.Add(uint64_t{node_count_});
    queue_.Fingerprint(h, [&](Hasher& hh, const Envelope<Msg>& e) {
      hh.Add(uint64_t{e.from}).Add(uint64_t{e.to}).Add(static_cast<uint64_t>(e.channel));
      hash_msg(hh, e.msg);
    });
    for (uint8_t c : cut_) h.Add(uint64_t{c});
    for (uint8_t d : down_) h.Add(uint64_t{d});
    for (uint8_t c : closed_) h.Add(uint64_t{c});
  }

  const NetworkCounters& counters() const { return counters_; }
  uint32_t node_count() const { return node_count_; }

 private:
  void CheckNode(NodeId node) const { REPARTSIM_ASSERT(node < node_count_); }
  size_t Link(NodeId from, NodeId to) const { return size_t{from} * node_count_ + to; }

  SendResult Lost(SendLoss loss, SendResult result) {
    last_send_.loss = loss;
    return result;
  }

  void Schedule(SimTime now, Envelope<Msg> envelope, Chooser& chooser,
                const FaultProfile& profile) {
    REPARTSIM_ASSERT(profile.latency.ms >= 0);
    REPARTSIM_ASSERT(last_send_.copies < 2);
    Duration delay = profile.latency;
    Duration extra{0};
    if (profile.delay_ms_max.ms > 0 && chooser.Chance("net.delay", profile.delay)) {
      REPARTSIM_ASSERT(profile.delay_ms_max.ms <= int64_t{0xffffffff});
      const uint32_t options = static_cast<uint32_t>(profile.delay_ms_max.ms);
      extra = Ms(1 + int64_t{chooser.Choose("net.delay_ms", options)});
      delay += extra;
      ++counters_.delayed;
    }
    SimTime at = now + delay;
    if (envelope.channel == Channel::kStream) {
      // Head of line: never before a message queued earlier on the same directed stream.
      int64_t& tail = tail_[Link(envelope.from, envelope.to)];
      if (at.ms < tail) at = SimTime{tail};
      tail = at.ms;
    }
    last_send_.extra_delay[last_send_.copies] = extra;
    last_send_.deliver_at[last_send_.copies] = at;
    ++last_send_.copies;
    queue_.Push(at, std::move(envelope));
  }

  uint32_t node_count_;
  std::vector<uint8_t> cut_;     // cut_[from * node_count_ + to] != 0: link blocked
  std::vector<uint8_t> down_;    // down_[node] != 0: crashed
  std::vector<uint8_t> closed_;  // closed_[from * node_count_ + to] != 0: stream reset
  // tail_[from * node_count_ + to]: delivery time of the last stream message queued (only
  // meaningful while later than now; a reset or crash clears it).
  std::vector<int64_t> tail_;
  Queue queue_;
  NetworkCounters counters_;
  uint64_t next_message_id_ = 0;
  // Trace notes, not state (neither fingerprinted nor compared).
  SendNote last_send_;
  bool record_lost_ = false;
  std::vector<Envelope<Msg>> lost_;
  mutable std::vector<uint64_t> seen_;  // scratch of ForEachDeliverable, not state
};

}  // namespace repartsim::sim
