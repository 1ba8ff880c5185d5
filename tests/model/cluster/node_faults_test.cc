// Goal: the node-fault choices (model/cluster/node_faults.h) draw exactly what they state: no
// decision at all while a fault is off; when on, a Chance labelled net.pause / net.lease_gap
// and then a Choose of the extra milliseconds (a wait of 1 + value ms); the leader-start
// window is one Choose over [0, max]; a replay failure is one Chance labelled net.replay_fail.
// Method: a ScriptedChooser that pins decisions by index and label (a label that differs from
// the decision asked at that index sets mismatch()), and counts the decisions asked.
#include "model/cluster/node_faults.h"

#include <gtest/gtest.h>

#include "sim/scripted_chooser.h"

namespace repartsim::model {
namespace {
namespace node_faults_test {

NodeFaults On() {
  NodeFaults faults;
  faults.pause = sim::Ratio{1, 10};
  faults.pause_ms_max = sim::Ms(500);
  faults.lease_gap = sim::Ratio{1, 10};
  faults.lease_gap_ms_max = sim::Ms(40);
  faults.leader_start_ms_max = sim::Ms(3000);
  faults.replay_fail = sim::Ratio{1, 3};
  return faults;
}

TEST(NodeFaultsTest, AFaultThatIsOffDrawsNothing) {
  sim::ScriptedChooser chooser({});
  const NodeFaults off;
  EXPECT_EQ(ChoosePause(off, chooser), std::nullopt);
  EXPECT_EQ(ChooseLeaseGap(off, chooser), std::nullopt);
  EXPECT_EQ(ChooseLeaderStartWindow(off, chooser), sim::Duration{0});
  EXPECT_FALSE(ChooseReplayFailure(off, chooser));
  EXPECT_EQ(chooser.choice_count(), 0u);
}

TEST(NodeFaultsTest, AnsweredNoThePauseAndTheGapDrawOnlyTheirChance) {
  sim::ScriptedChooser chooser({});
  EXPECT_EQ(ChoosePause(On(), chooser), std::nullopt);
  EXPECT_EQ(ChooseLeaseGap(On(), chooser), std::nullopt);
  EXPECT_EQ(chooser.choice_count(), 2u);
}

TEST(NodeFaultsTest, AnsweredYesTheyWaitOneMsMoreThanTheChosenValue) {
  sim::ScriptedChooser chooser({{0, "net.pause", 1},
                                {1, "net.pause_ms", 499},
                                {2, "net.lease_gap", 1},
                                {3, "net.lease_gap_ms", 0},
                                {4, "net.leader_start_ms", 3000},
                                {5, "net.replay_fail", 1}});
  EXPECT_EQ(ChoosePause(On(), chooser), sim::Ms(500));
  EXPECT_EQ(ChooseLeaseGap(On(), chooser), sim::Ms(1));
  EXPECT_EQ(ChooseLeaderStartWindow(On(), chooser), sim::Ms(3000));
  EXPECT_TRUE(ChooseReplayFailure(On(), chooser));
  EXPECT_FALSE(ChooseReplayFailure(On(), chooser));  // decision 6: the default, no
  EXPECT_EQ(chooser.mismatch(), nullptr);
  EXPECT_EQ(chooser.used(), 6u);
}

}  // namespace node_faults_test
}  // namespace
}  // namespace repartsim::model
