// Goal: reproduce the read-side and metadata suspected defects of docs/findings.md in `greptime`
// (P6 read anomalies through a stale frontend: omission after a split, an error after a merge
// dropped a region; P7 NULL routed differently by the row and bulk paths, then dropped by the
// file filter; P8 partial success leaving a merged-away region in the route; P9 the metasrv
// installing an incomplete rule a direct caller submits) and show the clean outcome with the
// corrected rules. Method: scripted cluster runs; a frontend that cached the route before the
// ALTER and ignores invalidations plays the stale frontend.
#include "model/repartition/repartition_procedure.h"
#include "tests/model/repartition/defects_util.h"
#include "tests/model/set_rule.h"

namespace repartsim::model::testing {
namespace {
namespace defects_read_test {

// ---- P6 --------------------------------------------------------------------------------------

struct StaleReader {
  StaleReader(Protocol protocol, const std::string& partition, std::vector<Row> rows,
              const std::string& alter)
      : h(protocol, partition) {
    h.Insert(2000, 0, std::move(rows));
    h.Query(2000, 1);  // fe2 caches the route before the ALTER...
    h.cluster.Schedule(sim::AtMs(2500), StaleCacheOp{1, kTable, true});  // ...and keeps it
    h.Alter(3000, alter);
    h.Query(10000, 1);
    h.RunUntil(15000);
  }
  RepartitionHarness h;
};

constexpr const char* kSplit =
    "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)";
constexpr const char* kThreeRegions =
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)";
constexpr const char* kMerge = "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)";

TEST(DefectP6Test, StaleFrontendOmitsTheMovedRowsAfterASplit) {
  StaleReader run(Protocol::Greptime(), "PARTITION ON COLUMNS (a) (a < 100, a >= 100)",
                  {MakeRow(10), MakeRow(60), MakeRow(150)}, kSplit);
  const QueryRecord& query = run.h.cluster.history().queries.at(1);
  ASSERT_EQ(RunDdl(run.h, 0).status, DdlStatus::kDone);
  ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
  // It never scans R2, and R0 now filters 60 out of its old file.
  EXPECT_EQ(query.regions, (std::vector<RegionId>{RegionN(0), RegionN(1)}));
  EXPECT_EQ(AValues(query.rows), (std::vector<int64_t>{10, 150}));
}

TEST(DefectP6Test, StaleFrontendFailsOnTheDroppedRegionAfterAMerge) {
  StaleReader run(Protocol::Greptime(), kThreeRegions, {MakeRow(5), MakeRow(15), MakeRow(25)},
                  kMerge);
  const QueryRecord& query = run.h.cluster.history().queries.at(1);
  ASSERT_EQ(RunDdl(run.h, 0).status, DdlStatus::kDone);
  EXPECT_EQ(query.status, QueryStatus::kError);
  EXPECT_EQ(query.error, "Region " + RegionN(2).ToString() + " not found");
}

TEST(DefectP6Test, FencedReadsReplanAndReturnEveryRowExactlyOnce) {
  StaleReader split(Protocol::Reference(), "PARTITION ON COLUMNS (a) (a < 100, a >= 100)",
                    {MakeRow(10), MakeRow(60), MakeRow(150)}, kSplit);
  const QueryRecord& q1 = split.h.cluster.history().queries.at(1);
  ASSERT_EQ(q1.status, QueryStatus::kOk) << q1.error;
  EXPECT_EQ(AValues(q1.rows), (std::vector<int64_t>{10, 60, 150}));
  EXPECT_TRUE(split.h.TraceHas("fe.replan statement=2"));
  StaleReader merge(Protocol::Reference(), kThreeRegions, {MakeRow(5), MakeRow(15), MakeRow(25)},
                    kMerge);
  const QueryRecord& q2 = merge.h.cluster.history().queries.at(1);
  ASSERT_EQ(q2.status, QueryStatus::kOk) << q2.error;
  EXPECT_EQ(AValues(q2.rows), (std::vector<int64_t>{5, 15, 25}));
}

// ---- P8 --------------------------------------------------------------------------------------

// Two merge groups in one statement: A = {R0, R1} -> R0 and B = {R2, R3} -> R2. dn3 (R2) is cut
// from the metasrv, so group B retries until its deadline while group A completes.
struct PartialSuccess {
  explicit PartialSuccess(Protocol protocol)
      : h(protocol,
          "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20 AND a < 30, "
          "a >= 30)") {
    h.Insert(2000, 0, {MakeRow(5), MakeRow(15), MakeRow(25), MakeRow(35)});
    h.cluster.Schedule(sim::AtMs(2500),
                       PartitionOp{{h.cluster.metasrv_id()}, {h.cluster.datanode_id(2)}, true});
    h.Alter(3000,
            "ALTER TABLE t REPARTITION (a < 10, a >= 10 AND a < 20, a >= 20 AND a < 30, a >= 30) "
            "INTO (a < 20, a >= 20)");
    h.cluster.Schedule(sim::AtMs(15000), HealOp{});
    h.Query(110000, 0);
    h.RunUntil(120000);
  }
  RepartitionHarness h;
};

TEST(DefectP8Test, RollbackOfTheFailedGroupLeavesTheSucceededGroupsMergedAwayRegion) {
  Protocol protocol = Protocol::Greptime();
  testing::SetRule(protocol,
                   "per-group-indices");  // P1 would panic first with two groups
  PartialSuccess run(protocol);
  RepartitionHarness& h = run.h;
  const DdlRecord ddl = RunDdl(h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kFailed);
  EXPECT_EQ(ddl.error, "Failed to wait for repartition groups: failed plans [1], unknown plans []");
  // Group B restored; group A kept: R0 merged, R1 still routed (IgnoreAllWrites), still open.
  TableRoute route = h.Route();
  ASSERT_EQ(route.region_routes.size(), 4u);
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 20");
  EXPECT_EQ(h.RouteExpr(RegionN(1)), "a >= 10 AND a < 20");
  EXPECT_TRUE(route.Find(RegionN(1))->ignores_writes());
  EXPECT_EQ(h.RouteExpr(RegionN(2)), "a >= 20 AND a < 30");
  EXPECT_EQ(h.RouteExpr(RegionN(3)), "a >= 30");
  EXPECT_NE(h.DatanodeRegion(RegionN(1)), nullptr);
  // R0 reads R1's file and R1 is still scanned: 15 twice, for good.
  const QueryRecord& query = h.cluster.history().queries.at(0);
  ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
  EXPECT_EQ(AValues(query.rows), (std::vector<int64_t>{5, 15, 15, 25, 35}));
}

TEST(DefectP8Test, DeallocateMergedAwayDropsItOnRollbackAndReferenceCompletes) {
  Protocol partial = Protocol::Greptime();
  testing::SetRule(partial, "per-group-indices");
  testing::SetRule(partial, "deallocate-merged-away");
  PartialSuccess rolled_back(partial);
  EXPECT_EQ(RunDdl(rolled_back.h, 0).status, DdlStatus::kFailed);
  EXPECT_EQ(rolled_back.h.Route().region_routes.size(), 3u);
  EXPECT_EQ(rolled_back.h.DatanodeRegion(RegionN(1)), nullptr);
  const QueryRecord& q1 = rolled_back.h.cluster.history().queries.at(0);
  ASSERT_EQ(q1.status, QueryStatus::kOk) << q1.error;
  EXPECT_EQ(AValues(q1.rows), (std::vector<int64_t>{5, 15, 25, 35}));

  PartialSuccess reference(Protocol::Reference());
  const DdlRecord ddl = RunDdl(reference.h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error;
  EXPECT_EQ(reference.h.Route().region_routes.size(), 2u);
  EXPECT_EQ(reference.h.RouteExpr(RegionN(0)), "a < 20");
  EXPECT_EQ(reference.h.RouteExpr(RegionN(2)), "a >= 20");
  const QueryRecord& q2 = reference.h.cluster.history().queries.at(0);
  ASSERT_EQ(q2.status, QueryStatus::kOk) << q2.error;
  EXPECT_EQ(AValues(q2.rows), (std::vector<int64_t>{5, 15, 25, 35}));
}

// ---- P9 --------------------------------------------------------------------------------------

TEST(DefectP9Test, MetasrvInstallsAnIncompleteRuleADirectCallerSubmits) {
  RepartitionHarness h;
  h.Insert(2000, 0, {MakeRow(10), MakeRow(50), MakeRow(70), MakeRow(150)});
  h.RunUntil(2500);
  // Bypassing the frontend pipeline: a < 100 -> {a < 40, 60 <= a < 100}, a gap at [40, 60).
  RepartitionProcedure::PersistentContext ctx;
  ctx.table = kTable;
  ctx.table_name = "t";
  ctx.from_exprs = {PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(100))};
  ctx.to_exprs = {PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(40)),
                  PartitionExpr::And(PartitionExpr::Leaf("a", CompareOp::kGtEq, Value::Int(60)),
                                     PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(100)))};
  ProcedureId id = h.cluster.mutable_metasrv().Submit(RepartitionProcedure(ctx), sim::AtMs(2500));
  h.Insert(10000, 1, {MakeRow(45)});
  h.Query(12000, 1);
  h.RunUntil(15000);
  const auto* slot = h.cluster.metasrv().procedures().Find(id);
  ASSERT_NE(slot, nullptr);
  EXPECT_EQ(slot->status, ProcedureStatus::kDone) << slot->error;
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 40");
  EXPECT_EQ(h.RouteExpr(RegionN(2)), "a >= 60 AND a < 100");
  // 50 is filtered out of R0's old file (a < 40) and of R2's copy (60 <= a < 100): gone. A new
  // 45 matches no expression and lands in region 0, whose version it carries: accepted into a
  // region whose expression does not cover it.
  EXPECT_EQ(h.cluster.history().writes.at(1).status, WriteStatus::kAcked);
  EXPECT_EQ(RegionAValues(h, RegionN(0)), (std::vector<int64_t>{10, 45}));
  const QueryRecord& query = h.cluster.history().queries.at(0);
  ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
  EXPECT_EQ(AValues(query.rows), (std::vector<int64_t>{10, 45, 70, 150}));
}

}  // namespace defects_read_test
}  // namespace
}  // namespace repartsim::model::testing
