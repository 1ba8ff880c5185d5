// Goal: the Model concept supports exhaustive exploration: stateless DFS with PrefixChooser
// over the untimed driver visits every interleaving and nested decision exactly once, and
// model copies plus fingerprints support stateful search.
// Method: small timer models whose complete run sets are known by hand (3! orders; 2 orders
// times a nested 3-way pick), counted and compared exactly.
#include "sim/prefix_chooser.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "sim/event_queue.h"
#include "sim/simulation.h"

namespace repartsim::sim {
namespace {
namespace prefix_chooser_test {

// Fires timers; payload 99 also asks a nested 3-way decision and records the answer + 100.
struct PickModel {
  EventQueue<int> timers;
  std::vector<int> fired;
  void Enabled(std::vector<EnabledEvent>& out) const {
    for (size_t i = 0; i < timers.size(); ++i) {
      out.push_back(EnabledEvent{timers.At(i).at, timers.At(i).seq, 0, 0, i});
    }
  }
  void Fire(const EnabledEvent& e, StepContext& ctx) {
    const int p = timers.PopAt(e.ref).payload;
    fired.push_back(p);
    if (p == 99) fired.push_back(100 + static_cast<int>(ctx.chooser.Choose("model.pick", 3)));
    if (p == 7 && ctx.chooser.Chance("model.flip", Ratio{1, 1000})) fired.push_back(8);
  }
  uint64_t Fingerprint() const {
    Hasher h;
    timers.Fingerprint(h, [](Hasher& hh, int p) { hh.Add(int64_t{p}); });
    for (int f : fired) h.Add(int64_t{f});
    return h.Finish();
  }
};

// Runs every decision sequence of `initial` under the untimed driver; returns the fired
// sequences in exploration order.
std::vector<std::vector<int>> ExploreAll(const PickModel& initial) {
  std::vector<std::vector<int>> runs;
  std::optional<std::vector<uint32_t>> prefix = std::vector<uint32_t>{};
  while (prefix) {
    PickModel model = initial;
    PrefixChooser chooser(*prefix);
    Trace trace;
    CrashPlan plan;
    CrashPointStats stats;
    RunOptions options;
    options.driver = DriverKind::kUntimed;
    Simulation<PickModel> sim(model, chooser, trace, plan, stats, options);
    const RunResult r = sim.Run();
    EXPECT_EQ(r.outcome, RunOutcome::kQuiescent);
    runs.push_back(model.fired);
    prefix = chooser.NextPrefix();
  }
  return runs;
}

TEST(PrefixChooserTest, DfsVisitsEveryInterleavingOnce) {
  PickModel m;
  m.timers.Push(AtMs(0), 1);
  m.timers.Push(AtMs(0), 2);
  m.timers.Push(AtMs(5), 3);
  const auto runs = ExploreAll(m);
  ASSERT_EQ(runs.size(), 6u);
  EXPECT_EQ(runs.front(), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(runs.back(), (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(std::set<std::vector<int>>(runs.begin(), runs.end()).size(), 6u);
}

TEST(PrefixChooserTest, DfsBranchesOnNestedDecisionsAndBothChanceOutcomes) {
  PickModel m;
  m.timers.Push(AtMs(0), 7);
  m.timers.Push(AtMs(0), 99);
  // 2 orders x 3 picks x 2 flips, each exactly once.
  const auto runs = ExploreAll(m);
  EXPECT_EQ(runs.size(), 12u);
  EXPECT_EQ(std::set<std::vector<int>>(runs.begin(), runs.end()).size(), 12u);
  EXPECT_EQ(runs.front(), (std::vector<int>{7, 99, 100}));
}

TEST(PrefixChooserTest, OutOfRangePrefixIsReportedNotCrashed) {
  PrefixChooser chooser({5});
  EXPECT_EQ(chooser.Choose("x", 3), 0u);
  ASSERT_NE(chooser.mismatch(), nullptr);
  EXPECT_EQ(chooser.mismatch()->message, "explore: choice #0 (x) has 3 options, prefix asks for 5");
  EXPECT_EQ(chooser.NextPrefix(), (std::vector<uint32_t>{1}));
}

TEST(PrefixChooserTest, ModelCopiesBranchIntoDistinctFingerprints) {
  PickModel root;
  root.timers.Push(AtMs(0), 1);
  root.timers.Push(AtMs(0), 2);
  std::vector<EnabledEvent> enabled;
  root.Enabled(enabled);
  ASSERT_EQ(enabled.size(), 2u);
  std::set<uint64_t> children;
  for (const EnabledEvent& e : enabled) {
    PickModel child = root;
    PrefixChooser chooser({});
    Trace trace;
    CrashPlan plan;
    CrashPointStats stats;
    StepContext ctx{chooser, trace, plan, stats, 0, AtMs(0), false};
    child.Fire(e, ctx);
    children.insert(child.Fingerprint());
  }
  EXPECT_EQ(children.size(), 2u);
  EXPECT_EQ(root.timers.size(), 2u);  // the root is untouched
}

}  // namespace prefix_chooser_test
}  // namespace
}  // namespace repartsim::sim
