// Goal: the datanode answers its own messages (Datanode::OnMessage): a region request gets a
// RegionResponse and a created region starts its lease countdown; a write request gets one
// result per region write and the observer sees each accepted write as soon as it is accepted,
// so a crash point in a later write of the same request leaves the observation and sends no
// reply; a heartbeat reply applies leases and closes regions; MakeHeartbeat lists open regions.
// Method: call OnMessage on a fresh datanode with a hand-made NodeContext and check the outbox,
// the observer's calls and the trace exactly.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/node/node_context_fixture.h"

namespace repartsim::model {
namespace {
namespace datanode_messages_test {

using namespace testing;  // NOLINT

class Recorder final : public AcceptedWriteObserver {
 public:
  void OnAccepted(const Region& region, const RegionWrite& write, uint64_t write_id,
                  NodeContext& ctx) override {
    EXPECT_EQ(region.id(), write.region);
    seen.push_back(write.region);
    write_ids.push_back(write_id);
    ctx.Log("test.accepted", write.region.ToString());
  }
  std::vector<RegionId> seen;
  std::vector<uint64_t> write_ids;
};

constexpr NodeId kDn{1};
constexpr NodeId kMetasrv{0};
constexpr NodeId kFe{3};

Message Create(RegionId region, PartitionExpr expr, uint64_t corr) {
  RegionRequest request;
  request.corr = corr;
  request.items.push_back(RegionInstruction{region, CreateRegionOp{TestSchema(), std::move(expr)}});
  request.route_version = 1;
  return Message{std::move(request)};
}

TEST(DatanodeMessagesTest, CreateRegionRepliesAndStartsTheLeaseCountdown) {
  Datanode dn(kDn, sim::Seconds(10));
  ObjectStore store;
  NodeContextFixture f(kDn);
  dn.OnMessage(kMetasrv, Create(kR0, Lt(10), 7), store, f.ctx());
  ASSERT_EQ(f.ctx().outbox.size(), 1u);
  EXPECT_EQ(f.ctx().outbox[0].to, kMetasrv);
  const auto& reply = std::get<RegionResponse>(f.ctx().outbox[0].message.body);
  EXPECT_EQ(reply.corr, 7u);
  ASSERT_EQ(reply.results.size(), 1u);
  EXPECT_EQ(reply.results[0].region, kR0);
  EXPECT_EQ(reply.results[0].code, ReplyCode::kOk);
  EXPECT_FALSE(reply.mailbox);  // CreateRegion is a direct RPC
  ASSERT_TRUE(dn.NextLeaseDeadline().has_value());
  EXPECT_EQ(dn.NextLeaseDeadline()->ms, 1000 + 10000);
  EXPECT_EQ(f.TraceCount("dn.region_op CreateRegion 4398046511104(1024, 0) Ok"), 1u);
  EXPECT_EQ(dn.MakeHeartbeat(sim::AtMs(1500)).regions, std::vector<RegionId>{kR0});
}

TEST(DatanodeMessagesTest, WriteRequestAnswersEveryRegionWriteAndTellsTheObserver) {
  Datanode dn(kDn);
  ObjectStore store;
  NodeContextFixture setup(kDn);
  dn.OnMessage(kMetasrv, Create(kR0, Lt(10), 1), store, setup.ctx());
  NodeContextFixture f(kDn);
  Recorder recorder;
  WriteRequest request{
      9,
      {RegionWrite{kR0, {R(1, 1, 1)}, std::nullopt}, RegionWrite{kR3, {R(2, 2, 2)}, std::nullopt}},
      /*write_id=*/42};
  dn.OnMessage(kFe, Message{request}, store, f.ctx(), &recorder);
  EXPECT_EQ(recorder.seen, std::vector<RegionId>{kR0});      // R3 is not here: not accepted
  EXPECT_EQ(recorder.write_ids, std::vector<uint64_t>{42});  // the request's write, by identity
  ASSERT_EQ(f.ctx().outbox.size(), 1u);
  EXPECT_EQ(f.ctx().outbox[0].to, kFe);
  const auto& reply = std::get<WriteReply>(f.ctx().outbox[0].message.body);
  EXPECT_EQ(reply.corr, 9u);
  ASSERT_EQ(reply.results.size(), 2u);
  EXPECT_EQ(reply.results[0].code, ReplyCode::kOk);
  EXPECT_EQ(reply.results[1].code, ReplyCode::kRegionNotFound);
  EXPECT_EQ(reply.results[1].message, "Region 4398046511107(1024, 3) not found");
}

TEST(DatanodeMessagesTest, CrashInALaterWriteKeepsTheEarlierObservationAndSendsNoReply) {
  Datanode dn(kDn);
  ObjectStore store;
  NodeContextFixture setup(kDn);
  dn.OnMessage(kMetasrv, Create(kR0, Lt(10), 1), store, setup.ctx());
  dn.OnMessage(kMetasrv, Create(kR1, GtEq(10), 2), store, setup.ctx());
  NodeContextFixture f(kDn);
  f.Script("datanode.write.after_wal", 2);
  Recorder recorder;
  WriteRequest request{9,
                       {RegionWrite{kR0, {R(1, 1, 1)}, std::nullopt},
                        RegionWrite{kR1, {R(20, 2, 2)}, std::nullopt}}};
  dn.OnMessage(kFe, Message{request}, store, f.ctx(), &recorder);
  EXPECT_EQ(recorder.seen, std::vector<RegionId>{kR0});
  EXPECT_TRUE(f.ctx().crashed);
  EXPECT_TRUE(f.ctx().outbox.empty());
  // The observation is logged before the crash point, as the write order has it.
  ASSERT_EQ(f.lines().size(), 2u);
  EXPECT_NE(f.lines()[0].find("test.accepted 4398046511104(1024, 0)"), std::string::npos);
  EXPECT_NE(f.lines()[1].find("crash_point datanode.write.after_wal"), std::string::npos);
}

TEST(DatanodeMessagesTest, HeartbeatReplyAppliesLeasesAndClosesRegions) {
  Datanode dn(kDn);
  ObjectStore store;
  NodeContextFixture setup(kDn);
  dn.OnMessage(kMetasrv, Create(kR0, Lt(10), 1), store, setup.ctx());
  dn.OnMessage(kMetasrv, Create(kR1, GtEq(10), 2), store, setup.ctx());
  NodeContextFixture f(kDn);
  HeartbeatReply reply{sim::AtMs(30000), {RegionLease{kR0, RegionRole::kFollower, 0}}, {kR1}};
  dn.OnMessage(kMetasrv, Message{reply}, store, f.ctx());
  EXPECT_TRUE(f.ctx().outbox.empty());
  ASSERT_NE(dn.FindRegion(kR0), nullptr);
  EXPECT_EQ(dn.FindRegion(kR0)->state(), RegionState::kFollower);
  EXPECT_EQ(dn.FindRegion(kR1), nullptr);
  EXPECT_EQ(f.TraceCount("dn.close_region 4398046511105(1024, 1)"), 1u);
  EXPECT_EQ(dn.MakeHeartbeat(sim::AtMs(31000)).regions, std::vector<RegionId>{kR0});
}

TEST(DatanodeMessagesTest, LeaseTimerDemotesAndLogsExpiredRegions) {
  Datanode dn(kDn, sim::Seconds(10));
  ObjectStore store;
  NodeContextFixture setup(kDn);
  dn.OnMessage(kMetasrv, Create(kR0, Lt(10), 1), store, setup.ctx());
  NodeContextFixture early(kDn, Protocol::Greptime(), sim::AtMs(10999));
  dn.OnLeaseTimer(early.ctx());
  EXPECT_EQ(dn.FindRegion(kR0)->state(), RegionState::kWritable);
  NodeContextFixture due(kDn, Protocol::Greptime(), sim::AtMs(11000));
  dn.OnLeaseTimer(due.ctx());
  EXPECT_EQ(dn.FindRegion(kR0)->state(), RegionState::kFollower);
  EXPECT_EQ(due.TraceCount("dn.lease_expired 4398046511104(1024, 0)"), 1u);
}

}  // namespace datanode_messages_test
}  // namespace
}  // namespace repartsim::model
