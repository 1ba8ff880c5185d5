// Goal: heartbeats and region leases (docs/protocol.md sections 7, 10.1): a datanode cut off from
// the metasrv loses its leases 10 s after its last granted heartbeat, its regions become followers
// and writes to them are rejected (4008); after the partition heals the next heartbeat grants
// Leader again and writes are accepted. Regions no route knows are closed. Method: scripted cluster
// run with a one-way partition; exact statuses and messages.
#include <gtest/gtest.h>

#include "model/cluster/cluster.h"
#include "model/sql/parser.h"
#include "sim/chooser.h"
#include "sim/simulation.h"
#include "sim/trace.h"

namespace repartsim::model {
namespace {
namespace lease_test {

constexpr TableId kTable{1024};

struct LeaseHarness {
  LeaseHarness() : cluster(ClusterConfig{}, Protocol::Greptime()) {
    trace.KeepLines(true);
    auto statements = sql::ParseStatements(
        "CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX, PRIMARY KEY (a)) "
        "PARTITION ON COLUMNS (a) (a < 10, a >= 10)",
        "<test>");
    const auto& create = std::get<sql::CreateTable>(statements.value().at(0).body);
    cluster.Schedule(sim::AtMs(0), cluster.PlanCreateTable(kTable, create.schema, create.rule));
  }
  void Run(int64_t until_ms) {
    sim::RunOptions options;
    options.time_ms_max = until_ms;
    sim::Simulation<Cluster> simulation(cluster, chooser, trace, plan, stats, options);
    simulation.Run();
  }
  Cluster cluster;
  sim::RandomChooser chooser{3};
  sim::Trace trace;
  sim::CrashPlan plan;
  sim::CrashPointStats stats;
};

Row MakeRow(int64_t a) { return Row{Value::Int(a), Value::Timestamp(a)}; }

TEST(LeaseTest, LeaseExpiryDemotesAndAHealedHeartbeatPromotesAgain) {
  LeaseHarness h;
  NodeId dn1 = h.cluster.datanode_id(0);
  // dn1 hosts region 0. Cut the metasrv's replies to dn1 from t=5 s.
  h.cluster.Schedule(sim::AtMs(5000), PartitionOp{{h.cluster.metasrv_id()}, {dn1}, false});
  h.cluster.Schedule(sim::AtMs(30000), InsertOp{0, kTable, {MakeRow(1)}, WritePath::kRow});
  h.cluster.Schedule(sim::AtMs(31000), HealOp{});
  h.cluster.Schedule(sim::AtMs(40000), InsertOp{1, kTable, {MakeRow(2)}, WritePath::kRow});
  h.Run(45000);
  const auto& writes = h.cluster.history().writes;
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[0].status, WriteStatus::kRejected);
  EXPECT_EQ(writes[0].error,
            "Region 4398046511104(1024, 0) is in Follower state, expect: Leader(Writable)");
  EXPECT_EQ(writes[1].status, WriteStatus::kAcked) << writes[1].error;
  bool expired = false;
  for (const std::string& line : h.trace.lines()) {
    expired = expired || line.find("dn.lease_expired 4398046511104(1024, 0)") != std::string::npos;
  }
  EXPECT_TRUE(expired);
}

TEST(LeaseTest, HeartbeatsKeepLeasesAliveWithoutFaults) {
  LeaseHarness h;
  h.cluster.Schedule(sim::AtMs(60000),
                     InsertOp{0, kTable, {MakeRow(3), MakeRow(13)}, WritePath::kRow});
  h.Run(61000);
  ASSERT_EQ(h.cluster.history().writes.size(), 1u);
  EXPECT_EQ(h.cluster.history().writes[0].status, WriteStatus::kAcked);
  for (const std::string& line : h.trace.lines()) {
    EXPECT_EQ(line.find("dn.lease_expired"), std::string::npos) << line;
  }
}

}  // namespace lease_test
}  // namespace
}  // namespace repartsim::model
