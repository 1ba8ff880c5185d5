// HeldMessages: the messages a cluster keeps back instead of sending them at once. A scripted
// hold keeps a message until a procedure state has passed (then, optionally, a delay more); a
// scripted reorder keeps the first of two messages until the second went; the metasrv's
// handler-chain gap keeps a lease reply until its push time; and a stream message sent while
// its directed stream's line is held waits behind that line. This class owns the list and the
// decisions over it (which message heads a line, which ones a passed state or a release
// frees, which ones a reset or crash loses); the cluster logs and sends (cluster_transport.cc).
// Order matters and is kept: messages are released in the order they were held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/node/message.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct HeldMessage {
  static constexpr size_t kNoRule = SIZE_MAX;

  NodeId from;
  Outgoing out;
  std::string until_state;         // kHold until it passed; empty for a reorder or a due release
  size_t rule = kNoRule;           // index of the scripted rule that kept it (kNoRule: a lease gap)
  sim::Duration release_delay{0};  // kHold: released this long after the state
  std::optional<sim::SimTime> release_at;  // set: released at this time
  // Head of line: a stream message held in the network; later messages of its directed
  // stream are held behind it (false: kept back by the sender, e.g. a lease reply in the
  // handler chain, so later messages pass it).
  bool head_of_line = false;
};

class HeldMessages {
 public:
  bool empty() const { return held_.empty(); }
  size_t size() const { return held_.size(); }
  const HeldMessage& operator[](size_t index) const { return held_[index]; }

  void Add(HeldMessage message) { held_.push_back(std::move(message)); }

  // The latest held head of line of the directed stream `from` -> `to`, or nullptr: a stream
  // message sent now waits behind it.
  const HeldMessage* LineHead(NodeId from, NodeId to) const;

  // True iff a HeartbeatReply from `from` to `to` is held (computed, not pushed yet).
  bool ReplyHeld(NodeId from, NodeId to) const;

  // The message a reorder rule `rule` keeps for its next match, taken out; nullopt when that
  // rule holds none yet.
  std::optional<HeldMessage> TakeReorderPartner(size_t rule);

  // The message at `index`, whose release time came, and the line held behind it (same
  // stream, same release time), in held order. REQUIRES: held_[index].release_at is set.
  std::vector<size_t> ReleaseBatch(size_t index) const;

  // A procedure step passed `state`: the messages held until it stop waiting. Those with a
  // release delay are due at `now` + delay; the indices of the others (to send now) return.
  std::vector<size_t> PassState(const std::string& state, sim::SimTime now);

  // Every index, in held order (the end of the safety phase releases them all).
  std::vector<size_t> All() const;

  // Takes the messages at `indices` out, in held order.
  std::vector<HeldMessage> Take(std::vector<size_t> indices);

  // Takes out every message `lost(message)` names, in held order (a reset or a crash).
  template <class Pred>
  std::vector<HeldMessage> TakeIf(Pred lost) {
    std::vector<HeldMessage> out, kept;
    for (HeldMessage& m : held_) {
      (lost(static_cast<const HeldMessage&>(m)) ? out : kept).push_back(std::move(m));
    }
    held_ = std::move(kept);
    return out;
  }

  // Calls fn(index, release time, sender) for each message with a release time.
  template <class Fn>
  void ForEachRelease(Fn&& fn) const {
    for (size_t i = 0; i < held_.size(); ++i) {
      if (held_[i].release_at) fn(i, *held_[i].release_at, held_[i].from);
    }
  }

  void Hash(sim::Hasher& h) const;

 private:
  std::vector<HeldMessage> held_;
};

}  // namespace repartsim::model
