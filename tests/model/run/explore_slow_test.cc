// Goal: the acceptance run of `explore` on the small split: the default policy (one crash
// point, one network fault, three values per delay) exhausts the tree under reference with
// no unexpected violation. Exact counts (measured once); about 7 s of CPU.
#include <gtest/gtest.h>

#include "model/run/explore.h"
#include "model/scenario/loader.h"

namespace repartsim::scenario {
namespace {

TEST(ExploreSlowTest, ReferenceExhaustsOneCrashOneFault) {
  auto s =
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/explore/split_small.yaml");
  ASSERT_TRUE(s.ok());
  auto x = ExploreScenario(s.value(), ExploreConfig{});
  ASSERT_TRUE(x.ok());
  EXPECT_TRUE(x.value().stats.exhausted);
  EXPECT_FALSE(x.value().counterexample.has_value());
  EXPECT_EQ(x.value().stats.runs, 21798u);
  EXPECT_EQ(x.value().stats.states, 214063u);
  EXPECT_EQ(x.value().stats.unique, 199396u);
}

}  // namespace
}  // namespace repartsim::scenario
