// Goal: the driver loop's contract: timed order by (time, seq), the untimed driver choosing
// through the Chooser, every bound (steps_max, time_ms_max), stop requests, replay mismatch
// reporting, and both Fire signatures. Method: a tiny timer model with scripted payloads;
// untimed orders forced by ReplayChooser lists; outcomes and fired order checked exactly.
#include "sim/simulation.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/event_queue.h"

namespace repartsim::sim {
namespace {
namespace simulation_test {

// Payload >= 0: log it; payload == -1: request stop; payload <= -10: re-arm after -payload ms.
struct TimerModel {
  EventQueue<int> timers;
  std::vector<int> fired;
  std::vector<int64_t> fired_at_ms;

  void Enabled(std::vector<EnabledEvent>& out) const {
    for (size_t i = 0; i < timers.size(); ++i) {
      out.push_back(EnabledEvent{timers.At(i).at, timers.At(i).seq, 0, 0, i});
    }
  }
  void Fire(const EnabledEvent& e, StepContext& ctx) {
    const int p = timers.PopAt(e.ref).payload;
    fired.push_back(p);
    fired_at_ms.push_back(ctx.now.ms);
    ctx.Log(0, "fire", Detail().Add("p", int64_t{p}).view());
    if (p == -1) ctx.RequestStop();
    if (p <= -10) timers.Push(ctx.now + Ms(-p), p);
    if (p == 99) ctx.chooser.Choose("model.pick", 3);
  }
  uint64_t Fingerprint() const {
    Hasher h;
    timers.Fingerprint(h, [](Hasher& hh, int p) { hh.Add(int64_t{p}); });
    return h.Finish();
  }
};
static_assert(Model<TimerModel>);

// Same model, but with the index-based Fire signature.
struct IndexModel {
  TimerModel inner;
  void Enabled(std::vector<EnabledEvent>& out) const { inner.Enabled(out); }
  void Fire(size_t index, StepContext& ctx) {
    std::vector<EnabledEvent> events;
    inner.Enabled(events);
    inner.Fire(events[index], ctx);
  }
  uint64_t Fingerprint() const { return inner.Fingerprint(); }
};
static_assert(Model<IndexModel>);

// Same model with the timed driver's fast path (HasEarliest), counting its calls.
struct FastModel {
  TimerModel inner;
  mutable int earliest_calls = 0;
  void Enabled(std::vector<EnabledEvent>& out) const { inner.Enabled(out); }
  bool Earliest(EnabledEvent& out) const {
    ++earliest_calls;
    std::vector<EnabledEvent> events;
    inner.Enabled(events);
    if (events.empty()) return false;
    out = events[EarliestEvent(events)];
    return true;
  }
  void Fire(const EnabledEvent& e, StepContext& ctx) { inner.Fire(e, ctx); }
  uint64_t Fingerprint() const { return inner.Fingerprint(); }
};
static_assert(Model<FastModel> && HasEarliest<FastModel> && !HasEarliest<TimerModel>);

struct Env {
  Trace trace;
  CrashPlan plan;
  CrashPointStats stats;
};

template <class M>
RunResult RunWith(M& model, Chooser& chooser, RunOptions options) {
  Env env;
  Simulation<M> sim(model, chooser, env.trace, env.plan, env.stats, options);
  return sim.Run();
}

TEST(SimulationTest, TimedDriverRunsByTimeThenSeqAndAdvancesTheClock) {
  TimerModel m;
  m.timers.Push(AtMs(10), 1);
  m.timers.Push(AtMs(5), 2);
  m.timers.Push(AtMs(10), 3);
  RandomChooser chooser(1);
  const RunResult r = RunWith(m, chooser, RunOptions{});
  EXPECT_EQ(r.outcome, RunOutcome::kQuiescent);
  EXPECT_EQ(r.steps, 3u);
  EXPECT_EQ(r.now.ms, 10);
  EXPECT_EQ(m.fired, (std::vector<int>{2, 1, 3}));
  EXPECT_EQ(m.fired_at_ms, (std::vector<int64_t>{5, 10, 10}));
  EXPECT_EQ(chooser.choice_count(), 0u);
  EXPECT_STREQ(ToString(r.outcome), "quiescent");
}

TEST(SimulationTest, TimedDriverAsksEarliestWhenTheModelHasItAndUntimedNever) {
  FastModel m;
  m.inner.timers.Push(AtMs(10), 1);
  m.inner.timers.Push(AtMs(5), 2);
  m.inner.timers.Push(AtMs(10), 3);
  RandomChooser chooser(1);
  const RunResult r = RunWith(m, chooser, RunOptions{});
  EXPECT_EQ(r.outcome, RunOutcome::kQuiescent);
  EXPECT_EQ(m.inner.fired, (std::vector<int>{2, 1, 3}));
  EXPECT_EQ(m.earliest_calls, 4);  // three events, then the empty queue
  FastModel u;
  u.inner.timers.Push(AtMs(10), 1);
  RunOptions untimed;
  untimed.driver = DriverKind::kUntimed;
  const RunResult ru = RunWith(u, chooser, untimed);
  EXPECT_EQ(ru.steps, 1u);
  EXPECT_EQ(u.earliest_calls, 0);
}

TEST(SimulationTest, StepsMaxAndTimeMaxBoundTheRun) {
  TimerModel a;
  a.timers.Push(AtMs(0), -10);
  RandomChooser chooser(1);
  RunOptions steps_bound;
  steps_bound.steps_max = 7;
  const RunResult ra = RunWith(a, chooser, steps_bound);
  EXPECT_EQ(ra.outcome, RunOutcome::kStepsMax);
  EXPECT_EQ(ra.steps, 7u);
  TimerModel b;
  b.timers.Push(AtMs(10), -10);
  RunOptions time_bound;
  time_bound.time_ms_max = 35;
  const RunResult rb = RunWith(b, chooser, time_bound);
  EXPECT_EQ(rb.outcome, RunOutcome::kTimeMax);
  EXPECT_EQ(b.fired_at_ms, (std::vector<int64_t>{10, 20, 30}));
  EXPECT_STREQ(ToString(rb.outcome), "time_max");
}

TEST(SimulationTest, RequestStopEndsTheRunAfterTheStep) {
  TimerModel m;
  m.timers.Push(AtMs(1), 1);
  m.timers.Push(AtMs(2), -1);
  m.timers.Push(AtMs(3), 3);
  RandomChooser chooser(1);
  const RunResult r = RunWith(m, chooser, RunOptions{});
  EXPECT_EQ(r.outcome, RunOutcome::kStopped);
  EXPECT_EQ(r.steps, 2u);
  EXPECT_EQ(m.timers.size(), 1u);
}

TEST(SimulationTest, UntimedDriverChoosesAmongEligibleEventsAndKeepsTheClockMonotone) {
  TimerModel m;
  m.timers.Push(AtMs(10), 1);
  m.timers.Push(AtMs(20), 2);
  m.timers.Push(AtMs(30), 3);
  m.timers.Push(AtMs(500), 4);  // beyond time_ms_max: never eligible
  ChoiceList list;
  list.AddChoose("sched.next", 3, 2);  // -> 3 (at 30)
  list.AddChoose("sched.next", 2, 0);  // -> 1 (at 10, clock stays 30)
  ReplayChooser replay(list);          // the last pick has one option: forced
  RunOptions options;
  options.driver = DriverKind::kUntimed;
  options.time_ms_max = 100;
  const RunResult r = RunWith(m, replay, options);
  EXPECT_EQ(r.outcome, RunOutcome::kTimeMax);
  EXPECT_EQ(m.fired, (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(m.fired_at_ms, (std::vector<int64_t>{30, 30, 30}));
  EXPECT_EQ(replay.mismatch(), nullptr);
  EXPECT_TRUE(replay.exhausted());
}

TEST(SimulationTest, ReplayMismatchInsideAStepEndsWithNondeterminism) {
  TimerModel m;
  m.timers.Push(AtMs(1), 99);
  m.timers.Push(AtMs(2), 5);
  ReplayChooser replay{ChoiceList{}};
  RunOptions options;
  options.seed = 17;
  const RunResult r = RunWith(m, replay, options);
  EXPECT_EQ(r.outcome, RunOutcome::kNondeterminism);
  EXPECT_EQ(r.steps, 1u);
  EXPECT_EQ(r.nondeterminism,
            "replay: choice #0 (choose model.pick 3) requested after the recorded list ended "
            "at 0 choices");
  EXPECT_EQ(r.summary.seed, 17u);
  EXPECT_STREQ(ToString(r.outcome), "nondeterminism");
}

TEST(SimulationTest, IndexBasedFireModelsRunToo) {
  IndexModel m;
  m.inner.timers.Push(AtMs(2), 2);
  m.inner.timers.Push(AtMs(1), 1);
  RandomChooser chooser(1);
  const RunResult r = RunWith(m, chooser, RunOptions{});
  EXPECT_EQ(r.outcome, RunOutcome::kQuiescent);
  EXPECT_EQ(m.inner.fired, (std::vector<int>{1, 2}));
}

TEST(SimulationTest, SummaryCarriesStepsDrawsAndTraceHash) {
  TimerModel m;
  m.timers.Push(AtMs(1), 1);
  m.timers.Push(AtMs(1), 2);
  RandomChooser chooser(1);
  Env env;
  RunOptions options;
  options.driver = DriverKind::kUntimed;
  options.seed = 5;
  Simulation<TimerModel> sim(m, chooser, env.trace, env.plan, env.stats, options);
  const RunResult r = sim.Run();
  EXPECT_EQ(r.summary.seed, 5u);
  EXPECT_EQ(r.summary.steps, 2u);
  EXPECT_EQ(r.summary.prng_draws, 1u);  // one two-way pick, then a forced one
  EXPECT_EQ(r.summary.trace_hash, env.trace.hash());
  EXPECT_FALSE(sim.Step());  // an ended run stays ended
}

TEST(SimulationDeathTest, TimedEventInThePastIsASimulatorBug) {
  EXPECT_EXIT(
      {
        struct PastModel : TimerModel {
          void Fire(const EnabledEvent& e, StepContext& ctx) {
            TimerModel::Fire(e, ctx);
            timers.Push(ctx.now - Ms(5), 1);
          }
        };
        PastModel m;
        m.timers.Push(AtMs(10), 0);
        RandomChooser chooser(1);
        RunWith(m, chooser, RunOptions{});
      },
      testing::ExitedWithCode(70), "timed event scheduled in the past");
}

}  // namespace simulation_test
}  // namespace
}  // namespace repartsim::sim
