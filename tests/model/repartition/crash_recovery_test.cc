// Goal: docs/protocol.md section 10.7 (crash / restart matrix) state by state. For every parent
// state and every group state, a metasrv crash right after it, then a restart; under `greptime` the
// outcome the reference predicts (procedure lost, resume, WAL-option failure then rollback,
// re-dispatch PartitionExprMismatch then rollback, and after ApplyStagingManifest a rollback that
// leaves datanodes diverged: moved rows invisible after a split, duplicated rows after a merge),
// and under `reference` a clean outcome: Done with every row, or rolled back with every row.
// Method: table-driven scripted runs (split, merge, PARTITION ON COLUMNS of an unpartitioned
// table) under the timed driver. A persisted state is crashed at the crash point after its
// persist; crash points carry the name of the state being STORED, i.e. the successor of the
// state that ran ("Repartition.Dispatch.after_persist" = right after AllocateRegion.Execute).
// A state that does not persist is crashed either at the next persist point (named in the
// case) or "now", between two events, right after the state ran (ProcedureProbe). Rows are
// written before the ALTER and read back through the other frontend after the restart; the
// route, the datanodes' committed expressions and the DDL outcome are compared exactly.
#include "tests/model/repartition/crash_matrix.h"

namespace repartsim::model::testing {
namespace {
namespace crash_recovery_test {

using namespace crash_matrix;  // NOLINT: the matrix vocabulary

// ---- split: every parent and group state ----------------------------------------------------

const std::vector<CrashCase>& SplitCases() {
  static const std::vector<CrashCase> cases = {
      // P0 does not persist: the next persist point is Build's, before the first record.
      {"RepartitionStart",
       "Repartition.AllocateRegion.Execute.before_persist",
       "<none>",
       {},
       {},
       Lost(Route::kOriginal),
       Lost(Route::kOriginal)},
      {"RepartitionStart",
       "",
       "<none>",
       ParentState::kAllocateRegionBuild,
       {},
       Lost(Route::kOriginal),
       Lost(Route::kOriginal)},
      {"AllocateRegion.Build",
       "Repartition.AllocateRegion.Execute.after_persist",
       "AllocateRegion.Execute",
       {},
       {},
       Done(),
       Done()},
      // P2b after the route commit, before the Dispatch record (P12).
      {"AllocateRegion.Execute (route committed)",
       "Repartition.Dispatch.before_persist",
       "AllocateRegion.Execute",
       {},
       {},
       Outcome{
           DdlStatus::kFailed,
           "Unexpected: WAL options of region " + R(2) + " already exist and cannot be overwritten",
           Route::kOriginal, Rows::kAll, true},
       Done()},
      {"AllocateRegion.Execute",
       "Repartition.Dispatch.after_persist",
       "Dispatch",
       {},
       {},
       Done(),
       Done()},
      // Dispatch does not persist: crash now, or at the group's first persist point.
      {"Dispatch", "", "Dispatch", ParentState::kCollect, {}, Done(), Done()},
      {"Dispatch",
       "RepartitionGroup.ApplyStaging.before_persist",
       "Dispatch",
       {},
       {},
       Done(),
       Done()},
      {"group RepartitionStart",
       "RepartitionGroup.ApplyStaging.after_persist",
       "Dispatch",
       {},
       {},
       Done(),
       Done()},
      // ApplyStaging does not persist: crash now (datanodes not staged yet) or at the next
      // persist point (after EnterStagingRegion).
      {"group ApplyStaging",
       "",
       "Dispatch",
       {},
       GroupState::kEnterStagingRegion,
       RolledBack(),
       Done()},
      {"group ApplyStaging",
       "RepartitionGroup.RemapManifest.before_persist",
       "Dispatch",
       {},
       {},
       RolledBack(),
       Done()},
      {"group EnterStagingRegion",
       "RepartitionGroup.RemapManifest.after_persist",
       "Dispatch",
       {},
       {},
       RolledBack(),
       Done()},
      {"group RemapManifest",
       "RepartitionGroup.ApplyStagingManifest.after_persist",
       "Dispatch",
       {},
       {},
       RolledBack(),
       Done()},
      {"group ApplyStagingManifest",
       "RepartitionGroup.ExitStaging.after_persist",
       "Dispatch",
       {},
       {},
       Diverged(Rows::kMovedInvisible),
       Done()},
      // ExitStaging does not persist: crash now, or at the group's commit.
      {"group ExitStaging",
       "",
       "Dispatch",
       {},
       GroupState::kRepartitionEnd,
       Diverged(Rows::kMovedInvisible),
       Done()},
      {"group ExitStaging",
       "RepartitionGroup.RepartitionEnd.before_persist",
       "Dispatch",
       {},
       {},
       Diverged(Rows::kMovedInvisible),
       Done()},
      {"group RepartitionEnd",
       "RepartitionGroup.RepartitionEnd.after_persist",
       "Dispatch",
       {},
       {},
       Diverged(Rows::kMovedInvisible),
       Done()},
      {"Collect",
       "Repartition.DeallocateRegion.before_persist",
       "Dispatch",
       {},
       {},
       Diverged(Rows::kMovedInvisible),
       Done()},
      {"Collect",
       "Repartition.DeallocateRegion.after_persist",
       "DeallocateRegion",
       {},
       {},
       Done(),
       Done()},
      // DeallocateRegion has nothing to drop in a split and does not persist: crash now, or
      // at the commit point.
      {"DeallocateRegion",
       "",
       "DeallocateRegion",
       ParentState::kRepartitionEnd,
       {},
       Done(),
       Done()},
      {"DeallocateRegion",
       "Repartition.RepartitionEnd.before_persist",
       "DeallocateRegion",
       {},
       {},
       Done(),
       Done()},
  };
  return cases;
}

TEST(CrashRecoveryTest, SplitGreptimeMatchesTheReferenceCrashMatrix) {
  for (const CrashCase& c : SplitCases()) Check(kSplit, Protocol::Greptime(), c, c.greptime);
}

TEST(CrashRecoveryTest, SplitReferenceEndsCleanAfterEveryCrash) {
  for (const CrashCase& c : SplitCases()) Check(kSplit, Protocol::Reference(), c, c.reference);
}

// docs/protocol.md section 10.7, "AllocateRegion::Execute before its route commit": the new region
// exists on its datanode but not in the route; recovery re-runs AllocateRegion::Execute, re-creates
// the region (same peer: placement is stable) and the procedure completes in both profiles.
TEST(CrashRecoveryTest, CrashAfterTheRegionCreateBeforeTheRouteCommitResumes) {
  for (Protocol protocol : {Protocol::Greptime(), Protocol::Reference()}) {
    SCOPED_TRACE(protocol.base_name());
    RepartitionHarness h(protocol, kSplit.partition);
    h.Insert(2000, 0, RowsBefore());
    h.Alter(3000, kSplit.alter);
    ProcedureProbe p(h);
    const std::string created = "dn.region_op CreateRegion " + R(2) + " Ok";
    ASSERT_TRUE(p.StepUntil([&] { return !p.LinesSince(0, created).empty(); }));
    EXPECT_EQ(h.Route().Find(RegionN(2)), nullptr);
    p.CrashMetasrvNow();
    size_t mark = p.Mark();
    p.RestartMetasrvAt(p.now_ms() + 1000);
    ASSERT_TRUE(p.StepUntil([&] { return p.MetasrvUp(); }));
    EXPECT_EQ(p.Parent()->state_name(), "AllocateRegion.Execute");
    h.Query(p.now_ms() + 30000, 1);
    p.RunUntil(p.now_ms() + 40000);
    EXPECT_EQ(p.LinesSince(mark, "ms.region_request CreateRegion"),
              std::vector<std::string>{"ms.region_request CreateRegion region=" + R(2) + " to=3"});
    const DdlRecord ddl = RunDdl(h, 0);
    EXPECT_EQ(ddl.status, DdlStatus::kDone) << ddl.error;
    EXPECT_EQ(h.RouteExpr(RegionN(2)), "a >= 50 AND a < 100");
    std::string why;
    EXPECT_TRUE(DatanodesMatchRoute(h, &why)) << why;
    const QueryRecord& query = h.cluster.history().queries.at(0);
    ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
    EXPECT_EQ(SortedRows(query.rows), SortedRows(RowsBefore()));
  }
}

// docs/protocol.md section 9: Done writes a commit record; recovery treats a procedure whose latest
// record is a commit as finished and deletes it (local.rs::recover, store.rs::load_messages), so a
// crash right after the commit leaves the procedure gone and the client without a reply.
TEST(CrashRecoveryTest, CrashAfterTheCommitRecordDoesNotResumeTheProcedure) {
  const CrashCase c{"RepartitionEnd",
                    "Repartition.RepartitionEnd.after_persist",
                    "<none>",
                    {},
                    {},
                    Lost(Route::kTarget),
                    Lost(Route::kTarget)};
  Check(kSplit, Protocol::Greptime(), c, c.greptime);
  Check(kSplit, Protocol::Reference(), c, c.reference);
}

}  // namespace crash_recovery_test
}  // namespace
}  // namespace repartsim::model::testing
