// Goal: FaultScript (model/cluster/fault_script.h) decides exactly as it states: a message
// matches the first rule not spent by kind (message or region op), sender and receiver; a
// rule is spent after `count` matches (0: never); an armed op fires on the n-th passing of
// its state, at once or a delay later; states are tracked once something waits on one; and
// the hash sees rules, counts, armed ops and passings.
// Method: hand-built rules and messages between nodes 0 (metasrv), 1 and 2 (datanodes).
#include "model/cluster/fault_script.h"

#include <gtest/gtest.h>

#include <vector>

namespace repartsim::model {
namespace {
namespace fault_script_test {

MessageRule Rule(MessageAction action, const std::string& kind, uint32_t count) {
  MessageRule rule;
  rule.action = action;
  rule.kind = kind;
  rule.count = count;
  return rule;
}

Outgoing Out(uint32_t to, MessageBody body) {
  Outgoing out;
  out.to = NodeId{to};
  out.message.body = std::move(body);
  return out;
}

ScheduledOp Crash(uint32_t node) { return FaultAction{CrashNodeOp{NodeId{node}}}; }

uint64_t HashOf(const FaultScript& script) {
  sim::Hasher h;
  script.HashRules(h);
  script.HashArmed(h);
  return h.Finish();
}

TEST(FaultScriptTest, AMessageMatchesTheFirstRuleNotSpentByKindSenderAndReceiver) {
  FaultScript script;
  EXPECT_FALSE(script.has_rules());
  MessageRule to_dn2 = Rule(MessageAction::kDrop, "Heartbeat", 1);
  to_dn2.to = NodeId{2};
  script.AddRule(to_dn2);
  MessageRule from_dn1 = Rule(MessageAction::kDelay, "Heartbeat", 2);
  from_dn1.from = NodeId{1};
  script.AddRule(from_dn1);
  script.AddRule(Rule(MessageAction::kDuplicate, "EnterStaging", 0));
  EXPECT_FALSE(script.tracks_states());
  const Outgoing heartbeat = Out(0, Heartbeat{});
  EXPECT_EQ(script.Match(NodeId{2}, heartbeat), std::nullopt);  // neither to dn2 nor from dn1
  EXPECT_EQ(script.Match(NodeId{1}, heartbeat), 1u);
  EXPECT_EQ(script.Match(NodeId{1}, Out(2, Heartbeat{})), 0u);
  script.Count(0);  // spent: the next rule takes over
  EXPECT_EQ(script.Match(NodeId{1}, Out(2, Heartbeat{})), 1u);
  script.Count(1);
  script.Count(1);
  EXPECT_EQ(script.Match(NodeId{1}, heartbeat), std::nullopt);
  // A region request matches by its op; count 0 never spends.
  RegionRequest request;
  request.items.push_back(RegionInstruction{RegionId{}, EnterStagingOp{}});
  EXPECT_EQ(script.Match(NodeId{0}, Out(1, request)), 2u);
  request.items[0].op = FlushRegionOp{};
  EXPECT_EQ(script.Match(NodeId{0}, Out(1, request)), std::nullopt);
  for (int i = 0; i < 5; ++i) script.Count(2);
  request.items[0].op = EnterStagingOp{};
  EXPECT_EQ(script.Match(NodeId{0}, Out(1, request)), 2u);  // count 0: never spent
  EXPECT_EQ(script.rule(2).kind, "EnterStaging");
  script.ClearRules();
  EXPECT_FALSE(script.has_rules());
}

TEST(FaultScriptTest, AnArmedOpFiresOnTheNthPassingAtOnceOrADelayLater) {
  FaultScript script;
  script.Arm("Repartition.Prepare", 2, sim::Duration{0}, Crash(1));
  script.Arm("Repartition.Prepare", 1, sim::Ms(40), Crash(2));
  script.Arm("Repartition.Commit", 1, sim::Duration{0}, Crash(3));
  EXPECT_TRUE(script.tracks_states());
  std::vector<ScheduledOp> now;
  EXPECT_EQ(script.PassState("Repartition.Prepare", sim::AtMs(100), &now), 1u);
  EXPECT_TRUE(now.empty());
  std::vector<std::pair<size_t, int64_t>> due;
  script.ForEachDue([&](size_t i, sim::SimTime at) { due.push_back({i, at.ms}); });
  EXPECT_EQ(due, (std::vector<std::pair<size_t, int64_t>>{{1, 140}}));
  EXPECT_EQ(script.PassState("Repartition.Prepare", sim::AtMs(200), &now), 2u);
  ASSERT_EQ(now.size(), 1u);
  EXPECT_EQ(std::get<CrashNodeOp>(std::get<FaultAction>(now[0])).node, NodeId{1});
  const ScheduledOp delayed = script.TakeDue(0);  // the delayed one is now first
  EXPECT_EQ(std::get<CrashNodeOp>(std::get<FaultAction>(delayed)).node, NodeId{2});
  const std::vector<ArmedOp> left = script.TakeAllArmed();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].state, "Repartition.Commit");
  EXPECT_FALSE(left[0].due.has_value());
  EXPECT_TRUE(script.armed_empty());
}

TEST(FaultScriptTest, AHoldRuleTracksStatesAndTheHashSeesCountsAndPassings) {
  FaultScript script;
  MessageRule hold = Rule(MessageAction::kHold, "Heartbeat", 1);
  hold.until_state = "Repartition.Prepare";
  const uint64_t empty = HashOf(script);
  script.AddRule(hold);
  EXPECT_TRUE(script.tracks_states());
  const uint64_t with_rule = HashOf(script);
  EXPECT_NE(with_rule, empty);
  script.Count(0);
  const uint64_t counted = HashOf(script);
  EXPECT_NE(counted, with_rule);
  std::vector<ScheduledOp> now;
  script.PassState("Repartition.Prepare", sim::AtMs(1), &now);
  EXPECT_NE(HashOf(script), counted);
}

}  // namespace fault_script_test
}  // namespace
}  // namespace repartsim::model
