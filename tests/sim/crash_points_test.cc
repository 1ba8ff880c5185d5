// Goal: crash points decide through the Chooser with per-site ratios, scripted crashes fire
// on the exact hit, and stats are counted per site in name order.
// Method: drive ShouldCrash with Always/Never/forced replay answers and check counters.
#include "sim/crash_points.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {
namespace crash_points_test {

TEST(CrashPointsTest, DefaultPlanNeverCrashesAndConsumesNoChoice) {
  CrashPlan plan;
  CrashPointStats stats;
  RandomChooser chooser(1);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(ShouldCrash("a.site", chooser, plan, stats));
  EXPECT_EQ(chooser.choice_count(), 0u);
  EXPECT_EQ(stats.Get("a.site").hits, 10u);
  EXPECT_EQ(stats.Get("a.site").crashes, 0u);
}

TEST(CrashPointsTest, SiteOverrideBeatsDefault) {
  CrashPlan plan(Ratio::Always());
  plan.SetSite("safe", Ratio::Never());
  plan.SetSite("half", Ratio{1, 3});
  plan.SetSite("half", Ratio{1, 2});
  EXPECT_EQ(plan.RatioFor("other"), Ratio::Always());
  EXPECT_EQ(plan.RatioFor("safe"), Ratio::Never());
  EXPECT_EQ(plan.RatioFor("half"), (Ratio{1, 2}));
  ChoiceList list;
  list.AddChance("half", Ratio{1, 2}, true);
  ReplayChooser replay(list);
  CrashPointStats stats;
  EXPECT_TRUE(ShouldCrash("other", replay, plan, stats));
  EXPECT_FALSE(ShouldCrash("safe", replay, plan, stats));
  EXPECT_TRUE(ShouldCrash("half", replay, plan, stats));
  EXPECT_EQ(replay.mismatch(), nullptr);
  EXPECT_TRUE(replay.exhausted());
}

TEST(CrashPointsTest, ScriptedCrashFiresOnTheKthHitOnly) {
  CrashPlan plan;
  plan.Script("s", 3);
  CrashPointStats stats;
  RandomChooser chooser(1);
  std::vector<bool> crashed;
  for (int i = 0; i < 5; ++i) crashed.push_back(ShouldCrash("s", chooser, plan, stats));
  EXPECT_EQ(crashed, (std::vector<bool>{false, false, true, false, false}));
  EXPECT_FALSE(ShouldCrash("t", chooser, plan, stats));
  EXPECT_EQ(chooser.choice_count(), 0u);
  EXPECT_EQ(stats.Get("s").crashes, 1u);
}

TEST(CrashPointsTest, StatsListSitesInNameOrderIncludingRegisteredOnes) {
  CrashPlan plan(Ratio::Always());
  CrashPointStats stats;
  RandomChooser chooser(1);
  stats.Register("m.never_hit");
  ShouldCrash("z.last", chooser, plan, stats);
  ShouldCrash("a.first", chooser, plan, stats);
  ShouldCrash("a.first", chooser, plan, stats);
  EXPECT_EQ(stats.ToString(),
            "a.first hits=2 crashes=2\nm.never_hit hits=0 crashes=0\nz.last hits=1 crashes=1\n");
}

}  // namespace crash_points_test
}  // namespace
}  // namespace repartsim::sim
