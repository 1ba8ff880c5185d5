// Goal: once healed, PhaseChooser answers every network fault question ("net.*") with "no" at
// any ratio, 1/1 included, and leaves other questions alone. Before issue 53 the filter sat
// behind Chance's always-ratio shortcut, so a fault at 1/1 stayed on in the liveness phase.
// Method: a PhaseChooser over a RandomChooser; answers and counts are exact.
#include "checker/run/phase_chooser.h"

#include <gtest/gtest.h>

namespace repartsim::run {
namespace {
namespace phase_chooser_test {

TEST(PhaseChooserTest, HealedSilencesNetworkFaultsAtAnyRatio) {
  sim::RandomChooser random(7);
  PhaseChooser chooser(random);
  EXPECT_TRUE(chooser.Chance("net.checkpoint_race", sim::Ratio::Always()));
  EXPECT_TRUE(chooser.Chance("net.drop", sim::Ratio::Always()));
  chooser.set_healed(true);
  EXPECT_FALSE(chooser.Chance("net.checkpoint_race", sim::Ratio::Always()));
  EXPECT_FALSE(chooser.Chance("net.drop", sim::Ratio::Always()));
  EXPECT_FALSE(chooser.Chance("net.delay", sim::Ratio{1, 2}));
  // Not a network fault: still answered.
  EXPECT_TRUE(chooser.Chance("crash.site", sim::Ratio::Always()));
  // Forced answers only: nothing drawn, nothing counted.
  EXPECT_EQ(chooser.choice_count(), 0u);
  EXPECT_EQ(random.draw_count(), 0u);
  chooser.set_healed(false);
  EXPECT_TRUE(chooser.Chance("net.drop", sim::Ratio::Always()));
}

}  // namespace phase_chooser_test
}  // namespace
}  // namespace repartsim::run
