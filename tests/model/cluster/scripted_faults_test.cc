// Goal: the scripted faults of a Cluster behave exactly as fault_action.h and cluster.h state:
// per-kind message rules (drop, delay, duplicate, hold until a procedure state, reorder) with
// their kind / from / to filters and counts, their end at the end of the safety phase, held
// messages lost with a crashed endpoint, ops armed on a procedure state (n-th pass, delay,
// disarmed when the state never passes), explicit lease expiry, and the fingerprint.
// Method: a 3-datanode, 2-frontend cluster (cluster_harness.h; region i on dn(i+1), frontend
// 0 is fe1 = n4) under the timed driver with no random faults, so every latency is exactly
// 1 ms; scripted ops are scheduled at fixed times and the test asserts write outcomes, rows
// read back, trace lines and their virtual times.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "checker/scenario/crash_sites.h"
#include "model/cluster/cluster.h"
#include "tests/model/cluster/cluster_harness.h"

namespace repartsim::model {
namespace {
namespace scripted_faults_test {

using testing::Harness;
using testing::kTable;
using testing::MakeRow;
using testing::Sorted;

constexpr char kSplit[] = "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)";
const RegionId kRegion0 = RegionId::Of(kTable, RegionNumber{0});

MessageRule Rule(MessageAction action, const std::string& kind, uint32_t count = 1) {
  MessageRule rule;
  rule.action = action;
  rule.kind = kind;
  rule.count = count;
  return rule;
}

// Table t created at 0; frontend 0 (fe1) writes (w, 1, 0, 15) at 2000 so that its route
// cache is filled before the test's own writes.
void WarmUp(Harness& h) {
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(2000), 0, {MakeRow("w", 1, 0, 15)});
}

void AddRule(Harness& h, int64_t at_ms, MessageRule rule) {
  h.cluster.Schedule(sim::AtMs(at_ms), MessageRuleOp{std::move(rule)});
}

TEST(ScriptedFaultsTest, DropLosesTheNextNMatchingMessagesToTheNodeAndPassesTheNext) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kDrop, "WriteRequest", 2);
  rule.to = h.cluster.datanode_id(0);
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});   // dn1: dropped
  h.Insert(sim::AtMs(3100), 0, {MakeRow("b", 1, 2, 12)});  // dn2: not matched
  h.Insert(sim::AtMs(3200), 0, {MakeRow("c", 1, 3, 2)});   // dn1: dropped
  h.Insert(sim::AtMs(3300), 0, {MakeRow("d", 1, 4, 3)});   // dn1: the third passes
  h.Query(sim::AtMs(9000), 1);
  h.RunUntil(10000);
  const History& history = h.cluster.history();
  ASSERT_EQ(history.writes.size(), 5u);
  EXPECT_EQ(history.writes[0].status, WriteStatus::kAcked);
  EXPECT_EQ(history.writes[1].status, WriteStatus::kUnknown);  // timed out
  EXPECT_EQ(history.writes[2].status, WriteStatus::kAcked);
  EXPECT_EQ(history.writes[3].status, WriteStatus::kUnknown);
  EXPECT_EQ(history.writes[4].status, WriteStatus::kAcked);
  EXPECT_EQ(h.TraceTimes("net.rule drop WriteRequest fe1->dn1"),
            (std::vector<int64_t>{3000, 3200}));
  EXPECT_EQ(h.TraceCount("net.rule"), 2u);
  ASSERT_EQ(history.queries.size(), 1u);
  ASSERT_EQ(history.queries[0].status, QueryStatus::kOk) << history.queries[0].error;
  EXPECT_EQ(Sorted(history.queries[0].rows),
            Sorted({MakeRow("w", 1, 0, 15), MakeRow("b", 1, 2, 12), MakeRow("d", 1, 4, 3)}));
}

TEST(ScriptedFaultsTest, DropCountAllLosesEveryMatchFromTheSenderUntilTheSafetyPhaseEnds) {
  Harness h;
  WarmUp(h);
  h.Insert(sim::AtMs(2000), 1, {MakeRow("w2", 1, 0, 25)});  // fe2's cache too
  MessageRule rule = Rule(MessageAction::kDrop, "WriteRequest", /*count=all*/ 0);
  rule.from = h.cluster.frontend_id(1);
  AddRule(h, 2500, rule);
  for (int i = 0; i < 3; ++i) {
    h.Insert(sim::AtMs(3000 + 100 * i), 1, {MakeRow("x", i, i, 3 + 10 * i)});  // fe2: dropped
    h.Insert(sim::AtMs(3050 + 100 * i), 0, {MakeRow("y", i, i, 3 + 10 * i)});  // fe1: passes
  }
  h.cluster.Schedule(sim::AtMs(9000), HealOp{/*end_of_safety=*/true});
  h.Insert(sim::AtMs(9100), 1, {MakeRow("z", 1, 1, 4)});  // the rule has ended
  h.RunUntil(10000);
  const History& history = h.cluster.history();
  ASSERT_EQ(history.writes.size(), 9u);
  for (size_t i = 2; i < 8; ++i) {
    const bool from_fe2 = history.writes[i].frontend == h.cluster.frontend_id(1);
    EXPECT_EQ(history.writes[i].status, from_fe2 ? WriteStatus::kUnknown : WriteStatus::kAcked)
        << i;
  }
  EXPECT_EQ(history.writes[8].status, WriteStatus::kAcked);
  EXPECT_EQ(h.TraceCount("net.rule drop WriteRequest fe2->dn"), 3u);
  EXPECT_EQ(h.TraceCount("net.rule"), 3u);
}

TEST(ScriptedFaultsTest, DelayAddsExactlyItsMillisecondsToTheNextMatchOnly) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kDelay, "WriteRequest");
  rule.to = h.cluster.datanode_id(0);
  rule.delay = sim::Ms(250);
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});
  h.Insert(sim::AtMs(3100), 0, {MakeRow("b", 1, 1, 2)});
  h.RunUntil(5000);
  EXPECT_EQ(h.TraceLines("net.rule"),
            std::vector<std::string>{h.TraceLines("net.rule delay WriteRequest fe1->dn1 +250ms")});
  EXPECT_EQ(h.TraceTimes("net.rule"), std::vector<int64_t>{3000});
  // Link latency 1 ms: the delayed request arrives at 3000 + 1 + 250, after the next one.
  EXPECT_EQ(h.TraceTimes("n1 recv WriteRequest from=fe1"), (std::vector<int64_t>{3101, 3251}));
  for (const WriteRecord& w : h.cluster.history().writes) EXPECT_EQ(w.status, WriteStatus::kAcked);
}

TEST(ScriptedFaultsTest, DuplicateDeliversTwoCopiesAndTheWriteIsAckedOnce) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kDuplicate, "WriteRequest");
  rule.to = h.cluster.datanode_id(0);
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});
  h.Insert(sim::AtMs(3100), 0, {MakeRow("b", 1, 1, 2)});
  h.Query(sim::AtMs(4000), 0, "a < 10");
  h.RunUntil(5000);
  EXPECT_EQ(h.TraceTimes("net.rule duplicate WriteRequest fe1->dn1"), std::vector<int64_t>{3000});
  EXPECT_EQ(h.TraceTimes("n1 recv WriteRequest from=fe1"),
            (std::vector<int64_t>{3001, 3001, 3101}));
  EXPECT_EQ(h.TraceTimes("n4 recv WriteReply from=dn1"), (std::vector<int64_t>{3002, 3002, 3102}));
  const History& history = h.cluster.history();
  ASSERT_EQ(history.writes.size(), 3u);
  EXPECT_EQ(history.writes[1].status, WriteStatus::kAcked);
  EXPECT_EQ(history.writes[1].end, sim::AtMs(3002));
  ASSERT_EQ(history.queries.size(), 1u);
  EXPECT_EQ(Sorted(history.queries[0].rows),
            Sorted({MakeRow("a", 1, 1, 1), MakeRow("b", 1, 1, 2)}));
}

TEST(ScriptedFaultsTest, RegionOpKindMatchesOnlyRegionRequestsWithThatOp) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  MessageRule rule = Rule(MessageAction::kDelay, "EnterStaging", /*count=all*/ 0);
  rule.delay = sim::Ms(100);
  AddRule(h, 2500, rule);
  h.Alter(sim::AtMs(3000), kSplit);
  h.RunUntil(20000);
  ASSERT_EQ(h.cluster.history().ddls.size(), 1u);
  EXPECT_EQ(h.cluster.history().ddls[0].status, DdlStatus::kDone) << h.TraceText();
  const std::vector<int64_t> delayed = h.TraceTimes("net.rule delay RegionRequest metasrv->dn");
  const std::vector<int64_t> entered = h.TraceTimes("dn.region_op EnterStaging");
  ASSERT_FALSE(delayed.empty());
  EXPECT_EQ(h.TraceCount("net.rule"), delayed.size());  // no other region op matched
  // One EnterStaging instruction per datanode: each region it names enters 101 ms after the
  // instruction was delayed; the split's two targets are entered.
  ASSERT_EQ(entered.size(), 2u);
  for (int64_t t : entered) {
    EXPECT_NE(std::find(delayed.begin(), delayed.end(), t - 101), delayed.end()) << t;
  }
  // Other region ops of the split (CreateRegion, RemapManifest, ...) took the plain 1 ms.
  EXPECT_TRUE(h.TraceHas("dn.region_op CreateRegion"));
  EXPECT_TRUE(h.TraceHas("dn.region_op ApplyStagingManifest"));
}

// A write to dn1 is held until CREATE TABLE of a second table passes CreateMetadata; that step
// broadcasts InvalidateCache to both frontends, and the held write goes out after them.
TEST(ScriptedFaultsTest, HoldReleasesInTheStepThatPassesTheStateAfterItsOwnMessages) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kHold, "WriteRequest");
  rule.to = h.cluster.datanode_id(0);
  rule.until_state = "CreateTable.CreateMetadata";
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});
  h.RunUntil(4000);
  EXPECT_EQ(h.cluster.held_message_count(), 1u);
  EXPECT_FALSE(h.cluster.Idle());
  EXPECT_EQ(h.TraceLines("net.rule"),
            std::vector<std::string>{h.TraceLines(
                "n4 net.rule hold WriteRequest fe1->dn1 until CreateTable.CreateMetadata")});
  h.CreateTable(sim::AtMs(4500), TableId{1025});
  h.RunUntil(7000);
  EXPECT_EQ(h.cluster.held_message_count(), 0u);
  const std::vector<std::string> passed =
      h.TraceLines("ms.state_passed CreateTable.CreateMetadata");
  ASSERT_EQ(passed.size(), 1u);  // table 1025 (the first CREATE TABLE ran before the rule)
  const std::vector<std::string> released = h.TraceLines("net.release WriteRequest fe1->dn1");
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(Harness::LineStep(released[0]), Harness::LineStep(passed[0]));
  const int64_t t = Harness::LineTime(passed[0]);
  EXPECT_GT(t, 4500);
  // Deliveries at t + 1, in send order: the step's two invalidations and the answer to the
  // CREATE TABLE call, then the released write.
  std::vector<std::string> arrivals;
  for (const std::string& line : h.trace.lines()) {
    if (Harness::LineTime(line) == t + 1 && line.find(" recv ") != std::string::npos) {
      const std::string from_node = line.substr(line.find(" n") + 1);
      arrivals.push_back(from_node.substr(0, from_node.find(" id=")));  // ids are not the point
    }
  }
  EXPECT_EQ(arrivals,
            (std::vector<std::string>{
                "n4 recv InvalidateCache from=metasrv", "n5 recv InvalidateCache from=metasrv",
                "n4 recv DdlReply from=metasrv", "n1 recv WriteRequest from=fe1"}));
  EXPECT_EQ(h.cluster.history().writes[1].status, WriteStatus::kAcked);
  EXPECT_EQ(h.cluster.history().writes[1].end, sim::AtMs(t + 2));
}

TEST(ScriptedFaultsTest, HeldMessageIsReleasedWhenTheSafetyPhaseEnds) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kHold, "WriteRequest");
  rule.until_state = "Repartition.RepartitionEnd";  // never passes: no repartition runs
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});
  h.Insert(sim::AtMs(3100), 0, {MakeRow("b", 1, 1, 2)});  // count 1: not held
  h.cluster.Schedule(sim::AtMs(4000), HealOp{/*end_of_safety=*/true});
  h.RunUntil(3999);
  EXPECT_EQ(h.cluster.held_message_count(), 1u);
  EXPECT_EQ(h.cluster.history().writes[1].status, WriteStatus::kPending);
  EXPECT_EQ(h.cluster.history().writes[2].status, WriteStatus::kAcked);
  h.RunUntil(5000);
  EXPECT_EQ(h.cluster.held_message_count(), 0u);
  EXPECT_EQ(h.TraceTimes("n4 net.release WriteRequest fe1->dn1 (safety phase ended)"),
            std::vector<int64_t>{4000});
  EXPECT_EQ(h.cluster.history().writes[1].status, WriteStatus::kAcked);
  EXPECT_EQ(h.cluster.history().writes[1].end, sim::AtMs(4002));
  EXPECT_TRUE(h.cluster.Idle());
}

// Same key (host, ts, a), two values: the one sent first arrives last and wins.
TEST(ScriptedFaultsTest, ReorderDeliversTwoMatchingMessagesInTheOppositeOrder) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kReorder, "WriteRequest");
  rule.to = h.cluster.datanode_id(0);
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("k", 1, 100, 5)});
  h.Insert(sim::AtMs(3100), 0, {MakeRow("k", 1, 200, 5)});
  h.Insert(sim::AtMs(3200), 0, {MakeRow("k", 2, 300, 5)});  // count 1: plain
  h.Query(sim::AtMs(4000), 1, "a = 5");
  h.RunUntil(5000);
  EXPECT_EQ(h.TraceTimes("net.rule reorder WriteRequest fe1->dn1 (held for the next one)"),
            std::vector<int64_t>{3000});
  EXPECT_EQ(h.TraceTimes("net.rule reorder WriteRequest fe1->dn1 (sent before the held one)"),
            std::vector<int64_t>{3100});
  EXPECT_EQ(h.TraceCount("net.rule"), 2u);
  EXPECT_EQ(h.TraceTimes("n1 recv WriteRequest from=fe1"),
            (std::vector<int64_t>{3101, 3102, 3201}));
  const History& history = h.cluster.history();
  ASSERT_EQ(history.writes.size(), 4u);
  EXPECT_EQ(history.writes[1].end, sim::AtMs(3103));
  EXPECT_EQ(history.writes[2].end, sim::AtMs(3102));
  ASSERT_EQ(history.queries.size(), 1u);
  EXPECT_EQ(Sorted(history.queries[0].rows),
            Sorted({MakeRow("k", 1, 100, 5), MakeRow("k", 2, 300, 5)}));
}

// count: all holds every match; the pass releases all of them in one step, in send order.
TEST(ScriptedFaultsTest, HoldCountAllReleasesEveryHeldMessageInSendOrderAtThePass) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kHold, "WriteRequest", /*count=all*/ 0);
  rule.from = h.cluster.frontend_id(0);
  rule.until_state = "CreateTable.Prepare";
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 25)});  // fe1 -> dn3
  h.Insert(sim::AtMs(3100), 0, {MakeRow("b", 1, 1, 5)});   // fe1 -> dn1
  h.RunUntil(3999);
  EXPECT_EQ(h.cluster.held_message_count(), 2u);
  h.CreateTable(sim::AtMs(4000), TableId{1025});
  h.RunUntil(6000);
  const std::vector<std::string> passed = h.TraceLines("ms.state_passed CreateTable.Prepare");
  ASSERT_EQ(passed.size(), 1u);
  const std::vector<std::string> released = h.TraceLines("net.release");
  ASSERT_EQ(released.size(), 2u);
  EXPECT_NE(released[0].find("net.release WriteRequest fe1->dn3"), std::string::npos);
  EXPECT_NE(released[1].find("net.release WriteRequest fe1->dn1"), std::string::npos);
  for (const std::string& line : released) {
    EXPECT_EQ(Harness::LineStep(line), Harness::LineStep(passed[0]));
  }
  const int64_t t = Harness::LineTime(passed[0]);
  EXPECT_EQ(h.TraceTimes("n3 recv WriteRequest from=fe1"), std::vector<int64_t>{t + 1});
  EXPECT_EQ(h.TraceTimes("n1 recv WriteRequest from=fe1"), std::vector<int64_t>{t + 1});
  EXPECT_EQ(h.cluster.held_message_count(), 0u);
}

// A reorder whose second match never comes keeps the first until the safety phase ends.
TEST(ScriptedFaultsTest, ReorderWithoutASecondMatchReleasesTheFirstAtTheEndOfSafety) {
  Harness h;
  WarmUp(h);
  MessageRule rule = Rule(MessageAction::kReorder, "WriteRequest");
  rule.to = h.cluster.datanode_id(2);
  AddRule(h, 2500, rule);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 25)});
  h.Insert(sim::AtMs(3100), 0, {MakeRow("b", 1, 1, 5)});  // to dn1: not matched
  h.cluster.Schedule(sim::AtMs(3500), HealOp{/*end_of_safety=*/true});
  h.RunUntil(3499);
  EXPECT_EQ(h.cluster.held_message_count(), 1u);
  h.RunUntil(4000);
  EXPECT_EQ(h.TraceTimes("net.release WriteRequest fe1->dn3 (safety phase ended)"),
            std::vector<int64_t>{3500});
  EXPECT_EQ(h.TraceTimes("n3 recv WriteRequest from=fe1"), std::vector<int64_t>{3501});
  EXPECT_EQ(h.cluster.history().writes[1].status, WriteStatus::kAcked);
}

TEST(ScriptedFaultsTest, HeldMessagesVanishWhenTheirSenderOrReceiverCrashes) {
  for (bool crash_sender : {true, false}) {
    Harness h;
    WarmUp(h);
    MessageRule rule = Rule(MessageAction::kHold, "WriteRequest", /*count=all*/ 0);
    rule.until_state = "Repartition.RepartitionEnd";
    AddRule(h, 2500, rule);
    h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});   // fe1 -> dn1
    h.Insert(sim::AtMs(3000), 1, {MakeRow("b", 1, 1, 12)});  // fe2 -> dn2 (after a route fill)
    h.RunUntil(3500);
    ASSERT_EQ(h.cluster.held_message_count(), 2u) << crash_sender;
    const NodeId victim = crash_sender ? h.cluster.frontend_id(0) : h.cluster.datanode_id(0);
    h.cluster.Schedule(sim::AtMs(3600), CrashNodeOp{victim});
    h.RunUntil(3700);
    EXPECT_EQ(h.cluster.held_message_count(), 1u) << crash_sender;
    h.cluster.Schedule(sim::AtMs(4000), HealOp{/*end_of_safety=*/true});
    h.RunUntil(4500);
    EXPECT_EQ(h.cluster.held_message_count(), 0u);
    EXPECT_EQ(h.TraceLines("net.release"),
              std::vector<std::string>{h.TraceLines("n5 net.release WriteRequest fe2->dn2")});
    EXPECT_EQ(h.TraceTimes("n2 recv WriteRequest from=fe2"), std::vector<int64_t>{4001});
    EXPECT_EQ(h.TraceCount("n1 recv WriteRequest"), 0u);  // the warm-up wrote to dn2
  }
}

TEST(ScriptedFaultsTest, ArmedOpFiresOnlyAfterTheNthPassWithItsDelay) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.cluster.ScheduleAfterState("CreateTable.Prepare", 2, sim::Ms(300),
                               QueryOp{1, kTable, false, std::nullopt, "SELECT * FROM t"});
  h.CreateTable(sim::AtMs(3000), TableId{1025});
  h.RunUntil(2999);
  ASSERT_EQ(h.TraceCount("ms.state_passed CreateTable.Prepare"), 1u);
  EXPECT_TRUE(h.TraceHas("ms.state_passed CreateTable.Prepare procedure=1 times=1"));
  EXPECT_TRUE(h.cluster.history().queries.empty());
  h.RunUntil(6000);
  const std::vector<std::string> second = h.TraceLines("ms.state_passed CreateTable.Prepare");
  ASSERT_EQ(second.size(), 2u);
  EXPECT_NE(second[1].find("times=2"), std::string::npos) << second[1];
  const int64_t passed_at = Harness::LineTime(second[1]);
  EXPECT_GE(passed_at, 3000);
  ASSERT_EQ(h.cluster.history().queries.size(), 1u);
  EXPECT_EQ(h.cluster.history().queries[0].start, sim::AtMs(passed_at + 300));
  EXPECT_EQ(h.cluster.history().queries[0].frontend, h.cluster.frontend_id(1));
  // Each state of both CREATE TABLEs passed, in order.
  EXPECT_EQ(h.TraceCount("ms.state_passed CreateTable.DatanodeCreateRegions"), 2u);
  EXPECT_EQ(h.TraceCount("ms.state_passed CreateTable.CreateMetadata"), 2u);
}

TEST(ScriptedFaultsTest, ArmedOpWhoseStateNeverPassesIsDisarmedAtTheEndOfSafety) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.cluster.ScheduleAfterState("Repartition.RepartitionEnd", 1, sim::Ms(0),
                               QueryOp{0, kTable, false, std::nullopt, "SELECT * FROM t"});
  h.cluster.Schedule(sim::AtMs(3000), HealOp{/*end_of_safety=*/true});
  h.Alter(sim::AtMs(4000), kSplit);  // passes RepartitionEnd after the end of safety
  h.RunUntil(20000);
  const std::vector<std::string> disarmed = h.TraceLines("op.disarmed");
  ASSERT_EQ(disarmed.size(), 1u);
  EXPECT_EQ(
      disarmed[0].substr(disarmed[0].find(" 3000 ")),
      " 3000 - op.disarmed query after Repartition.RepartitionEnd #1: the state never passed");
  ASSERT_EQ(h.cluster.history().ddls.size(), 1u);
  EXPECT_EQ(h.cluster.history().ddls[0].status, DdlStatus::kDone);
  EXPECT_TRUE(h.TraceHas("ms.state_passed Repartition.RepartitionEnd"));
  EXPECT_TRUE(h.cluster.history().queries.empty());
  // Every state the split passed is one a scenario may name (crash_sites.h).
  const std::vector<std::string> passed = h.TraceLines("ms.state_passed ");
  EXPECT_GE(passed.size(), 10u);
  for (const std::string& line : passed) {
    const size_t at = line.find("ms.state_passed ") + 16;
    const std::string state = line.substr(at, line.find(' ', at) - at);
    EXPECT_TRUE(scenario::IsKnownProcedureState(state)) << state;
  }
}

TEST(ScriptedFaultsTest, ExpireLeaseDemotesTheDatanodesRegionsUntilTheNextHeartbeatReply) {
  auto setup = [](Harness& h) {
    h.CreateTable(sim::AtMs(0));
    h.cluster.Schedule(sim::AtMs(4500), ExpireLeaseOp{h.cluster.datanode_id(0)});
  };
  Harness probe;
  setup(probe);
  probe.RunUntil(12000);
  std::vector<int64_t> replies = probe.TraceTimes("n1 recv HeartbeatReply");
  std::erase_if(replies, [](int64_t t) { return t <= 4500; });
  ASSERT_FALSE(replies.empty());
  const int64_t renewed_at = replies[0];

  Harness h;
  setup(h);
  h.RunUntil(4499);
  const Datanode& dn1 = h.cluster.datanode(h.cluster.datanode_id(0));
  ASSERT_EQ(dn1.FindRegion(kRegion0)->state(), RegionState::kWritable);
  h.RunUntil(4500);
  EXPECT_EQ(
      h.TraceLines("dn.lease_expired"),
      std::vector<std::string>{h.TraceLines("4500 n1 dn.lease_expired " + kRegion0.ToString())});
  EXPECT_EQ(dn1.FindRegion(kRegion0)->state(), RegionState::kFollower);
  const Datanode& dn2 = h.cluster.datanode(h.cluster.datanode_id(1));
  EXPECT_EQ(dn2.FindRegion(RegionId::Of(kTable, RegionNumber{1}))->state(), RegionState::kWritable);
  h.RunUntil(renewed_at - 1);
  EXPECT_EQ(dn1.FindRegion(kRegion0)->state(), RegionState::kFollower);
  h.RunUntil(renewed_at);
  EXPECT_EQ(dn1.FindRegion(kRegion0)->state(), RegionState::kWritable);
}

TEST(ScriptedFaultsTest, FingerprintCoversRulesHeldMessagesAndArmedOps) {
  // Armed ops: only the armed op differs.
  Harness a;
  Harness b;
  const QueryOp query{0, kTable, false, std::nullopt, "SELECT * FROM t"};
  ASSERT_EQ(a.cluster.Fingerprint(), b.cluster.Fingerprint());
  a.cluster.ScheduleAfterState("CreateTable.Prepare", 1, sim::Ms(0), query);
  EXPECT_NE(a.cluster.Fingerprint(), b.cluster.Fingerprint());
  b.cluster.ScheduleAfterState("CreateTable.Prepare", 2, sim::Ms(0), query);
  EXPECT_NE(a.cluster.Fingerprint(), b.cluster.Fingerprint());

  // Rules: the same step sequence, rules differing only in their `to` node.
  Harness c;
  Harness d;
  MessageRule to_dn1 = Rule(MessageAction::kDrop, "WriteRequest");
  to_dn1.to = c.cluster.datanode_id(0);
  MessageRule to_dn2 = to_dn1;
  to_dn2.to = c.cluster.datanode_id(1);
  for (Harness* h : {&c, &d}) WarmUp(*h);
  AddRule(c, 2500, to_dn1);
  AddRule(d, 2500, to_dn1);
  c.RunUntil(2600);
  d.RunUntil(2600);
  EXPECT_EQ(c.cluster.Fingerprint(), d.cluster.Fingerprint());
  Harness e;
  WarmUp(e);
  AddRule(e, 2500, to_dn2);
  e.RunUntil(2600);
  EXPECT_NE(c.cluster.Fingerprint(), e.cluster.Fingerprint());

  // Held messages: two held writes differing only in a value (the history hashes outcomes
  // and the frontend row counts, not values; nothing is in flight).
  Harness f;
  Harness g;
  MessageRule hold = Rule(MessageAction::kHold, "WriteRequest");
  hold.until_state = "Repartition.RepartitionEnd";
  for (Harness* h : {&f, &g}) {
    WarmUp(*h);
    AddRule(*h, 2500, hold);
  }
  f.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 1)});
  g.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 2, 1)});
  f.RunUntil(3100);
  g.RunUntil(3100);
  ASSERT_EQ(f.cluster.held_message_count(), 1u);
  ASSERT_EQ(g.cluster.held_message_count(), 1u);
  EXPECT_NE(f.cluster.Fingerprint(), g.cluster.Fingerprint());
}

}  // namespace scripted_faults_test
}  // namespace
}  // namespace repartsim::model

namespace repartsim::model {
namespace {
namespace scripted_faults_test {

using testing::Harness;

// With no delay the armed op runs inside the step that passed the state: the crash lands
// before any other event, at the same step number as the pass.
TEST(ScriptedFaultsTest, ArmedOpWithoutDelayRunsInTheStepThatPassedTheState) {
  Harness h;
  h.cluster.ScheduleAfterState("CreateTable.DatanodeCreateRegions", 1, sim::Ms(0),
                               CrashNodeOp{h.cluster.metasrv_id()});
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(100);
  const std::vector<std::string> passed =
      h.TraceLines("ms.state_passed CreateTable.DatanodeCreateRegions");
  const std::vector<std::string> crash = h.TraceLines("crash metasrv");
  ASSERT_EQ(passed.size(), 1u);
  ASSERT_EQ(crash.size(), 1u);
  EXPECT_EQ(Harness::LineStep(passed[0]), Harness::LineStep(crash[0]));
  EXPECT_FALSE(h.cluster.metasrv().is_up());
  // CreateMetadata never ran: the crash came first.
  EXPECT_FALSE(h.TraceHas("ms.state_passed CreateTable.CreateMetadata"));
}

// A delayed armed op that comes due after the safety phase ended never runs: it is dropped
// with the other scripted faults, so no scripted crash or rule leaks into the liveness phase.
TEST(ScriptedFaultsTest, ArmedOpDueAfterTheSafetyPhaseIsDisarmed) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.cluster.ScheduleAfterState("CreateTable.Prepare", 1, sim::Ms(5000),
                               CrashNodeOp{h.cluster.datanode_id(0)});
  h.cluster.Schedule(sim::AtMs(3000), HealOp{/*end_of_safety=*/true});
  h.RunUntil(9000);
  const std::vector<std::string> disarmed = h.TraceLines("op.disarmed");
  ASSERT_EQ(disarmed.size(), 1u);
  EXPECT_EQ(disarmed[0].substr(disarmed[0].find(" 3000 ")),
            " 3000 - op.disarmed crash after CreateTable.Prepare #1: due after the safety phase");
  EXPECT_FALSE(h.TraceHas("crash dn1"));
  EXPECT_TRUE(h.cluster.datanode(h.cluster.datanode_id(0)).is_up());
}

}  // namespace scripted_faults_test
}  // namespace
}  // namespace repartsim::model
