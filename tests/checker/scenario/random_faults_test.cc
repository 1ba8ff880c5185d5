// Goal: the reference profile is clean under the random faults of the bundled library
// (scenarios/random/: delays up to 10 s, stream resets, datanode pauses, handler-chain lease
// gaps, crash points, leader-start windows, swarm; background compaction, checkpoints and GC;
// background region opening in two; region migrations beside a split and a merge in two (one with
// fence-captured-peers off); the per-seed shapes of the four swarm files). Method: a sample of 200
// seeds of each scenario (2,800 runs) must all pass; random_faults_slow_test.cc runs every seed
// (70,000).
#include "tests/checker/scenario/random_faults.h"

namespace repartsim::scenario {
namespace {
namespace random_faults_test {

TEST(RandomFaultsTest, ReferencePassesASampleOfTwoHundredSeedsEach) {
  ASSERT_EQ(RandomFaultScenarios().size(), 14u);
  const SweepResult r = SweepReference(200);
  EXPECT_EQ(r.runs, 2800u);
  std::string text;
  for (const std::string& f : r.failures) text += f + "\n";
  EXPECT_TRUE(r.failures.empty()) << text;
}

}  // namespace random_faults_test
}  // namespace
}  // namespace repartsim::scenario
