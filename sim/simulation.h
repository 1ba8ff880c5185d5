// Simulation<M>: the driver loop over a Model, a copyable value holding ALL its pending work
// as plain data (no closures), so explorers can copy it and try every alternative:
//   void M::Enabled(std::vector<EnabledEvent>& out) const   appends the enabled events
//   void M::Fire(const EnabledEvent& e, StepContext& ctx)   applies one of them
//       (or M::Fire(size_t index, StepContext&): index into the Enabled list)
//   uint64_t M::Fingerprint() const                          canonical state hash
//   bool M::Earliest(EnabledEvent& out) const                optional (HasEarliest below)
// Timed driver: runs the enabled event with the smallest (at, seq); ties by list position.
// Untimed driver: Choose("sched.next", n) over the events with at <= time_ms_max.
// The clock never moves backwards: now = max(now, event.at). Every run is bounded by
// steps_max and time_ms_max. A replay mismatch ends the run with kNondeterminism.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/assert.h"
#include "sim/chooser.h"
#include "sim/crash_points.h"
#include "sim/network.h"
#include "sim/time.h"
#include "sim/trace.h"

namespace repartsim::sim {

// One enabled event, as exposed by the model. `kind` and `ref` are the model's own encoding
// (e.g. kind = delivery, ref = index in Network::Pending()) and come back in Fire.
struct EnabledEvent {
  SimTime at;
  uint64_t seq = 0;       // tie-breaker at equal times (insertion counter of its queue)
  NodeId node = kNoNode;  // node the event runs on, kNoNode for global events
  uint32_t kind = 0;
  uint64_t ref = 0;
};
using Enabled = EnabledEvent;

// Everything one step may touch besides the model. Built by the driver (or an explorer).
struct StepContext {
  Chooser& chooser;
  Trace& trace;
  const CrashPlan& crash_plan;
  CrashPointStats& crash_stats;
  uint64_t step = 0;
  SimTime now;
  bool stop_requested = false;

  bool ShouldCrash(std::string_view site) {
    return sim::ShouldCrash(site, chooser, crash_plan, crash_stats);
  }
  void Log(NodeId node, std::string_view kind, std::string_view detail = {}) {
    trace.Record(node, kind, detail);
  }
  // Ends the run after this step with RunOutcome::kStopped (e.g. the model saw a violation).
  void RequestStop() { stop_requested = true; }
};

template <class M>
concept Model = std::copyable<M> &&
    requires(M& m, const M& cm, std::vector<EnabledEvent>& out, StepContext& ctx) {
  cm.Enabled(out);
  { cm.Fingerprint() } -> std::convertible_to<uint64_t>;
} &&(
    requires(M& m, const EnabledEvent& e, StepContext& ctx) { m.Fire(e, ctx); } ||
    requires(M & m, size_t index, StepContext& ctx) { m.Fire(index, ctx); });

// Optional: bool M::Earliest(EnabledEvent& out) const sets `out` to the event the timed
// driver would pick from Enabled() (EarliestEvent: smallest (at, seq), first in list on ties)
// and returns true, or returns false when nothing is enabled. The timed driver then skips
// building the list; the untimed driver and explorers still use Enabled().
template <class M>
concept HasEarliest = requires(const M& cm, EnabledEvent& out) {
  { cm.Earliest(out) } -> std::same_as<bool>;
};

enum class DriverKind : uint8_t { kTimed, kUntimed };

struct RunOptions {
  DriverKind driver = DriverKind::kTimed;
  uint64_t steps_max = 100000;
  int64_t time_ms_max = 3600 * 1000;
  uint64_t seed = 0;  // reported in the summary and assertion messages only
};

enum class RunOutcome : uint8_t {
  kQuiescent,       // no enabled event left
  kStepsMax,        // steps_max reached
  kTimeMax,         // every enabled event lies after time_ms_max
  kStopped,         // the model called RequestStop
  kNondeterminism,  // the replayed choice list diverged (see RunResult::nondeterminism)
};

const char* ToString(RunOutcome outcome);

struct RunResult {
  RunOutcome outcome = RunOutcome::kQuiescent;
  uint64_t steps = 0;
  SimTime now;
  RunSummary summary;
  std::string nondeterminism;  // the ChoiceMismatch message for kNondeterminism
};

// Picks the timed driver's next event: smallest (at, seq), first in list on ties.
// REQUIRES: !events.empty().
size_t EarliestEvent(const std::vector<EnabledEvent>& events);

template <Model M>
class Simulation {
 public:
  // All references must outlive the Simulation.
  Simulation(M& model, Chooser& chooser, Trace& trace, const CrashPlan& crash_plan,
             CrashPointStats& crash_stats, RunOptions options)
      : model_(model),
        chooser_(chooser),
        trace_(trace),
        crash_plan_(crash_plan),
        crash_stats_(crash_stats),
        options_(options) {}

  // Runs one step. Returns true iff an event fired and the run may continue; otherwise
  // outcome() says why the run ended.
  bool Step() {
    if (ended_) return false;
    if (steps_ >= options_.steps_max) return End(RunOutcome::kStepsMax);
    if constexpr (HasEarliest<M>) {
      // The timed driver asks the model for its earliest event directly (same pick as
      // EarliestEvent over the whole Enabled list, without building it).
      if (options_.driver == DriverKind::kTimed) {
        EnabledEvent event;
        if (!model_.Earliest(event)) return End(RunOutcome::kQuiescent);
        if (event.at.ms > options_.time_ms_max) return End(RunOutcome::kTimeMax);
        REPARTSIM_ASSERT_MSG(event.at >= now_, "timed event scheduled in the past");
        return FireEvent(event, 0);
      }
    }
    enabled_.clear();
    model_.Enabled(enabled_);
    if (enabled_.empty()) return End(RunOutcome::kQuiescent);
    size_t index = 0;
    if (options_.driver == DriverKind::kTimed) {
      index = EarliestEvent(enabled_);
      if (enabled_[index].at.ms > options_.time_ms_max) return End(RunOutcome::kTimeMax);
      REPARTSIM_ASSERT_MSG(enabled_[index].at >= now_, "timed event scheduled in the past");
    } else {
      size_t eligible = 0;
      for (const EnabledEvent& e : enabled_) eligible += e.at.ms <= options_.time_ms_max;
      if (eligible == 0) return End(RunOutcome::kTimeMax);
      uint32_t pick = chooser_.Choose("sched.next", static_cast<uint32_t>(eligible));
      if (chooser_.mismatch() != nullptr) return End(RunOutcome::kNondeterminism);
      while (enabled_[index].at.ms > options_.time_ms_max || pick-- > 0) ++index;
    }
    return FireEvent(enabled_[index], index);
  }

  // Steps until the run ends; returns the outcome and the run summary.
  RunResult Run() {
    AssertContext& assert_context = CurrentAssertContext();
    assert_context.seed = options_.seed;
    assert_context.in_run = true;
    while (Step()) {
    }
    assert_context.in_run = false;
    return CurrentResult();
  }

  RunResult CurrentResult() const {
    RunResult r;
    r.outcome = outcome_;
    r.steps = steps_;
    r.now = now_;
    r.summary = RunSummary{options_.seed, steps_, chooser_.draw_count(), trace_.hash()};
    if (const ChoiceMismatch* m = chooser_.mismatch()) r.nondeterminism = m->message;
    return r;
  }

  RunOutcome outcome() const { return outcome_; }
  uint64_t steps() const { return steps_; }
  SimTime now() const { return now_; }

 private:
  // Fires `event` (the index-th of enabled_ when the model fires by index).
  bool FireEvent(const EnabledEvent event, size_t index) {
    now_ = Max(now_, event.at);
    CurrentAssertContext().step = steps_;
    trace_.SetClock(steps_, now_);
    StepContext ctx{chooser_, trace_, crash_plan_, crash_stats_, steps_, now_, false};
    if constexpr (requires { model_.Fire(event, ctx); }) {
      model_.Fire(event, ctx);
    } else {
      model_.Fire(index, ctx);
    }
    ++steps_;
    if (chooser_.mismatch() != nullptr) return End(RunOutcome::kNondeterminism);
    if (ctx.stop_requested) return End(RunOutcome::kStopped);
    return true;
  }

  bool End(RunOutcome outcome) {
    ended_ = true;
    outcome_ = outcome;
    return false;
  }

  M& model_;
  Chooser& chooser_;
  Trace& trace_;
  const CrashPlan& crash_plan_;
  CrashPointStats& crash_stats_;
  RunOptions options_;
  std::vector<EnabledEvent> enabled_;
  uint64_t steps_ = 0;
  SimTime now_;
  bool ended_ = false;
  RunOutcome outcome_ = RunOutcome::kQuiescent;
};

}  // namespace repartsim::sim
