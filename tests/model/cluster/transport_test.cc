// Goal: the Cluster's transport is GreptimeDB's: mailbox instructions, lease replies and
// invalidations ride one FIFO heartbeat stream per node (a delay holds the line, a drop is a
// reset that loses everything in flight and the datanode reconnects at once), writes are
// calls that overtake each other, a lease reply held in the metasrv's handler chain lets
// later instructions pass it while the datanode's session handles nothing else, and a
// metasrv restart with a leader-start window serves heartbeats before procedures run.
// Method: the 3-datanode, 2-frontend harness (cluster_harness.h; region i on dn(i+1)) under the
// timed driver with no random faults (every latency 1 ms); scripted rules and config knobs
// force each case, and the test asserts trace lines and their virtual times.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/cluster/cluster.h"
#include "tests/model/cluster/cluster_harness.h"

namespace repartsim::model {
namespace {
namespace transport_test {

using testing::Harness;
using testing::kTable;
using testing::MakeRow;

MessageRule Rule(MessageAction action, const std::string& kind, uint32_t count = 1) {
  MessageRule rule;
  rule.action = action;
  rule.kind = kind;
  rule.count = count;
  return rule;
}

void AddRule(Harness& h, int64_t at_ms, MessageRule rule) {
  h.cluster.Schedule(sim::AtMs(at_ms), MessageRuleOp{std::move(rule)});
}

TEST(TransportTest, ChannelsFollowGreptimeDb) {
  EXPECT_EQ(ChannelOf(Message{Heartbeat{}}), sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{HeartbeatReply{}}), sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{InvalidateCache{}}), sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{InvalidateAck{}}), sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{RegionRequest{1, {RegionInstruction{{}, EnterStagingOp{}}}, 0}}),
            sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{RegionRequest{1, {RegionInstruction{{}, FlushRegionOp{}}}, 0}}),
            sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{RegionRequest{1, {RegionInstruction{{}, CreateRegionOp{}}}, 0}}),
            sim::Channel::kCall);
  EXPECT_EQ(ChannelOf(Message{RegionRequest{1, {RegionInstruction{{}, DropRegionOp{}}}, 0}}),
            sim::Channel::kCall);
  EXPECT_EQ(ChannelOf(Message{RegionResponse{1, {}, true}}), sim::Channel::kStream);
  EXPECT_EQ(ChannelOf(Message{RegionResponse{1, {}, false}}), sim::Channel::kCall);
  EXPECT_EQ(ChannelOf(Message{WriteRequest{}}), sim::Channel::kCall);
  EXPECT_EQ(ChannelOf(Message{RouteRequest{}}), sim::Channel::kCall);
  EXPECT_TRUE(IsStreamKind("EnterStaging"));
  EXPECT_FALSE(IsStreamKind("RegionResponse"));  // mailbox replies and RPC replies
  EXPECT_FALSE(IsStreamKind("WriteRequest"));
}

TEST(TransportTest, ADelayedInvalidationHoldsTheLineOfTheFrontendStream) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  MessageRule delay = Rule(MessageAction::kDelay, "InvalidateCache");
  delay.delay = sim::Ms(2000);
  AddRule(h, 1000, delay);
  h.Alter(sim::AtMs(2000),
          "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)");
  h.RunUntil(8000);
  // The first invalidation to fe1 (n4) is delayed by 2 s; the later ones of the split wait
  // behind it on the same stream, so fe1 sees none of them before 4000 ms.
  // (The CREATE TABLE invalidation at 4 ms came before the rule.)
  std::vector<int64_t> times = h.TraceTimes("n4 recv InvalidateCache");
  ASSERT_GE(times.size(), 3u);
  EXPECT_EQ(times[0], 4);
  for (size_t i = 1; i < times.size(); ++i) EXPECT_GE(times[i], 4000) << h.TraceText();
  // fe2 (n5) is another stream: on time.
  times = h.TraceTimes("n5 recv InvalidateCache");
  ASSERT_GE(times.size(), 2u);
  EXPECT_LT(times[1], 2100);
}

TEST(TransportTest, ADroppedStreamMessageResetsTheStreamAndTheDatanodeReconnectsAtOnce) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  MessageRule drop = Rule(MessageAction::kDrop, "HeartbeatReply");
  drop.to = h.cluster.datanode_id(0);
  AddRule(h, 2900, drop);
  h.RunUntil(3500);
  // dn1 heartbeats at 3001; the reply is dropped at 3002: the stream resets, dn1 reconnects
  // and heartbeats again at once.
  ASSERT_EQ(h.TraceTimes("n0 net.rule drop HeartbeatReply metasrv->dn1 (stream reset)"),
            (std::vector<int64_t>{3002}))
      << h.TraceText();
  EXPECT_EQ(h.TraceTimes("n1 net.reset metasrv<->dn1"), (std::vector<int64_t>{3002}));
  EXPECT_EQ(h.TraceTimes("n1 net.reconnect dn1->metasrv"), (std::vector<int64_t>{3002}));
  EXPECT_EQ(h.TraceTimes("n1 recv HeartbeatReply"), (std::vector<int64_t>{3, 3004}));
  EXPECT_EQ(h.cluster.network().counters().resets, 1u);
}

TEST(TransportTest, AHeldLeaseReplyLetsLaterInstructionsPassAndBlocksTheSession) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(1000), 0, {MakeRow("a", 1, 1, 3)});
  MessageRule hold = Rule(MessageAction::kHold, "HeartbeatReply");
  hold.to = h.cluster.datanode_id(0);
  hold.until_state = "RepartitionGroup.ApplyStaging";
  hold.delay = sim::Ms(5);
  AddRule(h, 5999, hold);
  // The ALTER call leaves fe1 at 6002 and reaches the metasrv at 6003.
  h.Alter(sim::AtMs(6002),
          "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)");
  h.RunUntil(6500);
  // The reply to dn1's 6001 heartbeat is computed at 6002 from the pre-split route and pushed
  // 5 ms after ApplyStaging passed (6005): behind EnterStaging, which dn1 applied at 6006.
  ASSERT_EQ(h.TraceTimes("net.release HeartbeatReply metasrv->dn1"), (std::vector<int64_t>{6010}))
      << h.TraceText();
  EXPECT_EQ(h.TraceTimes("n1 dn.region_op EnterStaging 4398046511104(1024, 0) Ok"),
            (std::vector<int64_t>{6006}));
  // dn1's EnterStaging replies wait for the session: the state passes only after the push.
  EXPECT_EQ(h.TraceTimes("ms.state_passed RepartitionGroup.EnterStagingRegion"),
            (std::vector<int64_t>{6010}));
  // greptime: the old Leader lease ended staging, so RemapManifest is refused.
  EXPECT_TRUE(
      h.TraceHas("6011 n1 dn.region_op RemapManifest 4398046511104(1024, 0) RegionNotReady"));
}

TEST(TransportTest, VersionedLeasesIgnoreTheHeldReply) {
  Harness h(Protocol::Reference());
  h.CreateTable(sim::AtMs(0));
  MessageRule hold = Rule(MessageAction::kHold, "HeartbeatReply");
  hold.to = h.cluster.datanode_id(0);
  hold.until_state = "RepartitionGroup.ApplyStaging";
  hold.delay = sim::Ms(5);
  AddRule(h, 5999, hold);
  // The ALTER call leaves fe1 at 6002 and reaches the metasrv at 6003.
  h.Alter(sim::AtMs(6002),
          "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)");
  h.RunUntil(7000);
  EXPECT_EQ(h.TraceTimes("n1 dn.stale_lease_ignored 4398046511104(1024, 0) route_version=0"),
            (std::vector<int64_t>{6013}))
      << h.TraceText();
  EXPECT_TRUE(h.TraceHas("n1 dn.region_op RemapManifest 4398046511104(1024, 0) Ok"));
  EXPECT_EQ(h.TraceCount("fe.ddl_done repartition table=1024 status=done id=1"), 1u);
}

TEST(TransportTest, RandomLeaseGapIsAChooserChoiceAndPushesLater) {
  ClusterConfig config;
  config.node_faults.lease_gap = sim::Ratio::Always();
  config.node_faults.lease_gap_ms_max = sim::Ms(1);  // one option: 1 + 0 ms
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(100);
  EXPECT_EQ(h.TraceTimes("msg=HeartbeatReply to=dn1 gap_ms=1 push_at=3"), (std::vector<int64_t>{2}))
      << h.TraceText();
  EXPECT_EQ(h.TraceTimes("n1 recv HeartbeatReply"), (std::vector<int64_t>{4}));
}

TEST(TransportTest, LeaderStartWindowServesHeartbeatsBeforeRecovery) {
  ClusterConfig config;
  config.node_faults.leader_start_ms_max = sim::Ms(2000);
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.cluster.Schedule(sim::AtMs(1000), CrashNodeOp{h.cluster.metasrv_id()});
  h.cluster.Schedule(sim::AtMs(1100), RestartNodeOp{h.cluster.metasrv_id()});
  h.RunUntil(6000);
  const std::vector<std::string> start = h.TraceLines("ms.leader_start window_ms=");
  ASSERT_EQ(start.size(), 1u) << h.TraceText();
  const int64_t recovered_at = std::stoll(start[0].substr(start[0].rfind("recover_at=") + 11));
  EXPECT_EQ(h.TraceTimes("ms.procedures_recovered"), (std::vector<int64_t>{recovered_at}));
  EXPECT_GE(recovered_at, 1100);
  EXPECT_LE(recovered_at, 3100);
}

}  // namespace transport_test
}  // namespace
}  // namespace repartsim::model
