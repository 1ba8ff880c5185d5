// Goal: reproduce the write-routing suspected defects of docs/findings.md in `greptime` exactly as
// predicted (P3 regions/exprs misalignment for unpartitioned -> 3 partitions, P4 bulk writes
// duplicated while AllocateRegion leaves overlapping routes, P10 unversioned writes bypassing
// the fence) and show the clean outcome with the corrected rules. Method: scripted cluster
// runs; the AllocateRegion window (overlapping route published, ApplyStaging not yet run) is
// held open for seconds with HoldAllocateWindow (defects_util.h), which in `greptime` ends in
// the P12 rollback; the success-path variants switch on only idempotent-allocate (P12 fixed) so
// the procedure completes and the defect's lasting effect shows. Runs are split in two phases
// to inspect datanode regions inside the window.
#include "tests/model/repartition/defects_util.h"
#include "tests/model/set_rule.h"

namespace repartsim::model::testing {
namespace {
namespace defects_routing_test {

sim::RunResult RunPhase(RepartitionHarness& h, int64_t time_ms_max) {
  return h.RunUntil(time_ms_max);
}

// ---- P3 --------------------------------------------------------------------------------------

constexpr const char* kPartitionInto3 =
    "ALTER TABLE t PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)";

struct UnpartitionedInto3 {
  // Window: R1 (a >= 10 AND a < 20, dn2) and R2 (a >= 20, dn3) are in the route next to the
  // expression-less R0 from ~3002 until the held AllocateRegion ends (after 8000).
  explicit UnpartitionedInto3(Protocol protocol) : h(protocol, "") {
    HoldAllocateWindow(h, h.cluster.datanode_id(2), 3500, 4000, 8000);
    h.Insert(2000, 0, {MakeRow(1), MakeRow(12), MakeRow(22)});
    h.Alter(3000, kPartitionInto3);
    h.Insert(5000, 1, {MakeRow(5), MakeRow(15), MakeRow(25)});  // fresh frontend, in the window
    RunPhase(h, 6000);
    in_window_r0 = RegionAValues(h, RegionN(0));
    in_window_r1 = RegionAValues(h, RegionN(1));
    in_window_r2 = RegionAValues(h, RegionN(2));
    h.Query(30000, 1);
    QueryWhere(h, 30000, 1, AGe(20), "SELECT * FROM t WHERE a >= 20");
    RunPhase(h, 35000);
  }
  RepartitionHarness h;
  std::vector<int64_t> in_window_r0, in_window_r1, in_window_r2;
};

TEST(DefectP3Test, UnpartitionedIntoThreeMisroutesRowsDuringTheAllocateWindow) {
  UnpartitionedInto3 run(Protocol::Greptime());
  RepartitionHarness& h = run.h;
  // The frontend rule is regions [0, 1, 2] against exprs [a in [10,20), a >= 20]: a row of
  // [10,20) goes to R0 (unversioned, accepted), a row of a >= 20 goes to R1 stamped with R1's
  // own version (accepted), a row below 10 matches nothing and goes to region 0.
  EXPECT_EQ(h.cluster.history().writes.at(1).status, WriteStatus::kAcked);
  EXPECT_EQ(run.in_window_r0, (std::vector<int64_t>{1, 5, 12, 15, 22}));
  EXPECT_EQ(run.in_window_r1, (std::vector<int64_t>{25}));  // outside R1's a >= 10 AND a < 20
  EXPECT_EQ(run.in_window_r2, (std::vector<int64_t>{}));
  // The held window ends in the P12 rollback, which drops R1 and with it the acknowledged 25.
  const DdlRecord ddl = RunDdl(h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kFailed);
  EXPECT_EQ(ddl.error, "Unexpected: WAL options of region " + RegionN(1).ToString() +
                           " already exist and cannot be overwritten");
  const QueryRecord& all = h.cluster.history().queries.at(0);
  ASSERT_EQ(all.status, QueryStatus::kOk) << all.error;
  EXPECT_EQ(AValues(all.rows), (std::vector<int64_t>{1, 5, 12, 15, 22}));
}

TEST(DefectP3Test, MisroutedRowStaysInTheWrongRegionAndPrunedQueriesMissIt) {
  Protocol protocol = Protocol::Greptime();
  testing::SetRule(protocol, "idempotent-allocate");
  UnpartitionedInto3 run(protocol);
  RepartitionHarness& h = run.h;
  EXPECT_EQ(run.in_window_r1, (std::vector<int64_t>{25}));
  const DdlRecord ddl = RunDdl(h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error;
  EXPECT_EQ(h.RouteExpr(RegionN(1)), "a >= 10 AND a < 20");
  // R1 flushed 25 under its own expression, so its file is never filtered: visible forever in
  // R1, which a query pruned to a >= 20 never scans.
  EXPECT_EQ(RegionAValues(h, RegionN(1)), (std::vector<int64_t>{12, 15, 25}));
  const QueryRecord& all = h.cluster.history().queries.at(0);
  ASSERT_EQ(all.status, QueryStatus::kOk) << all.error;
  EXPECT_EQ(AValues(all.rows), (std::vector<int64_t>{1, 5, 12, 15, 22, 25}));
  const QueryRecord& upper = h.cluster.history().queries.at(1);
  ASSERT_EQ(upper.status, QueryStatus::kOk) << upper.error;
  EXPECT_EQ(AValues(upper.rows), (std::vector<int64_t>{22}));  // 25 missing
}

TEST(DefectP3Test, ReferenceRoutesEveryRowToTheExpressionlessSourceDuringTheWindow) {
  for (bool full_reference : {false, true}) {
    Protocol protocol = full_reference ? Protocol::Reference() : Protocol::Greptime();
    testing::SetRule(protocol, "idempotent-allocate");
    testing::SetRule(protocol, "aligned-partition-rule");
    UnpartitionedInto3 run(protocol);
    RepartitionHarness& h = run.h;
    if (full_reference) {
      // fence-allocated-regions: R1 and R2 take no writes before ApplyStaging.
      EXPECT_EQ(run.in_window_r0, (std::vector<int64_t>{1, 5, 12, 15, 22, 25}));
      EXPECT_EQ(run.in_window_r1, (std::vector<int64_t>{}));
      EXPECT_EQ(run.in_window_r2, (std::vector<int64_t>{}));
    } else {
      // aligned-partition-rule alone: every row goes to the region whose expression covers it.
      EXPECT_EQ(run.in_window_r0, (std::vector<int64_t>{1, 5, 12, 22}));
      EXPECT_EQ(run.in_window_r1, (std::vector<int64_t>{15}));
      EXPECT_EQ(run.in_window_r2, (std::vector<int64_t>{25}));
    }
    const DdlRecord ddl = RunDdl(h, 0);
    EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error;
    const QueryRecord& all = h.cluster.history().queries.at(0);
    ASSERT_EQ(all.status, QueryStatus::kOk) << all.error;
    EXPECT_EQ(AValues(all.rows), (std::vector<int64_t>{1, 5, 12, 15, 22, 25}));
    const QueryRecord& upper = h.cluster.history().queries.at(1);
    ASSERT_EQ(upper.status, QueryStatus::kOk) << upper.error;
    EXPECT_EQ(AValues(upper.rows), (std::vector<int64_t>{22, 25}));
  }
}

// ---- P4 --------------------------------------------------------------------------------------

constexpr const char* kAppendTable =
    "PARTITION ON COLUMNS (a) (a < 100, a >= 100) WITH (append_mode = 'true')";
constexpr const char* kSplit =
    "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)";

struct BulkInAllocateWindow {
  explicit BulkInAllocateWindow(Protocol protocol) : h(protocol, kAppendTable) {
    HoldAllocateWindow(h, h.cluster.datanode_id(2), 3500, 4000, 8000);
    h.Insert(2000, 0, {MakeRow(10), MakeRow(60), MakeRow(150)});
    h.Alter(3000, kSplit);
    h.Insert(5000, 1, {MakeRow(70)}, WritePath::kBatcher);  // fresh frontend, overlapping route
    h.Query(6000, 1);
    h.Query(30000, 1);
    h.RunUntil(35000);
  }
  RepartitionHarness h;
};

TEST(DefectP4Test, BulkWriteDuplicatedWhileTheRouteOverlaps) {
  BulkInAllocateWindow run(Protocol::Greptime());
  RepartitionHarness& h = run.h;
  // a = 70 matches R0 (a < 100) and R2 (a >= 50 AND a < 100): the bulk path sends it to both,
  // unversioned, and both accept. In append mode nothing dedups the two copies.
  EXPECT_EQ(h.cluster.history().writes.at(1).status, WriteStatus::kAcked);
  const QueryRecord& window = h.cluster.history().queries.at(0);
  ASSERT_EQ(window.status, QueryStatus::kOk) << window.error;
  EXPECT_EQ(AValues(window.rows), (std::vector<int64_t>{10, 60, 70, 70, 150}));
  // The held window ends in the P12 rollback: R2 and its copy are dropped.
  EXPECT_EQ(RunDdl(h, 0).status, DdlStatus::kFailed);
  const QueryRecord& after = h.cluster.history().queries.at(1);
  ASSERT_EQ(after.status, QueryStatus::kOk) << after.error;
  EXPECT_EQ(AValues(after.rows), (std::vector<int64_t>{10, 60, 70, 150}));
}

TEST(DefectP4Test, DuplicateSurvivesASuccessfulSplitInAppendMode) {
  Protocol protocol = Protocol::Greptime();
  testing::SetRule(protocol, "idempotent-allocate");
  BulkInAllocateWindow run(protocol);
  RepartitionHarness& h = run.h;
  EXPECT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
  // After the remap R2 holds R0's file (filtered to [50,100): 60, 70) and its own copy of 70.
  EXPECT_EQ(RegionAValues(h, RegionN(2)), (std::vector<int64_t>{60, 70, 70}));
  const QueryRecord& after = h.cluster.history().queries.at(1);
  ASSERT_EQ(after.status, QueryStatus::kOk) << after.error;
  EXPECT_EQ(AValues(after.rows), (std::vector<int64_t>{10, 60, 70, 70, 150}));
}

TEST(DefectP4Test, FencedAllocatedRegionsTakeNoBulkCopy) {
  for (bool full_reference : {false, true}) {
    Protocol protocol = full_reference ? Protocol::Reference() : Protocol::Greptime();
    testing::SetRule(protocol, "idempotent-allocate");
    testing::SetRule(protocol, "fence-allocated-regions");
    BulkInAllocateWindow run(protocol);
    RepartitionHarness& h = run.h;
    EXPECT_EQ(h.cluster.history().writes.at(1).status, WriteStatus::kAcked) << full_reference;
    const QueryRecord& window = h.cluster.history().queries.at(0);
    ASSERT_EQ(window.status, QueryStatus::kOk) << window.error;
    EXPECT_EQ(AValues(window.rows), (std::vector<int64_t>{10, 60, 70, 150}));
    EXPECT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
    const QueryRecord& after = h.cluster.history().queries.at(1);
    ASSERT_EQ(after.status, QueryStatus::kOk) << after.error;
    EXPECT_EQ(AValues(after.rows), (std::vector<int64_t>{10, 60, 70, 150}));
  }
}

// ---- P10 -------------------------------------------------------------------------------------

// A frontend whose cache predates a completed split (it ignores invalidations) writes a = 70
// once through the row path and once (a = 75) through the bulk path.
struct StaleWriterAfterSplit {
  explicit StaleWriterAfterSplit(Protocol protocol) : h(protocol) {
    h.Insert(2000, 0, {MakeRow(10), MakeRow(60), MakeRow(150)});
    h.Query(2000, 1);  // fe2 caches the pre-split route
    h.cluster.Schedule(sim::AtMs(2500), StaleCacheOp{1, kTable, true});
    h.Alter(3000, kSplit);
    h.Insert(10000, 1, {MakeRow(70)});
    h.Insert(10000, 1, {MakeRow(75)}, WritePath::kBatcher);
    h.cluster.Schedule(sim::AtMs(11000), FlushOp{h.cluster.datanode_id(0), RegionN(0)});
    h.Query(12000, 0);
    QueryWhere(h, 12000, 0, AGe(50), "SELECT * FROM t WHERE a >= 50");
    h.RunUntil(15000);
  }
  RepartitionHarness h;
};

// The same stale frontend writes a = 72 through the Flight bulk insert, which stamps the
// region's expression version like the row path.
struct StaleFlightWriterAfterSplit {
  explicit StaleFlightWriterAfterSplit(Protocol protocol) : h(protocol) {
    h.Insert(2000, 0, {MakeRow(10), MakeRow(60), MakeRow(150)});
    h.Query(2000, 1);
    h.cluster.Schedule(sim::AtMs(2500), StaleCacheOp{1, kTable, true});
    h.Alter(3000, kSplit);
    h.Insert(10000, 1, {MakeRow(72)}, WritePath::kFlight);
    h.RunUntil(15000);
  }
  RepartitionHarness h;
};

TEST(DefectP10Test, FlightBulkWriteCarriesTheVersionAndIsFenced) {
  StaleFlightWriterAfterSplit run(Protocol::Greptime());
  RepartitionHarness& h = run.h;
  ASSERT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
  const WriteRecord& flight = h.cluster.history().writes.at(1);
  EXPECT_EQ(flight.path, WritePath::kFlight);
  EXPECT_EQ(flight.status, WriteStatus::kRejected);
  EXPECT_EQ(flight.error.str().rfind(
                "Partition expr version mismatch for region " + RegionN(0).ToString(), 0),
            0u)
      << flight.error;
  EXPECT_EQ(RegionAValues(h, RegionN(0)), (std::vector<int64_t>{10}));
}

TEST(DefectP10Test, ReferenceReroutesAFencedFlightWrite) {
  StaleFlightWriterAfterSplit run(Protocol::Reference());
  RepartitionHarness& h = run.h;
  ASSERT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
  EXPECT_EQ(h.cluster.history().writes.at(1).status, WriteStatus::kAcked)
      << h.cluster.history().writes.at(1).error;
  EXPECT_EQ(RegionAValues(h, RegionN(0)), (std::vector<int64_t>{10}));
  EXPECT_EQ(RegionAValues(h, RegionN(2)), (std::vector<int64_t>{60, 72}));
}

TEST(DefectP10Test, UnversionedBulkWriteBypassesTheFenceAndLandsOutsideTheRegion) {
  StaleWriterAfterSplit run(Protocol::Greptime());
  RepartitionHarness& h = run.h;
  ASSERT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
  const auto& writes = h.cluster.history().writes;
  // The row path carries the stale version of R0 and is fenced...
  EXPECT_EQ(writes.at(1).status, WriteStatus::kRejected);
  EXPECT_EQ(writes.at(1).error.str().rfind(
                "Partition expr version mismatch for region " + RegionN(0).ToString(), 0),
            0u)
      << writes.at(1).error;
  // ...the bulk path carries no version and R0 (now a < 50) accepts 75.
  EXPECT_EQ(writes.at(2).status, WriteStatus::kAcked) << writes.at(2).error;
  // Flushed under R0's own expression, 75 is never filtered: R0 serves a row outside its
  // expression, and a query pruned to a >= 50 never scans R0.
  EXPECT_EQ(RegionAValues(h, RegionN(0)), (std::vector<int64_t>{10, 75}));
  const QueryRecord& all = h.cluster.history().queries.at(1);
  ASSERT_EQ(all.status, QueryStatus::kOk) << all.error;
  EXPECT_EQ(AValues(all.rows), (std::vector<int64_t>{10, 60, 75, 150}));
  const QueryRecord& upper = h.cluster.history().queries.at(2);
  ASSERT_EQ(upper.status, QueryStatus::kOk) << upper.error;
  EXPECT_EQ(AValues(upper.rows), (std::vector<int64_t>{60, 150}));
}

TEST(DefectP10Test, ReferenceFencesUnversionedWritesAndReroutesThem) {
  StaleWriterAfterSplit run(Protocol::Reference());
  RepartitionHarness& h = run.h;
  ASSERT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
  const auto& writes = h.cluster.history().writes;
  EXPECT_EQ(writes.at(1).status, WriteStatus::kAcked) << writes.at(1).error;
  EXPECT_EQ(writes.at(2).status, WriteStatus::kAcked) << writes.at(2).error;
  EXPECT_EQ(RegionAValues(h, RegionN(0)), (std::vector<int64_t>{10}));
  EXPECT_EQ(RegionAValues(h, RegionN(2)), (std::vector<int64_t>{60, 70, 75}));
  const QueryRecord& upper = h.cluster.history().queries.at(2);
  ASSERT_EQ(upper.status, QueryStatus::kOk) << upper.error;
  EXPECT_EQ(AValues(upper.rows), (std::vector<int64_t>{60, 70, 75, 150}));
}

}  // namespace defects_routing_test
}  // namespace
}  // namespace repartsim::model::testing
