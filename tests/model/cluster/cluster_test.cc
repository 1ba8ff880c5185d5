// Goal: the cluster model end to end on a 3-datanode, 2-frontend cluster: CREATE TABLE as a
// procedure, writes through both frontends, flush, datanode crash and reopen, metasrv crash in
// the middle of CREATE TABLE, a stale frontend rejected by the version fence, the cache-fill /
// invalidation race (reloaded 3 times, then failing, in greptime; always in reference), and copy +
// fingerprint. Method: schedule client ops and scripted actions on a Cluster, run it under the
// timed driver with no random faults (Chooser decisions are then all forced), and assert exact
// outcomes: history statuses, rows read back, trace lines, region states.
#include "model/cluster/cluster.h"

#include <gtest/gtest.h>

#include "model/meta/meta_keys.h"
#include "model/meta/table_metadata.h"
#include "model/sql/parser.h"
#include "sim/chooser.h"
#include "sim/simulation.h"
#include "sim/trace.h"
#include "tests/model/cluster/cluster_harness.h"

namespace repartsim::model {
namespace {
namespace cluster_test {

using testing::Harness;
using testing::kTable;
using testing::MakeRow;
using testing::ParseCreate;
using testing::Sorted;

TEST(ClusterTest, CreateTableCreatesRegionsRoundRobinAndPublishesTheRoute) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(2000);
  std::optional<TableRoute> route = ReadTableRoute(h.cluster.metasrv().kv(), kTable);
  ASSERT_TRUE(route.has_value());
  ASSERT_EQ(route->region_routes.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    const RegionRoute& r = route->region_routes[i];
    EXPECT_EQ(r.region_id, RegionId::Of(kTable, RegionNumber{i}));
    EXPECT_EQ(r.leader, h.cluster.datanode_id(i));
    const Region* region = h.cluster.datanode(h.cluster.datanode_id(i)).FindRegion(r.region_id);
    ASSERT_NE(region, nullptr);
    EXPECT_EQ(region->state(), RegionState::kWritable);
  }
  EXPECT_EQ(h.cluster.metasrv().procedures().store().record_count(), 0u);  // committed, deleted
  EXPECT_TRUE(h.TraceHas("CreateTable.DatanodeCreateRegions.before_persist") ||
              h.crash_stats.Get("CreateTable.DatanodeCreateRegions.before_persist").hits == 1);
}

TEST(ClusterTest, WritesThroughBothFrontendsReadBackExactlyAfterFlushAndDatanodeCrash) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  std::vector<Row> all;
  for (int i = 0; i < 30; ++i) {
    Row row = MakeRow("h" + std::to_string(i % 4), 1000 + i, i * 10, i);
    all.push_back(row);
    h.Insert(sim::AtMs(2000 + i * 10), static_cast<uint32_t>(i % 2), {row});
  }
  // Overwrite one row (last write wins on (host, a, ts)).
  Row updated = MakeRow("h1", 1005, 999, 5);
  h.Insert(sim::AtMs(2500), 1, {updated});
  h.cluster.Schedule(sim::AtMs(3000),
                     FlushOp{h.cluster.datanode_id(0), RegionId::Of(kTable, RegionNumber{0})});
  h.cluster.Schedule(sim::AtMs(3100), CrashNodeOp{h.cluster.datanode_id(1)});
  h.cluster.Schedule(sim::AtMs(3200), RestartNodeOp{h.cluster.datanode_id(1)});
  h.Query(sim::AtMs(9000), 0);
  h.Query(sim::AtMs(9000), 1, "a >= 10 AND a < 15");
  h.Query(sim::AtMs(9000), 0, "a = 12");
  h.RunUntil(12000);

  const History& history = h.cluster.history();
  ASSERT_EQ(history.writes.size(), 31u);
  for (const WriteRecord& w : history.writes) {
    EXPECT_EQ(w.status, WriteStatus::kAcked) << w.id << " " << w.error;
  }
  ASSERT_EQ(history.queries.size(), 3u);
  ASSERT_EQ(history.queries[0].status, QueryStatus::kOk) << history.queries[0].error;
  all[5] = updated;
  EXPECT_EQ(Sorted(history.queries[0].rows), Sorted(all));
  ASSERT_EQ(history.queries[1].status, QueryStatus::kOk);
  std::vector<Row> expected(all.begin() + 10, all.begin() + 15);
  EXPECT_EQ(Sorted(history.queries[1].rows), Sorted(expected));
  // The real extractor keeps an AND over partition columns as one expression: only the
  // region of 10 <= a < 20 is scanned.
  EXPECT_EQ(history.queries[1].regions,
            std::vector<RegionId>{RegionId::Of(kTable, RegionNumber{1})});
  // An equality prunes to the one region that owns it.
  ASSERT_EQ(history.queries[2].status, QueryStatus::kOk);
  EXPECT_EQ(history.queries[2].rows, std::vector<Row>{all[12]});
  EXPECT_EQ(history.queries[2].regions,
            std::vector<RegionId>{RegionId::Of(kTable, RegionNumber{1})});
  // The flushed region holds a file; the crashed datanode replayed its WAL.
  EXPECT_TRUE(h.TraceHas("dn.flush 4398046511104(1024, 0) Ok"));
  EXPECT_TRUE(h.TraceHas("crash dn2"));
}

TEST(ClusterTest, MetasrvCrashDuringCreateTableResumesFromTheLastPersistedState) {
  for (const char* site :
       {"CreateTable.DatanodeCreateRegions.before_persist",
        "CreateTable.DatanodeCreateRegions.after_persist",
        "CreateTable.CreateMetadata.before_persist", "CreateTable.CreateMetadata.after_persist"}) {
    Harness h;
    h.crash_plan.Script(site, 1);
    h.CreateTable(sim::AtMs(0));
    h.cluster.Schedule(sim::AtMs(1000), RestartNodeOp{h.cluster.metasrv_id()});
    h.Insert(sim::AtMs(5000), 0, {MakeRow("x", 1, 1, 15)});
    h.Query(sim::AtMs(7000), 1);
    h.RunUntil(9000);
    EXPECT_TRUE(h.TraceHas("crash metasrv")) << site;
    const History& history = h.cluster.history();
    std::optional<TableRoute> route = ReadTableRoute(h.cluster.metasrv().kv(), kTable);
    if (std::string(site) == "CreateTable.DatanodeCreateRegions.before_persist") {
      // Nothing was persisted: the procedure is gone and so is the table.
      EXPECT_FALSE(route.has_value()) << site;
      EXPECT_EQ(history.writes[0].status, WriteStatus::kRejected) << site;
      EXPECT_EQ(history.writes[0].error, "Table not found: 1024") << site;
    } else {
      // Recovered and finished: the table exists and reads back the write exactly.
      ASSERT_TRUE(route.has_value()) << site;
      EXPECT_EQ(history.writes[0].status, WriteStatus::kAcked) << site << history.writes[0].error;
      EXPECT_EQ(history.queries[0].rows, std::vector<Row>{MakeRow("x", 1, 1, 15)}) << site;
    }
  }
}

TEST(ClusterTest, StaleFrontendWriteIsRejectedByTheVersionFence) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(2000), 1, {MakeRow("a", 1, 1, 5)});  // fills frontend 1's cache
  h.RunUntil(2500);
  // The region's expression changes on the datanode (as EnterStaging with a new expression
  // does); frontend 1 keeps its cached route and stamps the old version.
  RegionId r0 = RegionId::Of(kTable, RegionNumber{0});
  PartitionExpr narrower = PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(5));
  NoCrashHook no_crash;
  Datanode& dn = h.cluster.mutable_datanode(h.cluster.datanode_id(0));
  ObjectStore store = h.cluster.object_store();
  ASSERT_TRUE(
      dn.HandleEnterStaging(r0, StagingInfo::UpdatePartitionExpr(narrower), store, no_crash).ok());
  h.Insert(sim::AtMs(3000), 1, {MakeRow("b", 2, 2, 3)});
  h.RunUntil(4000);
  const WriteRecord& w = h.cluster.history().writes[1];
  EXPECT_EQ(w.status, WriteStatus::kRejected);
  PartitionExpr old_expr = PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(10));
  EXPECT_EQ(w.error, "Partition expr version mismatch for region 4398046511104(1024, 0): request " +
                         std::to_string(ExprVersion(&old_expr)) + ", expected " +
                         std::to_string(ExprVersion(&narrower)));
}

// Frontend 0's fill reads the route, then the route changes and the invalidation reaches the
// frontend BEFORE the fill reply: one raced fill. Returns the time the reply was delivered
// (a discarded fill sends its reload then).
// REQUIRES: frontend 0 has a RouteRequest in flight or about to be sent at `t`.
int64_t RaceOneFill(Harness& h, int64_t t) {
  NodeId fe0 = h.cluster.frontend_id(0);
  auto& network = h.cluster.mutable_network();
  auto pending_reply = [&]() -> size_t {
    for (size_t i = 0; i < network.Pending().size(); ++i) {
      if (std::holds_alternative<RouteReply>(network.Pending().At(i).payload.msg.body)) return i;
    }
    return network.Pending().size();
  };
  // Run until the metasrv has answered (it read the route): the reply is in flight.
  int64_t now = t;
  while (pending_reply() == network.Pending().size() && now < t + 20) h.RunUntil(++now);
  const size_t reply_index = pending_reply();
  EXPECT_LT(reply_index, network.Pending().size());
  if (reply_index == network.Pending().size()) return now;
  // Change the route (toggle region 0's staging flag: one more route version).
  KvStore& kv = h.cluster.mutable_metasrv().mutable_kv();
  std::string raw = *kv.Get(TableRouteKey(kTable));
  TableRoute route = *ReadTableRoute(kv, kTable);
  std::vector<RegionRoute> routes = route.region_routes;
  routes[0].leader_state =
      routes[0].leader_state == LeaderState::kStaging ? LeaderState::kNone : LeaderState::kStaging;
  EXPECT_TRUE(UpdateTableRoute(kv, kTable, raw, route, routes).ok);
  // Reorder: the invalidation first, the reply 50 ms later.
  auto reply = network.Take(reply_index);
  sim::RandomChooser chooser(1);
  network.Send(sim::AtMs(now), 0, fe0.value, Message{InvalidateCache{kTable, 99}}, chooser, {});
  sim::FaultProfile slow;
  slow.latency = sim::Ms(50);
  network.Send(sim::AtMs(now), 0, fe0.value, reply.envelope.msg, chooser, slow);
  h.RunUntil(now + 50);
  return now + 50;
}

// `races` consecutive fills of frontend 0 race an invalidation. Returns the route version the
// metasrv holds at the end.
uint64_t RunFillRaces(Harness& h, int races) {
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(2000);
  h.Insert(sim::AtMs(3000), 0, {MakeRow("a", 1, 1, 5)});
  int64_t now = 2999;
  for (int i = 0; i < races; ++i) now = RaceOneFill(h, now);
  h.RunUntil(now + 200);
  return ReadTableRoute(h.cluster.metasrv().kv(), kTable)->version;
}

TEST(ClusterTest, CacheFillRacingAnInvalidationIsReloadedInBothProfiles) {
  for (Protocol protocol : {Protocol::Greptime(), Protocol::Reference()}) {
    Harness h(protocol);
    const uint64_t version = RunFillRaces(h, 1);
    EXPECT_TRUE(h.TraceHas("fe.fill_discarded table=1024 reload=1"));
    const auto& cache = h.cluster.frontend(0).cache();
    ASSERT_EQ(cache.count(kTable), 1u);
    EXPECT_EQ(cache.at(kTable).route.version, version);  // the reload read the changed route
  }
}

// greptime's loader reloads a raced fill 3 times; when the 4th fill races again the load fails
// and the insert waiting for it is refused (nothing was sent). The reference keeps discarding.
TEST(ClusterTest, FourthConsecutiveRacedFillFailsTheLoadInGreptimeOnly) {
  Harness greptime(Protocol::Greptime());
  RunFillRaces(greptime, 4);
  EXPECT_TRUE(greptime.TraceHas("fe.fill_discarded table=1024 reload=3"));
  EXPECT_FALSE(greptime.TraceHas("reload=4"));
  EXPECT_TRUE(greptime.TraceHas("fe.fill_failed table=1024 attempts=4"));
  EXPECT_FALSE(greptime.TraceHas("fe.route_filled"));
  EXPECT_TRUE(
      greptime.TraceHas("rejected error=\"Failed to get latest cache value after 4 "
                        "attempts due to concurrent invalidation\""));
  EXPECT_EQ(greptime.cluster.frontend(0).cache().count(kTable), 0u);

  Harness reference(Protocol::Reference());
  const uint64_t ref_version = RunFillRaces(reference, 4);
  EXPECT_TRUE(reference.TraceHas("fe.fill_discarded table=1024 reload=4"));
  EXPECT_EQ(reference.cluster.frontend(0).cache().at(kTable).route.version, ref_version);
}

TEST(ClusterTest, CopiesFingerprintEquallyAndOneMoreWriteChangesTheFingerprint) {
  Harness a;
  Harness b;
  for (Harness* h : {&a, &b}) {
    h->CreateTable(sim::AtMs(0));
    h->Insert(sim::AtMs(2000), 0, {MakeRow("a", 1, 1, 5), MakeRow("b", 2, 2, 15)});
    h->RunUntil(3000);
  }
  EXPECT_EQ(a.cluster.Fingerprint(), b.cluster.Fingerprint());
  Cluster snapshot = a.cluster;
  EXPECT_EQ(snapshot.Fingerprint(), a.cluster.Fingerprint());
  a.Insert(sim::AtMs(3500), 1, {MakeRow("c", 3, 3, 25)});
  a.RunUntil(4000);
  EXPECT_NE(a.cluster.Fingerprint(), b.cluster.Fingerprint());
  EXPECT_EQ(snapshot.Fingerprint(), b.cluster.Fingerprint());  // the snapshot did not move
}

}  // namespace cluster_test
}  // namespace
}  // namespace repartsim::model
