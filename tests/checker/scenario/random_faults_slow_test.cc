// Goal: the reference profile passes every seed of the random-fault library
// (scenarios/random/, 14 scenarios x 5,000 seeds = 70,000 runs). Slow: minutes.
#include "tests/checker/scenario/random_faults.h"

namespace repartsim::scenario {
namespace {
namespace random_faults_slow_test {

TEST(RandomFaultsSlowTest, ReferencePassesEverySeed) {
  const SweepResult r = SweepReference(0);
  EXPECT_EQ(r.runs, 70000u);
  std::string text;
  for (const std::string& f : r.failures) text += f + "\n";
  EXPECT_TRUE(r.failures.empty()) << text;
}

}  // namespace random_faults_slow_test
}  // namespace
}  // namespace repartsim::scenario
