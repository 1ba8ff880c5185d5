// Goal: the three end-to-end timelines of docs/protocol.md section 10.8 (split, merge,
// unpartitioned), run through the whole cluster: after the procedure the route, the datanodes'
// committed expressions, staging state and table_repart match the timeline, and every row reads
// back exactly. Method: scripted runs under the timed driver with no faults; writes before, during
// and after the procedure through both frontends; assertions on metadata and query results.
#include "tests/model/repartition/repartition_harness.h"

namespace repartsim::model::testing {
namespace {
namespace timeline_test {

std::vector<Row> RowsFor(int64_t from, int64_t to, int64_t step = 7) {
  std::vector<Row> rows;
  for (int64_t a = from; a < to; a += step) rows.push_back(MakeRow(a, a * 2));
  return rows;
}

TEST(TimelineTest, SplitMovesTheUpperHalfToANewRegionAndKeepsEveryRow) {
  RepartitionHarness h;
  std::vector<Row> before = RowsFor(0, 200);
  h.Insert(2000, 0, before);
  h.cluster.Schedule(sim::AtMs(2500), FlushOp{h.cluster.datanode_id(0), RegionN(0)});
  h.Alter(3000, "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)");
  h.Query(20000, 1);
  h.RunUntil(25000);
  ASSERT_EQ(h.cluster.history().ddls.size(), 1u);
  const DdlRecord& ddl = h.cluster.history().ddls[0];
  EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error << "\n" << h.TraceText();
  // Route: R0 narrowed, R2 allocated (max region number 1 + 1), nothing staging.
  TableRoute route = h.Route();
  ASSERT_EQ(route.region_routes.size(), 3u);
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 50");
  EXPECT_EQ(h.RouteExpr(RegionN(1)), "a >= 100");
  EXPECT_EQ(h.RouteExpr(RegionN(2)), "a >= 50 AND a < 100");
  for (const RegionRoute& r : route.region_routes) {
    EXPECT_EQ(r.leader_state, LeaderState::kNone);
    EXPECT_EQ(r.write_policy, WritePolicy::kNormal);
  }
  EXPECT_EQ(route.max_region_number.value, 2u);
  // Datanodes committed the same expressions and left staging.
  for (uint32_t n : {0u, 1u, 2u}) {
    const model::Region* region = h.DatanodeRegion(RegionN(n));
    ASSERT_NE(region, nullptr) << n;
    EXPECT_EQ(region->state(), RegionState::kWritable) << n;
    EXPECT_EQ(region->committed_expr_version(), route.Find(RegionN(n))->ExprVersionValue()) << n;
  }
  // table_repart: R0 -> {R0, R2}.
  auto repart = DecodeTableRepart(*h.cluster.metasrv().kv().Get(TableRepartKey(kTable)));
  ASSERT_TRUE(repart.ok());
  EXPECT_EQ(repart.value().src_to_dst.at(RegionN(0)), (std::set<RegionId>{RegionN(0), RegionN(2)}));
  // Every row exactly once.
  const QueryRecord& query = h.cluster.history().queries.at(0);
  ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
  EXPECT_EQ(SortedRows(query.rows), SortedRows(before));
  EXPECT_EQ(h.cluster.metasrv().procedures().store().record_count(), 0u);
}

TEST(TimelineTest, MergeKeepsTheFirstSourceAndDropsTheMergedAwayRegion) {
  RepartitionHarness h(Protocol::Greptime(),
                       "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)");
  std::vector<Row> before = RowsFor(0, 40, 3);
  h.Insert(2000, 0, before);
  h.Alter(3000, "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)");
  h.Query(20000, 1);
  h.RunUntil(25000);
  const DdlRecord ddl = RunDdl(h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error << "\n" << h.TraceText();
  TableRoute route = h.Route();
  ASSERT_EQ(route.region_routes.size(), 2u);
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 10");
  EXPECT_EQ(h.RouteExpr(RegionN(1)), "a >= 10");  // simplified merge expression
  EXPECT_EQ(route.Find(RegionN(2)), nullptr);
  EXPECT_EQ(h.DatanodeRegion(RegionN(2)), nullptr);  // dropped on its datanode
  const QueryRecord& query = h.cluster.history().queries.at(0);
  ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
  EXPECT_EQ(SortedRows(query.rows), SortedRows(before));
}

TEST(TimelineTest, PartitioningAnUnpartitionedTableIntoTwoKeepsEveryRow) {
  RepartitionHarness h(Protocol::Greptime(), "");
  std::vector<Row> before = RowsFor(0, 100, 9);
  h.Insert(2000, 0, before);
  h.Alter(3000, "ALTER TABLE t PARTITION ON COLUMNS (a) (a < 50, a >= 50)");
  h.Query(20000, 1);
  h.RunUntil(25000);
  const DdlRecord ddl = RunDdl(h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error << "\n" << h.TraceText();
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 50");
  EXPECT_EQ(h.RouteExpr(RegionN(1)), "a >= 50");
  std::optional<TableInfo> info = ReadTableInfo(h.cluster.metasrv().kv(), kTable);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->PartitionColumnNames(), std::vector<std::string>{"a"});
  const QueryRecord& query = h.cluster.history().queries.at(0);
  ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
  EXPECT_EQ(SortedRows(query.rows), SortedRows(before));
}

}  // namespace timeline_test
}  // namespace
}  // namespace repartsim::model::testing
