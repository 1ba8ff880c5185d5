// Goal: merging sweep reports (checker/campaign/sweep_merge.h) in process: two shards of one
// sweep merge, in either order, into the complete report of the unsharded sweep; a missing, a
// repeated or a foreign shard, another binary, a changed scenario file and a run in two reports
// are refused with the error located at the offending field of the offending report.
// Method: a three-seed sweep of one bundled scenario run whole and as shards 0/2 and 1/2
// (SweepPlan, ExecuteSweep), its reports written as JSON and read back.
#include "checker/campaign/sweep_merge.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "checker/campaign/sweep_plan.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::campaign {
namespace {
namespace sweep_merge_test {

// Seeds 0..2 of one scenario; `ranged`: given as --seeds 0..2 (else the scenario's own).
MergePart Sweep(Shard shard, const std::string& name, bool ranged = false) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/stale_cache/raced_route_fill_kept.yaml");
  EXPECT_TRUE(s.ok());
  scenario::Scenario scenario = std::move(s).value();
  scenario.seed_first = 0;
  scenario.seed_last = 2;
  SweepPlan plan({}, shard,
                 ranged ? std::optional(std::make_pair(uint64_t{0}, uint64_t{2})) : std::nullopt);
  SweepReport report;
  report.binary_version = "test";
  report.binary_id = "0x1";
  report.seeds = ranged ? "0..2" : "per-scenario";
  report.shard = shard.Text();
  report.complete = shard.count == 1;
  EXPECT_TRUE(plan.Add(std::move(scenario), "0xf11e", report).ok());
  report.sweep_id = report.SweepId();
  SweepHooks hooks;
  hooks.now_ms = [] { return int64_t{0}; };
  report.runs = ExecuteSweep(plan, {}, 1, hooks).runs;
  report.Aggregate();
  MergePart part;
  part.path = name;
  part.text = report.ToJson().dump(1);
  auto read = SweepReport::FromJson(part.text, name);
  EXPECT_TRUE(read.ok()) << read.error().Format();
  part.report = std::move(read).value();
  return part;
}

// Re-reads `part` after `edit` changed its JSON.
MergePart Edited(MergePart part, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(part.text);
  edit(j);
  part.text = j.dump(1);
  auto read = SweepReport::FromJson(part.text, part.path);
  EXPECT_TRUE(read.ok()) << read.error().Format();
  part.report = std::move(read).value();
  return part;
}

std::string Refusal(const std::vector<MergePart>& parts) {
  auto merged = MergeSweepReports(parts);
  EXPECT_FALSE(merged.ok());
  return merged.ok() ? "" : merged.error().Format();
}

TEST(SweepMergeTest, ShardsMergeInAnyOrderIntoTheWholeSweep) {
  SweepReport whole = Sweep(Shard{0, 1}, "whole.json").report;
  whole.Aggregate();  // a report read back is aggregated by whoever reads it
  const MergePart s0 = Sweep(Shard{0, 2}, "s0.json");
  const MergePart s1 = Sweep(Shard{1, 2}, "s1.json");
  EXPECT_EQ(s0.report.runs.size(), 2u);
  EXPECT_EQ(s1.report.runs.size(), 1u);
  EXPECT_EQ(s0.report.sweep_id, s1.report.sweep_id);
  for (const std::vector<MergePart>& order :
       {std::vector<MergePart>{s0, s1}, std::vector<MergePart>{s1, s0}}) {
    auto merged = MergeSweepReports(order);
    ASSERT_TRUE(merged.ok()) << merged.error().Format();
    const SweepReport& m = merged.value().report;
    EXPECT_EQ(merged.value().sweeps, 1u);
    EXPECT_TRUE(m.complete);
    EXPECT_EQ(m.shard, "0/1");
    EXPECT_EQ(m.sweep_id, s0.report.sweep_id);
    EXPECT_EQ(m.runs.size(), 3u);
    EXPECT_EQ(m.tallies.at(m.scenarios[0].Key()).pass, 3u);
    EXPECT_EQ(m.ExitCode(), whole.ExitCode());
    EXPECT_EQ(m.ExitCode(), 0);
    EXPECT_EQ(m.groups.size(), whole.groups.size());
  }
}

TEST(SweepMergeTest, MissingRepeatedAndForeignShardsAreRefusedWhereTheyAre) {
  const MergePart s0 = Sweep(Shard{0, 2}, "s0.json");
  const MergePart s1 = Sweep(Shard{1, 2}, "s1.json");
  EXPECT_NE(Refusal({s0}).find("s0.json:"), std::string::npos);
  EXPECT_NE(Refusal({s0}).find("is missing shard 1/2 (have s0.json (0/2)); merge needs every "
                               "shard exactly once"),
            std::string::npos);
  EXPECT_NE(Refusal({s0, s1, s0}).find("is given twice (also s0.json)"), std::string::npos);
  const MergePart other = Edited(s1, [](nlohmann::json& j) { j["binary"]["id"] = "0x2"; });
  const std::string foreign = Refusal({s0, other});
  EXPECT_EQ(foreign.rfind("s1.json:", 0), 0u) << foreign;
  EXPECT_NE(foreign.find("merge reports of one binary"), std::string::npos);
}

TEST(SweepMergeTest, AChangedScenarioAndARunInTwoReportsAreRefused) {
  const MergePart s0 = Sweep(Shard{0, 2}, "s0.json");
  const MergePart s1 = Sweep(Shard{1, 2}, "s1.json");
  const MergePart changed =
      Edited(s1, [](nlohmann::json& j) { j["scenarios"][0]["hash"] = "0xbeef"; });
  EXPECT_NE(Refusal({s0, changed})
                .find("has hash 0xbeef here but 0xf11e in s0.json: the file "
                      "changed between the sweeps"),
            std::string::npos);
  const MergePart overlapping = Edited(s1, [&](nlohmann::json& j) {
    j["runs"][0]["seed"] = 0;  // seed 0 is shard 0's
  });
  EXPECT_NE(Refusal({s0, overlapping})
                .find("seed 0 is also in s0.json: overlapping sweeps or "
                      "shards"),
            std::string::npos);
}

TEST(SweepMergeTest, ADeletedRunAndASeedOutsideTheRangeAreRefused) {
  // Before: a shard with a run deleted, or with a seed outside --seeds, merged green.
  const MergePart s0 = Sweep(Shard{0, 2}, "s0.json", true);
  const MergePart s1 = Sweep(Shard{1, 2}, "s1.json", true);
  auto whole = MergeSweepReports({s0, s1});
  ASSERT_TRUE(whole.ok()) << whole.error().Format();
  EXPECT_EQ(whole.value().report.runs.size(), 3u);
  const MergePart deleted = Edited(s1, [](nlohmann::json& j) { j["runs"].erase(0); });
  const std::string refusal = Refusal({s0, deleted});
  EXPECT_EQ(refusal.rfind("s0.json:", 0), 0u) << refusal;
  EXPECT_NE(refusal.find("holds 2 runs of scenario " + s0.report.scenarios[0].path +
                         " (profile greptime) for seeds 0..2: seed 1 is missing (a run deleted "
                         "from a report?); merge needs every run"),
            std::string::npos)
      << refusal;
  nlohmann::json outside = nlohmann::json::parse(s1.text);
  outside["runs"][0]["seed"] = 7;
  auto read = SweepReport::FromJson(outside.dump(1), "s1.json");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().message, "runs[0].seed: seed 7 lies outside the sweep's seeds 0..2");
}

}  // namespace sweep_merge_test
}  // namespace
}  // namespace repartsim::campaign
