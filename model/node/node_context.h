// NodeContext: what a node handler may touch during one simulation step besides its own
// state: the clock, an outbox of messages (the cluster sends them through the sim::Network
// after the handler returns), the trace, crash points, the protocol and the run's history.
// Handlers never hold it beyond the call, so nodes stay plain values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/meta/ids.h"
#include "model/node/crash_hook.h"
#include "model/node/history.h"
#include "model/node/message_fwd.h"
#include "model/protocol/protocol.h"
#include "sim/simulation.h"

namespace repartsim::model {

// Which heartbeat streams are connected (the metasrv's pushers): a mailbox instruction to a
// datanode without one fails at once (PusherNotFound). The cluster implements it.
class StreamLinks {
 public:
  // True iff the stream between `a` and `b` is open and both ends are up.
  virtual bool StreamConnected(NodeId a, NodeId b) const = 0;

 protected:
  ~StreamLinks() = default;
};

struct NodeContext final : public CrashHook {
  // Out of line, like Send: the outbox holds Outgoing (model/node/message.h), which this
  // header only declares.
  NodeContext(NodeId self, sim::StepContext& step, const Protocol& protocol, History& history);
  ~NodeContext() override;

  sim::SimTime now() const { return step.now; }
  void Send(NodeId to, MessageBody body);
  void Log(std::string_view kind, std::string_view detail = {}) {
    step.Log(self.value, kind, detail);
  }
  // Crash points are named `<site>`; the plan decides through the Chooser.
  bool ShouldCrash(std::string_view site) override {
    if (crashed) return true;
    crashed = step.ShouldCrash(site);
    if (crashed) Log("crash_point", site);
    return crashed;
  }
  uint32_t Choose(std::string_view label, uint32_t option_count) {
    return step.chooser.Choose(label, option_count);
  }
  // True iff `self` has a connected heartbeat stream with `to` (always, without `links`).
  bool StreamConnected(NodeId to) const {
    return links == nullptr || links->StreamConnected(self, to);
  }

  NodeId self;
  sim::StepContext& step;
  const Protocol& protocol;
  History& history;
  std::vector<Outgoing> outbox;  // Outgoing is complete wherever a message is built or read
  bool crashed = false;  // a crash point fired: the cluster crashes `self` after the handler
  const StreamLinks* links = nullptr;  // set by the cluster for the metasrv's procedure steps
};

}  // namespace repartsim::model
