// The engine-only floor kernel of the benchmarks: `width` self-rearming timers; one step pops
// the earliest and pushes it back 1..8 ms later (a Chooser decision), logging one formatted
// trace line. What a step of any model costs at least: the driver, an EventQueue pop and
// push, one decision and one hashed trace line.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/event_queue.h"
#include "sim/simulation.h"

namespace repartsim::sim {

struct TickModel {
  EventQueue<uint32_t> timers;
  bool log = true;
  void Enabled(std::vector<EnabledEvent>& out) const {
    for (size_t i = 0; i < timers.size(); ++i) {
      out.push_back(EnabledEvent{timers.At(i).at, timers.At(i).seq, timers.At(i).payload, 0, i});
    }
  }
  void Fire(const EnabledEvent& e, StepContext& ctx) {
    const uint32_t id = timers.PopAt(e.ref).payload;
    const uint32_t delay = 1 + ctx.chooser.Choose("tick.delay", 8);
    timers.Push(ctx.now + Ms(delay), id);
    if (log) ctx.Log(id, "tick", Detail().Add("delay", delay).view());
  }
  uint64_t Fingerprint() const { return 0; }
};

}  // namespace repartsim::sim
