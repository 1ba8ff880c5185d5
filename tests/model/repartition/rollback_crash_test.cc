// Goal: docs/protocol.md sections 10.6, 10.7 last row: a metasrv crash DURING a rollback resumes
// from the rollback record (RollingBack) and the resumed rollback is idempotent: it ends in exactly
// the state an uninterrupted rollback reaches (route, datanode regions, rows). Method: `greptime`
// split runs that roll back (re-dispatch after EnterStagingRegion -> P2 PartitionExprMismatch;
// AllocateRegion re-executed after its route commit -> P12), with a second metasrv crash: right
// after the rollback record is stored (crash point
// "<Type>.<state at failure>.after_persist"), or between two events after the datanode already
// dropped the allocated region but before the metasrv heard back.
#include "tests/model/repartition/procedure_probe.h"

namespace repartsim::model::testing {
namespace {
namespace rollback_crash_test {

constexpr const char* kSplit =
    "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)";

std::vector<Row> RowsBefore() {
  std::vector<Row> rows;
  for (int64_t a = 0; a < 200; a += 7) rows.push_back(MakeRow(a, a * 3));
  return rows;
}

struct Final {
  TableRoute route;
  std::vector<std::string> datanode_exprs;  // R0, R1, R2 committed expressions
  std::vector<Row> rows;
  DdlRecord ddl;
  std::vector<std::string> drops;  // DropRegion requests over the whole run
};

struct RollbackRun {
  RollbackRun() : p(h) {
    h.Insert(2000, 0, RowsBefore());
    h.Alter(3000, kSplit);
  }
  // Crashes at `site` (its `hit`-th hit), restarts the metasrv 1 s later.
  void CrashAt(const char* site, uint64_t hit = 1) {
    h.crash_plan.Script(site, hit);
    ASSERT_TRUE(p.ToMetasrvCrash()) << site;
    p.RestartMetasrvAt(p.now_ms() + 1000);
    ASSERT_TRUE(p.StepUntil([&] { return p.MetasrvUp(); }));
  }
  void CrashNowAndRestart() {
    p.CrashMetasrvNow();
    p.RestartMetasrvAt(p.now_ms() + 1000);
    ASSERT_TRUE(p.StepUntil([&] { return p.MetasrvUp(); }));
  }
  Final Finish() {
    int64_t t = p.now_ms();
    h.Query(t + 20000, 1);
    p.RunUntil(t + 30000);
    Final f;
    f.route = h.Route();
    for (uint32_t n : {0u, 1u, 2u}) f.datanode_exprs.push_back(DnExpr(h, n));
    f.rows = SortedRows(h.cluster.history().queries.at(0).rows);
    f.ddl = RunDdl(h);
    f.drops = p.LinesSince(0, "ms.region_request DropRegion");
    return f;
  }
  RepartitionHarness h;
  ProcedureProbe p;
};

// The route and datanodes after a complete rollback of the split: R2 gone everywhere, R0 back
// to a < 100, every row readable.
void ExpectRolledBack(const Final& f) {
  ASSERT_EQ(f.route.region_routes.size(), 2u);
  const RegionRoute* r0 = f.route.Find(RegionN(0));
  ASSERT_NE(r0, nullptr);
  EXPECT_EQ(r0->partition_expr->ToSql(), "a < 100");
  EXPECT_EQ(r0->leader_state, LeaderState::kNone);
  EXPECT_EQ(f.route.Find(RegionN(2)), nullptr);
  EXPECT_EQ(f.datanode_exprs, (std::vector<std::string>{"a < 100", "a >= 100", "<absent>"}));
  EXPECT_EQ(f.rows, SortedRows(RowsBefore()));
  EXPECT_EQ(f.ddl.status, DdlStatus::kFailed);
}

Final Uninterrupted() {
  RollbackRun run;
  run.CrashAt("RepartitionGroup.RemapManifest.after_persist");
  return run.Finish();
}

TEST(RollbackCrashTest, UninterruptedRollbackAfterRedispatchRestoresEverything) {
  Final f = Uninterrupted();
  ExpectRolledBack(f);
  EXPECT_EQ(f.ddl.error,
            "Failed to wait for repartition groups: failed plans [0], unknown plans []");
  EXPECT_EQ(f.drops.size(), 1u);
}

TEST(RollbackCrashTest, CrashAfterTheRollbackRecordResumesRollingBack) {
  RollbackRun run;
  run.CrashAt("RepartitionGroup.RemapManifest.after_persist");
  size_t mark = run.p.Mark();
  // The re-dispatched group fails at G0, Collect fails, the rollback record is stored.
  run.CrashAt("Repartition.Collect.after_persist");
  EXPECT_EQ(run.p.LinesSince(mark, "ms.region_request DropRegion").size(), 0u);
  const Slot* parent = run.p.ParentSlot();
  ASSERT_NE(parent, nullptr);
  EXPECT_EQ(parent->status, ProcedureStatus::kRollingBack);  // recovered from the record
  Final f = run.Finish();
  ExpectRolledBack(f);
  // The recovered slot does not know the pre-crash error text.
  EXPECT_EQ(f.ddl.error, "");
  Final once = Uninterrupted();
  EXPECT_EQ(f.route.region_routes, once.route.region_routes);
  EXPECT_EQ(f.datanode_exprs, once.datanode_exprs);
}

TEST(RollbackCrashTest, CrashAfterTheDropReachedTheDatanodeRedoesTheRollbackIdempotently) {
  RollbackRun run;
  run.CrashAt("RepartitionGroup.RemapManifest.after_persist");
  size_t mark = run.p.Mark();
  const std::string dropped = "dn.region_op DropRegion " + R(2) + " Ok";
  ASSERT_TRUE(run.p.StepUntil([&] { return !run.p.LinesSince(mark, dropped).empty(); }));
  EXPECT_EQ(run.p.ParentSlot()->status, ProcedureStatus::kRollingBack);
  EXPECT_EQ(run.h.RouteExpr(RegionN(0)), "a < 50");  // the route is not restored yet
  size_t second = run.p.Mark();
  run.CrashNowAndRestart();
  Final f = run.Finish();
  ExpectRolledBack(f);
  // The resumed rollback drops R2 again; dropping an absent region succeeds on the datanode
  // (the metasrv would also accept RegionNotFound).
  EXPECT_EQ(run.p.LinesSince(second, "ms.region_request DropRegion"),
            std::vector<std::string>{"ms.region_request DropRegion region=" + R(2) + " to=3"});
  EXPECT_EQ(run.p.LinesSince(second, dropped).size(), 1u);
  Final once = Uninterrupted();
  EXPECT_EQ(f.route.region_routes, once.route.region_routes);
  EXPECT_EQ(f.datanode_exprs, once.datanode_exprs);
  EXPECT_EQ(f.rows, once.rows);
}

TEST(RollbackCrashTest, WalOptionFailureRollbackSurvivesACrashAfterItsRecord) {
  RollbackRun run;
  // P12: crash between the route commit and the Dispatch record; the re-executed
  // AllocateRegion fails the WAL-option check and stores a rollback record (second hit of the
  // site: the first was Build's step record).
  run.CrashAt("Repartition.Dispatch.before_persist");
  run.CrashAt("Repartition.AllocateRegion.Execute.after_persist", 2);
  EXPECT_EQ(run.p.ParentSlot()->status, ProcedureStatus::kRollingBack);
  EXPECT_NE(run.h.Route().Find(RegionN(2)), nullptr);  // nothing undone yet
  Final f = run.Finish();
  ExpectRolledBack(f);
  EXPECT_EQ(f.drops.size(), 1u);
}

}  // namespace rollback_crash_test
}  // namespace
}  // namespace repartsim::model::testing
