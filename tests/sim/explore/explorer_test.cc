// Goal: the explorer enumerates a decision tree exactly once per path within its policy
// (crash and fault budgets, value sampling, depth), dedupes states by key past the replayed
// prefix, and finds the counterexample of fewest non-default decisions breadth-first.
// Method: a three-decision "run" (two crash points, one 10-valued delay) whose paths are
// counted by hand; exact run, state and prefix values.
#include "sim/explore/explorer.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/fingerprint.h"

namespace repartsim::sim::explore {
namespace {
namespace explorer_test {

struct Path {
  bool a = false, b = false;
  uint32_t c = 0;
};

// a = Chance(site.a), b = Chance(site.b), c = Choose(net.delay_ms, 10); with `visit`, the
// state after b (key a + b) and after c (key a + b, c) are visited.
Path Decide(ExploreChooser& chooser, Explorer* visit) {
  Path p;
  p.a = chooser.Chance("site.a", Ratio{1, 100});
  p.b = chooser.Chance("site.b", Ratio{1, 100});
  if (visit && !visit->Visit(Hasher().Add(uint64_t{p.a} + p.b).Finish(), chooser)) return p;
  p.c = chooser.Choose("net.delay_ms", 10);
  if (visit) visit->Visit(Hasher().Add(uint64_t{p.a} + p.b).Add(p.c).Finish(), chooser);
  return p;
}

ExploreStats Explore(DecisionPolicy policy, Order order, std::vector<Path>* paths,
                     bool dedupe = false, bool (*fails)(const Path&) = nullptr) {
  Explorer explorer(std::move(policy), order, UINT64_MAX);
  return explorer.Run(
      [&](ExploreChooser& chooser) {
        const Path p = Decide(chooser, dedupe ? &explorer : nullptr);
        if (paths) paths->push_back(p);
        return RunVerdict{fails != nullptr && fails(p)};
      },
      [](const ExploreStats&) { return true; });
}

TEST(ExplorerTest, CrashBudgetOneAndThreeValuesGiveNinePaths) {
  std::vector<Path> paths;
  const ExploreStats st = Explore(DecisionPolicy{}, Order::kDepthFirst, &paths);
  EXPECT_TRUE(st.exhausted);
  EXPECT_EQ(st.stop_reason, "exhausted");
  EXPECT_EQ(st.runs, 9u);
  ASSERT_EQ(paths.size(), 9u);
  // Odometer order; after a crash the budget answers b without a branch.
  const std::vector<std::vector<uint32_t>> expected = {{0, 0, 0}, {0, 0, 4}, {0, 0, 9},
                                                       {0, 1, 0}, {0, 1, 4}, {0, 1, 9},
                                                       {1, 0, 0}, {1, 0, 4}, {1, 0, 9}};
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_EQ((std::vector<uint32_t>{paths[i].a, paths[i].b, paths[i].c}), expected[i]) << i;
  }
  EXPECT_EQ(st.depth_max, 3u);
}

TEST(ExplorerTest, BudgetsValuesAndDepthShapeTheTree) {
  DecisionPolicy two_crashes;
  two_crashes.crash_budget = 2;
  EXPECT_EQ(Explore(two_crashes, Order::kDepthFirst, nullptr).runs, 12u);
  DecisionPolicy all_values;
  all_values.values_max = 0;
  EXPECT_EQ(Explore(all_values, Order::kDepthFirst, nullptr).runs, 30u);
  DecisionPolicy no_crash;
  no_crash.crash_budget = 0;
  EXPECT_EQ(Explore(no_crash, Order::kDepthFirst, nullptr).runs, 3u);
  DecisionPolicy shallow;
  shallow.depth_max = 1;
  const ExploreStats st = Explore(shallow, Order::kDepthFirst, nullptr);
  EXPECT_EQ(st.runs, 2u);
  EXPECT_TRUE(st.exhausted);
  EXPECT_TRUE(st.depth_limited);
  EXPECT_EQ(Explore(DecisionPolicy{}, Order::kBreadthFirst, nullptr).runs, 9u);
}

TEST(ExplorerTest, SpreadValuesIncludeBothEnds) {
  EXPECT_EQ(ExploreChooser::ValueOf(0, 3, 10), 0u);
  EXPECT_EQ(ExploreChooser::ValueOf(1, 3, 10), 4u);
  EXPECT_EQ(ExploreChooser::ValueOf(2, 3, 10), 9u);
  EXPECT_EQ(ExploreChooser::ValueOf(2, 3, 3), 2u);
}

TEST(ExplorerTest, VisitedStatesCutLaterRuns) {
  std::vector<Path> paths;
  const ExploreStats st = Explore(DecisionPolicy{}, Order::kDepthFirst, &paths, true);
  // (a, b) = (1, 0) reaches the state of (0, 1) with the same crash budget spent: cut.
  EXPECT_EQ(st.runs, 7u);
  EXPECT_EQ(st.runs_cut, 1u);
  EXPECT_EQ(st.states, 9u);
  EXPECT_EQ(st.unique, 8u);
  EXPECT_TRUE(st.exhausted);
}

// A fault with no effect (a = yes reaches the key of a = no) then a crash point b.
ExploreStats ExploreIneffectiveFault(bool subsumption) {
  DecisionPolicy policy;
  policy.subsumption = subsumption;
  Explorer explorer(policy, Order::kDepthFirst, UINT64_MAX);
  return explorer.Run(
      [&](ExploreChooser& chooser) {
        chooser.Chance("net.delay", Ratio{1, 100});
        if (!explorer.Visit(Hasher().Add(uint64_t{0}).Finish(), chooser)) return RunVerdict{};
        const bool b = chooser.Chance("site.b", Ratio{1, 100});
        explorer.Visit(Hasher().Add(uint64_t{1} + b).Finish(), chooser);
        return RunVerdict{};
      },
      [](const ExploreStats&) { return true; });
}

TEST(ExplorerTest, SubsumptionCutsAStateReachedBeforeWithLessSpent) {
  // Odometer: (0, 0), (0, 1), then a = 1 reaches key 0 with one fault spent, where (0, *)
  // stood with none: subsumed, and its continuation b = 0/1 is not run again.
  const ExploreStats on = ExploreIneffectiveFault(true);
  EXPECT_TRUE(on.exhausted);
  EXPECT_EQ(on.runs, 3u);
  EXPECT_EQ(on.runs_cut, 1u);
  EXPECT_EQ(on.subsumed, 1u);
  EXPECT_EQ(on.states, 4u);
  EXPECT_EQ(on.unique, 3u);
  // Without it the budgets are part of the key: a = 1 is a new state, and so are both b.
  const ExploreStats off = ExploreIneffectiveFault(false);
  EXPECT_TRUE(off.exhausted);
  EXPECT_EQ(off.runs, 4u);
  EXPECT_EQ(off.runs_cut, 0u);
  EXPECT_EQ(off.subsumed, 0u);
  EXPECT_EQ(off.states, 6u);
  EXPECT_EQ(off.unique, 6u);
}

TEST(ExplorerTest, DepthFirstAndBreadthFirstCounterexamples) {
  auto fails = [](const Path& p) { return (p.a && p.c == 9) || (p.b && p.c == 4); };
  const ExploreStats dfs = Explore(DecisionPolicy{}, Order::kDepthFirst, nullptr, false, fails);
  EXPECT_TRUE(dfs.failed);
  EXPECT_FALSE(dfs.exhausted);
  EXPECT_EQ(dfs.stop_reason, "violation");
  EXPECT_EQ(dfs.runs, 5u);
  EXPECT_EQ(dfs.failing_prefix, (std::vector<uint32_t>{0, 1, 1}));
  // Breadth-first: all one-deviation runs first, then a yes + c = 9 (two deviations).
  const ExploreStats bfs = Explore(DecisionPolicy{}, Order::kBreadthFirst, nullptr, false, fails);
  EXPECT_TRUE(bfs.failed);
  EXPECT_EQ(bfs.runs, 7u);
  EXPECT_EQ(bfs.failing_prefix, (std::vector<uint32_t>{1, 2}));
}

TEST(ExplorerTest, StatesMaxStopsTheSearch) {
  Explorer explorer(DecisionPolicy{}, Order::kDepthFirst, 3);
  const ExploreStats st = explorer.Run(
      [&](ExploreChooser& chooser) {
        Decide(chooser, &explorer);
        return RunVerdict{};
      },
      [](const ExploreStats&) { return true; });
  EXPECT_FALSE(st.exhausted);
  EXPECT_EQ(st.stop_reason, "states_max");
  EXPECT_EQ(st.states, 3u);
  EXPECT_EQ(st.runs, 2u);
}

TEST(ExplorerTest, MemoryMaxStopsABreadthFirstSearchThatHoldsTooMuch) {
  // Before: breadth-first had no bound (2.4 GB in 30 s on a random scenario, then abort).
  const auto run = [](uint64_t memory_max) {
    Explorer explorer(DecisionPolicy{}, Order::kBreadthFirst, UINT64_MAX, memory_max);
    return explorer.Run(
        [&](ExploreChooser& chooser) {
          Decide(chooser, nullptr);
          return RunVerdict{};
        },
        [](const ExploreStats&) { return true; });
  };
  const ExploreStats small = run(100);
  EXPECT_EQ(small.stop_reason, "memory_max");
  EXPECT_FALSE(small.exhausted);
  EXPECT_EQ(small.runs, 1u);  // the first run's children alone pass 100 bytes
  EXPECT_GT(small.held_bytes, 100u);
  EXPECT_GT(small.frontier, 0u);
  const ExploreStats roomy = run(1 << 20);
  EXPECT_EQ(roomy.stop_reason, "exhausted");
  EXPECT_EQ(roomy.held_bytes, 0u);  // the queue drained, no state was visited
}

// A run of `steps` steps that calls Continue at each and visits a new state at each.
RunVerdict LongRun(Explorer& explorer, ExploreChooser& chooser, uint64_t steps) {
  chooser.Chance("net.drop", Ratio{1, 100});
  for (uint64_t i = 0; i < steps; ++i) {
    if (!explorer.Continue(chooser)) break;
    if (!explorer.Visit(Hasher().Add(i).Finish(), chooser)) break;
  }
  return RunVerdict{};
}

// Issue 54 (R8): the time bound (the caller's progress) and memory_max were checked only
// between runs, so one long path overran both (199.8 s under --max-seconds 5, 1.29 GB under
// --max-memory-mb 1). A run that calls Continue is cut at the next check after a bound passes.
TEST(ExplorerTest, ProgressAndMemoryAreCheckedInsideALongRun) {
  Explorer timed(DecisionPolicy{}, Order::kDepthFirst, UINT64_MAX);
  const ExploreStats stopped =
      timed.Run([&](ExploreChooser& chooser) { return LongRun(timed, chooser, 100'000); },
                [](const ExploreStats& s) { return s.states < 100; });
  EXPECT_EQ(stopped.stop_reason, "stopped");
  EXPECT_EQ(stopped.runs, 1u);
  EXPECT_EQ(stopped.runs_cut, 1u);
  // Checked at every 16th step, before the step's visit: at 15, 31, ..., 111 states.
  EXPECT_EQ(stopped.states, 111u);
  EXPECT_FALSE(stopped.exhausted);

  Explorer bounded(DecisionPolicy{}, Order::kDepthFirst, UINT64_MAX, /*memory_max=*/4096);
  const ExploreStats full =
      bounded.Run([&](ExploreChooser& chooser) { return LongRun(bounded, chooser, 100'000); },
                  [](const ExploreStats&) { return true; });
  EXPECT_EQ(full.stop_reason, "memory_max");
  EXPECT_EQ(full.runs, 1u);
  EXPECT_EQ(full.states, 47u);  // 47 states x 96 bytes + the path's one decision > 4096
  EXPECT_EQ(full.held_bytes, 47u * 96 + sizeof(Branch));
}

// Issue 54 (R8): breadth-first queued every child of a run before it compared the queue with
// memory_max; a path of n decisions has n children of up to n decisions (n^2 / 2 in all).
TEST(ExplorerTest, MemoryMaxStopsWhileTheChildrenOfALongPathAreQueued) {
  Explorer explorer(DecisionPolicy{}, Order::kBreadthFirst, UINT64_MAX, /*memory_max=*/1 << 20);
  const ExploreStats st = explorer.Run(
      [&](ExploreChooser& chooser) {
        for (int i = 0; i < 4000; ++i) chooser.Chance("net.drop", Ratio{1, 100});
        return RunVerdict{};
      },
      [](const ExploreStats&) { return true; });
  EXPECT_EQ(st.stop_reason, "memory_max");
  EXPECT_EQ(st.runs, 1u);
  // The 4,000 children would hold 32 MB; the queue stopped one child past 1 MiB.
  EXPECT_GT(st.held_bytes, uint64_t{1} << 20);
  EXPECT_LT(st.held_bytes, (uint64_t{1} << 20) + 4000 * 4 + 64);
  EXPECT_LT(st.frontier, 4000u);
}

TEST(ExplorerTest, ProgressCanStopTheSearch) {
  Explorer explorer(DecisionPolicy{}, Order::kDepthFirst, UINT64_MAX);
  const ExploreStats st = explorer.Run(
      [&](ExploreChooser& chooser) {
        Decide(chooser, nullptr);
        return RunVerdict{};
      },
      [](const ExploreStats& s) { return s.runs < 4; });
  EXPECT_EQ(st.runs, 4u);
  EXPECT_EQ(st.stop_reason, "stopped");
  EXPECT_FALSE(st.exhausted);
}

}  // namespace explorer_test
}  // namespace
}  // namespace repartsim::sim::explore
