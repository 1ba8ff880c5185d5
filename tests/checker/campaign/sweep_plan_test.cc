// Goal: the sweep plan (checker/campaign/sweep_plan.h) in process: shard specs parse exactly;
// the shards of a sweep partition its global (scenario, seed) list, each run in exactly one
// shard at the position the striping rule names; a huge range is refused without a loop; a
// scenario named twice is planned once; resume keeps exactly the finished runs of the same
// sweep and refuses another sweep's report; execution runs, skips (budget, stop) and reports
// progress; the determinism re-check samples per scenario and names a tampered hash.
// Method: a bundled scenario loaded twice under different names, with chosen seed ranges.
#include "checker/campaign/sweep_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/report/sweep_text.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::campaign {
namespace {
namespace sweep_plan_test {

scenario::Scenario Load(const std::string& file, uint64_t first, uint64_t last) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/" + file);
  EXPECT_TRUE(s.ok()) << s.error().Format();
  scenario::Scenario out = std::move(s).value();
  out.seed_first = first;
  out.seed_last = last;
  return out;
}

constexpr const char* kA = "stale_cache/raced_route_fill_kept.yaml";
constexpr const char* kB = "merge/staged_file_claims_old_range.yaml";

std::vector<std::pair<std::string, uint64_t>> Items(const SweepPlan& plan) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const SweepItem& item : plan.items()) {
    out.push_back({plan.scenarios()[item.scenario].path, item.seed});
  }
  return out;
}

TEST(SweepPlanTest, ParseShardTakesIOverNOnly) {
  ASSERT_TRUE(ParseShard("0/1").has_value());
  EXPECT_EQ(ParseShard("2/3")->index, 2u);
  EXPECT_EQ(ParseShard("2/3")->count, 3u);
  EXPECT_EQ(ParseShard("2/3")->Text(), "2/3");
  EXPECT_EQ(ParseShard("4294967294/4294967295")->index, 4294967294u);
  for (const char* bad :
       {"3/3", "1/0", "", "1", "/2", "1/", "a/2", "-1/2", "1/4294967296", "0/1/2", " 0/1"}) {
    EXPECT_FALSE(ParseShard(bad).has_value()) << bad;
  }
}

TEST(SweepPlanTest, RulesTextNamesEachOverride) {
  EXPECT_EQ(RulesText({}), "");
  EXPECT_EQ(RulesText({{"fenced-reads", false}, {"durable-staging", true}}),
            "fenced-reads=off,durable-staging=on");
}

TEST(SweepPlanTest, ShardsPartitionTheGlobalRunList) {
  const std::vector<std::pair<std::string, uint64_t>> global = [] {
    SweepPlan whole({}, Shard{}, std::nullopt);
    SweepReport report;
    EXPECT_TRUE(whole.Add(Load(kA, 0, 4), "0x1", report).ok());
    EXPECT_TRUE(whole.Add(Load(kB, 10, 13), "0x2", report).ok());
    EXPECT_EQ(report.scenarios.size(), 2u);
    return Items(whole);
  }();
  ASSERT_EQ(global.size(), 9u);
  EXPECT_EQ(global[5].second, 10u);
  for (uint32_t count = 1; count <= 10; ++count) {
    for (uint32_t index = 0; index < count; ++index) {
      SweepPlan shard({}, Shard{index, count}, std::nullopt);
      SweepReport report;
      ASSERT_TRUE(shard.Add(Load(kA, 0, 4), "0x1", report).ok());
      ASSERT_TRUE(shard.Add(Load(kB, 10, 13), "0x2", report).ok());
      std::vector<std::pair<std::string, uint64_t>> expected;
      for (size_t p = index; p < global.size(); p += count) expected.push_back(global[p]);
      EXPECT_EQ(Items(shard), expected) << index << "/" << count;
    }
  }
}

TEST(SweepPlanTest, SeedsOverrideEveryScenarioRange) {
  SweepPlan plan({}, Shard{}, std::make_pair(uint64_t{7}, uint64_t{8}));
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 4), "0x1", report).ok());
  EXPECT_EQ(Items(plan), (std::vector<std::pair<std::string, uint64_t>>{
                             {plan.scenarios()[0].path, 7}, {plan.scenarios()[0].path, 8}}));
}

TEST(SweepPlanTest, HugeRangeIsRefusedWithoutALoop) {
  SweepPlan plan({}, Shard{0, 2}, std::make_pair(uint64_t{0}, UINT64_MAX));
  SweepReport report;
  sim::Status st = plan.Add(Load(kA, 0, 0), "0x1", report);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("sweep of more than 1000000 runs"), std::string::npos);
  EXPECT_NE(st.error().message.find("seeds 0..18446744073709551615 in shard 0/2"),
            std::string::npos);
  EXPECT_TRUE(plan.items().empty());
  EXPECT_TRUE(report.scenarios.empty());
}

TEST(SweepPlanTest, TheWholeSeedRangeInOneShardIsRefusedNotWrapped) {
  // 2^64 seeds: a count that wraps to 0 would slip under the cap.
  SweepPlan plan({}, Shard{}, std::make_pair(uint64_t{0}, UINT64_MAX));
  SweepReport report;
  sim::Status st = plan.Add(Load(kA, 0, 0), "0x1", report);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("sweep of more than 1000000 runs"), std::string::npos);
  EXPECT_EQ(st.error().message.find(" in shard "), std::string::npos);
  EXPECT_TRUE(plan.items().empty());

  // A one-seed --seeds range (span 0) is one run.
  SweepPlan edge({}, Shard{0, 1}, std::make_pair(uint64_t{5}, uint64_t{5}));
  EXPECT_TRUE(edge.Add(Load(kA, 0, 0), "0x1", report).ok());
  EXPECT_EQ(edge.items().size(), 1u);
}

TEST(SweepPlanTest, AScenarioNamedTwiceIsPlannedOnce) {
  SweepPlan plan({}, Shard{}, std::nullopt);
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 2), "0x1", report).ok());
  ASSERT_TRUE(plan.Add(Load(kA, 0, 2), "0x1", report).ok());
  EXPECT_EQ(report.scenarios.size(), 1u);
  EXPECT_EQ(plan.items().size(), 3u);
  EXPECT_EQ(report.scenarios[0].expect, "pass");
  EXPECT_EQ(report.scenarios[0].profile, "greptime");
}

TEST(SweepPlanTest, ResumeKeepsTheFinishedRunsOfTheSameSweepOnly) {
  SweepPlan plan({}, Shard{}, std::nullopt);
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 2), "0x1", report).ok());
  report.sweep_id = "0xabc";
  SweepReport previous;
  previous.sweep_id = "0xdef";
  std::string note;
  auto refused = plan.Resume(previous, report, "old.json", &note);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("old.json is a report of another sweep (sweep_id 0xdef, "
                                         "this one 0xabc)"),
            std::string::npos);

  previous.sweep_id = "0xabc";
  previous.runs = {plan.Placeholder(0, "pass"), plan.Placeholder(1, "skipped"),
                   plan.Placeholder(2, "safety")};
  previous.runs[0].steps = 11;
  auto runs = plan.Resume(previous, report, "old.json", &note);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs.value().size(), 3u);
  EXPECT_EQ(runs.value()[0].steps, 11u);
  EXPECT_TRUE(runs.value()[1].path.empty());
  EXPECT_EQ(runs.value()[2].outcome, "safety");
  EXPECT_EQ(plan.done(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(note, "resumed from old.json: 2 finished runs kept, 1 to run");
}

TEST(SweepPlanTest, ExecuteRunsSkipsOnBudgetAndStops) {
  SweepPlan plan({}, Shard{}, std::nullopt);
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 1), "0x1", report).ok());
  std::vector<std::vector<size_t>> progress;
  SweepHooks hooks;
  hooks.now_ms = [] { return int64_t{5}; };
  hooks.progress = [&](size_t done, size_t total, size_t failing) {
    progress.push_back({done, total, failing});
  };
  SweepExecution ran = ExecuteSweep(plan, {}, 1, hooks);
  ASSERT_EQ(ran.runs.size(), 2u);
  EXPECT_EQ(ran.runs[0].outcome, "pass");
  EXPECT_EQ(ran.runs[1].seed, 1u);
  EXPECT_GT(ran.runs[1].steps, 0u);
  EXPECT_EQ(ran.runs[0].wall_ms, 0);  // the clock stood still
  EXPECT_FALSE(ran.stopped);
  EXPECT_TRUE(ran.notes.empty());
  EXPECT_EQ(progress, (std::vector<std::vector<size_t>>{{1, 2, 0}, {2, 2, 0}}));
  EXPECT_EQ(FinishedRuns(ran.runs), 2u);

  plan.budget_ms = 4;  // already spent: every run is skipped, the sweep is not stopped
  SweepExecution over = ExecuteSweep(plan, {}, 1, hooks);
  EXPECT_EQ(over.runs[0].outcome, "skipped");
  EXPECT_EQ(over.runs[1].outcome, "skipped");
  EXPECT_FALSE(over.stopped);
  EXPECT_EQ(FinishedRuns(over.runs), 0u);

  plan.budget_ms = 0;
  hooks.should_stop = [] { return true; };
  SweepExecution stopped = ExecuteSweep(plan, {}, 1, hooks);
  EXPECT_TRUE(stopped.stopped);
  EXPECT_EQ(stopped.runs[0].outcome, "unrun");  // an interrupted sweep is not green
  EXPECT_EQ(stopped.runs[0].path, plan.scenarios()[0].path);
}

TEST(SweepPlanTest, ABudgetLeavesEveryScenarioSampledSeedMajor) {
  // The k-th seed of every scenario runs before any (k+1)-th, so a budget that ends the sweep
  // after five runs leaves both scenarios sampled (3 and 2 runs), not the first one alone.
  // The clock is a counter that ticks at every reading: a run reads it three times (budget,
  // start, end), so the budget check before the sixth run reads 16 > 15.
  SweepPlan plan({}, Shard{}, std::nullopt);
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 9), "0x1", report).ok());
  ASSERT_TRUE(plan.Add(Load(kB, 0, 9), "0x2", report).ok());
  plan.budget_ms = 15;
  int64_t clock = 0;
  SweepHooks hooks;
  hooks.now_ms = [&clock] { return ++clock; };
  std::vector<std::vector<size_t>> progress;
  hooks.progress = [&](size_t done, size_t total, size_t unexpected) {
    progress.push_back({done, total, unexpected});
  };
  const SweepExecution ex = ExecuteSweep(plan, {}, 1, hooks);
  ASSERT_EQ(ex.runs.size(), 20u);
  // Issue 53: the skipped runs are neither done nor to do (before, each counted as done, and
  // the rate read 2,470 runs/s): five runs of 20, then the sweep ends at 5 of 5.
  EXPECT_EQ(progress, (std::vector<std::vector<size_t>>{
                          {1, 20, 0}, {2, 20, 0}, {3, 20, 0}, {4, 20, 0}, {5, 20, 0}, {5, 5, 0}}));
  std::vector<std::string> ran;
  for (const SweepRun& run : ex.runs) {
    if (run.outcome == "skipped") continue;
    ran.push_back(run.path.substr(run.path.rfind('/') + 1) + ":" + std::to_string(run.seed));
  }
  EXPECT_EQ(ran, (std::vector<std::string>{
                     "raced_route_fill_kept.yaml:0", "raced_route_fill_kept.yaml:1",
                     "raced_route_fill_kept.yaml:2", "staged_file_claims_old_range.yaml:0",
                     "staged_file_claims_old_range.yaml:1"}));
  EXPECT_EQ(FinishedRuns(ex.runs), 5u);
  EXPECT_FALSE(ex.stopped);
}

TEST(SweepPlanTest, FinishSweepMarksAStoppedSweepIncompleteAndSaysWhy) {
  SweepPlan plan({}, Shard{}, std::nullopt);
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 1), "0x1", report).ok());
  report.complete = true;
  SweepHooks hooks;
  hooks.now_ms = [] { return int64_t{0}; };
  hooks.should_stop = [] { return true; };  // a stop request, no signal
  const int verdict = FinishSweep(plan, ExecuteSweep(plan, {}, 1, hooks), 2, report);
  EXPECT_EQ(verdict, 70);  // unrun runs; no signal to exit 128 + N with
  EXPECT_TRUE(report.interrupted);
  EXPECT_FALSE(report.complete);
  EXPECT_EQ(report.notes, (std::vector<std::string>{
                              "interrupted by a stop request after 0 of 2 runs; the report holds "
                              "the finished runs, the rest are unrun (continue with --resume)"}));

  SweepPlan again({}, Shard{}, std::nullopt);
  SweepReport whole;
  ASSERT_TRUE(again.Add(Load(kA, 0, 1), "0x1", whole).ok());
  whole.complete = true;
  hooks.should_stop = nullptr;
  EXPECT_EQ(FinishSweep(again, ExecuteSweep(again, {}, 1, hooks), 2, whole), 0);
  EXPECT_FALSE(whole.interrupted);
  EXPECT_TRUE(whole.complete);
  EXPECT_TRUE(whole.notes.empty());
  EXPECT_EQ(FinishedRuns(whole.runs), 2u);
}

TEST(SweepPlanTest, TheProgressLineDrawsAThirtyColumnBar) {
  // Issue 53: with the elapsed time and the time left.
  EXPECT_EQ(report::SweepProgressLine(10, 40, 1, 2000),
            "[#######                       ] 10/40 runs, 1 unexpected, 5.0 runs/s, 0:02 "
            "elapsed, about 0:06 left ");
  EXPECT_EQ(report::SweepProgressLine(0, 0, 0, 0),
            "[##############################] 0/0 runs, 0 unexpected, 0.0 runs/s, 0:00 elapsed ");
  EXPECT_EQ(report::SweepProgressLine(40, 40, 0, 65000),
            "[##############################] 40/40 runs, 0 unexpected, 0.6 runs/s, 1:05 "
            "elapsed ");
}

TEST(SweepPlanTest, RecheckSamplesPerScenarioAndNamesATamperedHash) {
  SweepPlan plan({}, Shard{}, std::nullopt);
  SweepReport report;
  ASSERT_TRUE(plan.Add(Load(kA, 0, 2), "0x1", report).ok());
  SweepHooks hooks;
  hooks.now_ms = [] { return int64_t{0}; };
  report.runs = ExecuteSweep(plan, {}, 1, hooks).runs;
  report.Aggregate();
  RecheckDeterminism(plan, report, 2, nullptr);
  EXPECT_EQ(report.determinism_checked, 2u);
  EXPECT_TRUE(report.determinism_mismatches.empty());

  report.runs[0].trace_hash = "0x0000000000000001";
  report.determinism_checked = 0;
  RecheckDeterminism(plan, report, 1, nullptr);
  EXPECT_EQ(report.determinism_checked, 1u);
  ASSERT_EQ(report.determinism_mismatches.size(), 1u);
  EXPECT_NE(report.determinism_mismatches[0].find(" seed 0: trace_hash 0x0000000000000001 then "),
            std::string::npos);
}

}  // namespace sweep_plan_test
}  // namespace
}  // namespace repartsim::campaign
