// Goal: the reference profile is clean under the random faults of the bundled library
// (scenarios/random/: delays up to 10 s, stream resets, datanode pauses, handler-chain lease
// gaps, crash points, leader-start windows, swarm; background compaction in one). Method: a
// sample of 200 seeds of each scenario (1,400 runs) must all pass; random_faults_slow_test.cc
// runs every seed (35,000).
#include "tests/model/scenario/random_faults.h"

namespace repartsim::scenario {
namespace {
namespace random_faults_test {

TEST(RandomFaultsTest, ReferencePassesASampleOfTwoHundredSeedsEach) {
  ASSERT_EQ(RandomFaultScenarios().size(), 7u);
  const SweepResult r = SweepReference(200);
  EXPECT_EQ(r.runs, 1400u);
  std::string text;
  for (const std::string& f : r.failures) text += f + "\n";
  EXPECT_TRUE(r.failures.empty()) << text;
}

}  // namespace random_faults_test
}  // namespace
}  // namespace repartsim::scenario
