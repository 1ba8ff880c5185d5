// Shared fixture for tests that call a node handler directly: one simulation step (a seeded
// RandomChooser, a Trace that keeps its lines, a crash plan that never fires unless scripted)
// and the NodeContext of node `self` over it, with its own Protocol and History.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "model/node/history.h"
#include "model/node/node_context.h"
#include "model/protocol/protocol.h"
#include "sim/chooser.h"
#include "sim/crash_points.h"
#include "sim/simulation.h"
#include "sim/trace.h"

namespace repartsim::model::testing {

class NodeContextFixture {
 public:
  explicit NodeContextFixture(NodeId self, Protocol protocol = Protocol::Greptime(),
                              sim::SimTime now = sim::AtMs(1000))
      : protocol_(protocol), self_(self), now_(now) {
    trace_.KeepLines(true);
  }

  // The context of the current step (made on first use; Script crashes before that).
  NodeContext& ctx() {
    if (ctx_ == nullptr) {
      step_ = std::make_unique<sim::StepContext>(
          sim::StepContext{chooser_, trace_, plan_, stats_, 1, now_});
      ctx_ = std::make_unique<NodeContext>(self_, *step_, protocol_, history_);
    }
    return *ctx_;
  }
  // The `hit_number`-th hit of `site` crashes. REQUIRES: ctx() not used yet.
  void Script(std::string_view site, uint64_t hit_number) { plan_.Script(site, hit_number); }
  History& history() { return history_; }
  // How many trace lines contain `text`.
  size_t TraceCount(std::string_view text) const {
    return static_cast<size_t>(std::count_if(
        trace_.lines().begin(), trace_.lines().end(),
        [&](const std::string& line) { return line.find(text) != std::string::npos; }));
  }
  const std::vector<std::string>& lines() const { return trace_.lines(); }

 private:
  sim::RandomChooser chooser_{0};
  sim::Trace trace_;
  sim::CrashPlan plan_;
  sim::CrashPointStats stats_;
  Protocol protocol_;
  History history_;
  NodeId self_;
  sim::SimTime now_;
  std::unique_ptr<sim::StepContext> step_;
  std::unique_ptr<NodeContext> ctx_;
};

}  // namespace repartsim::model::testing
