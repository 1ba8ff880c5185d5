// Goal: one test per state of the repartition parent procedure (docs/protocol.md sections 10.3,
// 10.6) and of the group procedure (10.4): given the metadata (route, table info) and
// datanode state before the state runs, pin the state it moves to, whether it persisted, the
// metadata and datanode state after it, and the region requests it sent (trace lines
// "ms.region_request"). Method: the real cluster under the timed driver (RepartitionHarness),
// stepped event by event with ProcedureProbe until the procedure is about to run the state,
// snapshot, then stepped until it left the state. Error paths edit the stored route in between, as
// a fixture of "the metadata before the state". Group-state tests live in group_state_test.cc.
#include "tests/model/repartition/procedure_probe.h"

namespace repartsim::model::testing {
namespace {
namespace state_test {

constexpr const char* kSplit =
    "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)";
constexpr const char* kThreeRegions =
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)";
constexpr const char* kMerge = "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)";
constexpr const char* kPartitionOn = "ALTER TABLE t PARTITION ON COLUMNS (a) (a < 50, a >= 50)";
constexpr const char* kTwoGroups =
    "ALTER TABLE t REPARTITION (a < 100, a >= 100) INTO "
    "(a < 50, a >= 50 AND a < 100, a >= 100 AND a < 150, a >= 150)";

std::vector<std::string> Sqls(const std::vector<PartitionExpr>& exprs) {
  std::vector<std::string> out;
  for (const PartitionExpr& e : exprs) out.push_back(e.ToSql());
  return out;
}

std::vector<std::string> Targets(const PlanEntry& plan) {
  std::vector<std::string> out;
  for (const TargetDescriptor& t : plan.targets) {
    out.push_back(std::to_string(t.region.region_number().value) + ":" + t.expr.ToSql());
  }
  return out;
}

std::vector<size_t> KeyIndices(const RepartitionHarness& h) {
  return ReadTableInfo(h.cluster.metasrv().kv(), kTable)->partition_key_indices;
}

std::string Request(const char* op, uint32_t region, uint32_t node) {
  return std::string("ms.region_request ") + op + " region=" + R(region) +
         " to=" + std::to_string(node);
}

// ---- P0 RepartitionStart --------------------------------------------------------------------

TEST(ParentStateTest, RepartitionStartPlansOneGroupAndMovesToBuildWithoutPersisting) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kRepartitionStart));
  const TableRoute before = h.Route();
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kRepartitionStart));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kAllocateRegionBuild);
  EXPECT_EQ(p.RecordCount(), 0u);  // nothing persisted: a crash now loses the procedure
  const auto& ctx = p.Parent()->context();
  ASSERT_EQ(ctx.plans.size(), 1u);
  const PlanEntry& plan = ctx.plans[0];
  ASSERT_EQ(plan.sources.size(), 1u);
  EXPECT_EQ(plan.sources[0].region, RegionN(0));
  EXPECT_EQ(plan.sources[0].expr->ToSql(), "a < 100");
  EXPECT_EQ(Sqls(plan.target_exprs), (std::vector<std::string>{"a < 50", "a >= 50 AND a < 100"}));
  EXPECT_EQ(plan.transition_map, (std::vector<std::vector<size_t>>{{0, 1}}));
  EXPECT_FALSE(plan.built);
  EXPECT_FALSE(ctx.metadata_update.has_value());
  EXPECT_EQ(ctx.dispatch_plans, std::vector<size_t>{0});
  EXPECT_TRUE(p.LinesSince(mark, "ms.region_request").empty());
  EXPECT_EQ(h.Route(), before);
}

TEST(ParentStateTest, RepartitionStartOfAnUnpartitionedTablePersistsUpdatePartitionMetadata) {
  RepartitionHarness h(Protocol::Greptime(), "");
  h.Alter(3000, kPartitionOn);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kRepartitionStart));
  ASSERT_TRUE(p.PastParent(ParentState::kRepartitionStart));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kUpdatePartitionMetadata);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step UpdatePartitionMetadata");
  const auto& ctx = p.Parent()->context();
  ASSERT_TRUE(ctx.metadata_update.has_value());
  EXPECT_EQ(ctx.metadata_update->original, std::vector<size_t>{});
  EXPECT_EQ(ctx.metadata_update->target, std::vector<size_t>{3});  // column a
  ASSERT_EQ(ctx.plans.size(), 1u);
  ASSERT_EQ(ctx.plans[0].sources.size(), 1u);
  EXPECT_EQ(ctx.plans[0].sources[0].region, RegionN(0));
  EXPECT_FALSE(ctx.plans[0].sources[0].expr.has_value());  // Default source
  EXPECT_EQ(ctx.plans[0].transition_map, (std::vector<std::vector<size_t>>{{0, 1}}));
  EXPECT_EQ(KeyIndices(h), std::vector<size_t>{});  // P1 has not run yet
}

TEST(ParentStateTest, RepartitionStartAbortsWhenASourceExpressionIsNotInTheRoute) {
  RepartitionHarness h;
  ProcedureProbe p(h);
  p.RunUntil(1000);
  RepartitionProcedure::PersistentContext ctx;
  ctx.table = kTable;
  ctx.table_name = "t";
  ctx.from_exprs = {Expr("a < 77")};
  ctx.to_exprs = {Expr("a < 7"), Expr("a >= 7 AND a < 77")};
  ProcedureId id = h.cluster.mutable_metasrv().Submit(RepartitionProcedure(ctx), sim::AtMs(1000));
  ASSERT_TRUE(
      p.StepUntil([&] { return p.procedures().Find(id)->status == ProcedureStatus::kFailed; }));
  EXPECT_EQ(p.procedures().Find(id)->error,
            "RepartitionSourceExprMismatch: source expression a < 77 does not exist in the "
            "route of table 1024");
  EXPECT_EQ(p.RecordCount(), 0u);  // the rollback record is deleted with the tree
  EXPECT_EQ(h.Route().version, 0u);
}

// ---- P1 UpdatePartitionMetadata ---------------------------------------------------------------

TEST(ParentStateTest, UpdatePartitionMetadataWritesTheTargetColumnsAndInvalidates) {
  RepartitionHarness h(Protocol::Greptime(), "");
  h.Alter(3000, kPartitionOn);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kUpdatePartitionMetadata));
  EXPECT_EQ(KeyIndices(h), std::vector<size_t>{});
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kUpdatePartitionMetadata));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kAllocateRegionBuild);
  EXPECT_EQ(KeyIndices(h), std::vector<size_t>{3});
  EXPECT_EQ(p.LinesSince(mark, "ms.invalidate").size(), 1u);
  EXPECT_TRUE(p.LinesSince(mark, "ms.region_request").empty());
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step AllocateRegion.Build");
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "");  // the route does not change yet
}

TEST(ParentStateTest, UpdatePartitionMetadataSkipsTheWriteWhenTheTargetIsAlreadyThere) {
  RepartitionHarness h(Protocol::Greptime(), "");
  h.Alter(3000, kPartitionOn);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kUpdatePartitionMetadata));
  // As after a crash that re-runs P1: the target indices are already stored.
  KvStore& kv = h.cluster.mutable_metasrv().mutable_kv();
  TableInfo info = *ReadTableInfo(kv, kTable);
  info.partition_key_indices = {3};
  ASSERT_TRUE(UpdateTableInfo(kv, kTable, kv.Get(TableInfoKey(kTable)).value(), info).ok);
  const std::string raw = kv.Get(TableInfoKey(kTable)).value();
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kUpdatePartitionMetadata));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kAllocateRegionBuild);
  EXPECT_EQ(kv.Get(TableInfoKey(kTable)).value(), raw);  // no second write
  EXPECT_TRUE(p.LinesSince(mark, "ms.invalidate").empty());
}

// ---- P2a AllocateRegion::Build ----------------------------------------------------------------

TEST(ParentStateTest, BuildFixesRegionIdsAndCapturesTheReusedTargetRoutes) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kAllocateRegionBuild));
  const TableRoute before = h.Route();
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kAllocateRegionBuild));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kAllocateRegionExecute);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step AllocateRegion.Execute");
  const PlanEntry& plan = p.Parent()->context().plans.at(0);
  EXPECT_TRUE(plan.built);
  // The first source is reused as the first target; the extra target gets max + 1 = 2.
  EXPECT_EQ(Targets(plan), (std::vector<std::string>{"0:a < 50", "2:a >= 50 AND a < 100"}));
  EXPECT_EQ(plan.allocated, std::vector<RegionId>{RegionN(2)});
  EXPECT_TRUE(plan.pending_deallocate.empty());
  ASSERT_EQ(plan.original_target_routes.size(), 1u);
  EXPECT_EQ(plan.original_target_routes[0], *before.Find(RegionN(0)));
  EXPECT_EQ(h.Route(), before);
  EXPECT_TRUE(p.LinesSince(mark, "ms.region_request").empty());
}

TEST(ParentStateTest, BuildOfAMergeMarksTheExtraSourcePendingAndSkipsExecute) {
  RepartitionHarness h(Protocol::Greptime(), kThreeRegions);
  h.Alter(3000, kMerge);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kAllocateRegionBuild));
  ASSERT_TRUE(p.PastParent(ParentState::kAllocateRegionBuild));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kDispatch);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step Dispatch");
  const PlanEntry& plan = p.Parent()->context().plans.at(0);
  EXPECT_EQ(Targets(plan), std::vector<std::string>{"1:a >= 10"});
  EXPECT_TRUE(plan.allocated.empty());
  EXPECT_EQ(plan.pending_deallocate, std::vector<RegionId>{RegionN(2)});
}

// ---- P2b AllocateRegion::Execute --------------------------------------------------------------

TEST(ParentStateTest, ExecuteCreatesTheNewRegionAndAppendsItsRouteAfterTheOldOnes) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kAllocateRegionExecute));
  EXPECT_EQ(DnExpr(h, 2), "<absent>");
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kAllocateRegionExecute));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kDispatch);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step Dispatch");
  EXPECT_EQ(p.LinesSince(mark, "ms.region_request"),
            std::vector<std::string>{Request("CreateRegion", 2, 3)});
  EXPECT_EQ(p.LinesSince(mark, "ms.invalidate").size(), 1u);
  // The route overlaps until ApplyStaging: R0 still covers a < 100.
  const TableRoute route = h.Route();
  ASSERT_EQ(route.region_routes.size(), 3u);
  EXPECT_EQ(route.region_routes[2].region_id, RegionN(2));
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 100");
  EXPECT_EQ(h.RouteExpr(RegionN(2)), "a >= 50 AND a < 100");
  EXPECT_EQ(route.region_routes[2].leader, NodeId{3});
  EXPECT_EQ(route.region_routes[2].write_policy, WritePolicy::kNormal);  // writable at once
  EXPECT_EQ(DnExpr(h, 2), "a >= 50 AND a < 100");
  EXPECT_EQ(h.DatanodeRegion(RegionN(2))->state(), RegionState::kWritable);
}

TEST(ParentStateTest, ExecuteFencesTheNewRegionUnderReference) {
  RepartitionHarness h(Protocol::Reference());
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kAllocateRegionExecute));
  ASSERT_TRUE(p.PastParent(ParentState::kAllocateRegionExecute));
  EXPECT_EQ(h.Route().Find(RegionN(2))->write_policy, WritePolicy::kIgnoreAllWrites);
}

// ---- P3 Dispatch ----------------------------------------------------------------------------

TEST(ParentStateTest, DispatchSubmitsOneGroupPerPlanAndSuspendsWithoutPersisting) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kDispatch));
  const size_t records = p.RecordCount();
  ASSERT_TRUE(p.PastParent(ParentState::kDispatch));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kCollect);
  EXPECT_EQ(p.ParentSlot()->status, ProcedureStatus::kSuspended);
  EXPECT_EQ(p.RecordCount(), records);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step Dispatch");  // Collect is never stored
  ASSERT_EQ(p.GroupSlots().size(), 1u);
  EXPECT_EQ(p.GroupSlots()[0]->parent, p.ParentSlot()->id);
  const RepartitionGroupProcedure* group = p.Group();
  EXPECT_EQ(group->state(), GroupState::kRepartitionStart);
  const auto& g = group->context();
  EXPECT_EQ(g.sources.size(), 1u);
  EXPECT_EQ(g.targets.size(), 2u);
  EXPECT_EQ(g.region_mapping,
            (std::map<RegionId, std::vector<RegionId>>{{RegionN(0), {RegionN(0), RegionN(2)}}}));
  EXPECT_EQ(g.allocated, std::vector<RegionId>{RegionN(2)});
  EXPECT_TRUE(g.pending_deallocate.empty());
  EXPECT_FALSE(g.sync_region);  // mito
  EXPECT_EQ(g.timeout_ms, 60000);
  EXPECT_EQ(g.created_at_ms, p.now_ms());
}

TEST(ParentStateTest, DispatchPanicsOnTheSecondGroupWithGlobalIndicesP1) {
  RepartitionHarness h;
  h.Alter(3000, kTwoGroups);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kDispatch));
  ASSERT_TRUE(p.PastParent(ParentState::kDispatch));
  const Slot* parent = p.ParentSlot();
  EXPECT_EQ(parent->status, ProcedureStatus::kFailed);
  EXPECT_EQ(parent->error,
            "panic: index out of bounds: the len is 2 but the index is 2 (build_region_mapping)");
  EXPECT_TRUE(p.GroupSlots().empty());
  // ProcedureGuard: Failed without rollback, the records stay.
  EXPECT_EQ(p.LatestRecord(parent->id), "step Dispatch");
  // The allocated regions stay in the route, overlapping their sources.
  EXPECT_EQ(h.Route().region_routes.size(), 4u);
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 100");
  EXPECT_EQ(h.RouteExpr(RegionN(3)), "a >= 150");
}

TEST(ParentStateTest, DispatchWithPerGroupIndicesSubmitsTwoGroupsUnderReference) {
  RepartitionHarness h(Protocol::Reference());
  h.Alter(3000, kTwoGroups);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kDispatch));
  ASSERT_TRUE(p.PastParent(ParentState::kDispatch));
  ASSERT_EQ(p.GroupSlots().size(), 2u);
  EXPECT_EQ(p.Group(0)->context().region_mapping,
            (std::map<RegionId, std::vector<RegionId>>{{RegionN(0), {RegionN(0), RegionN(2)}}}));
  EXPECT_EQ(p.Group(1)->context().region_mapping,
            (std::map<RegionId, std::vector<RegionId>>{{RegionN(1), {RegionN(1), RegionN(3)}}}));
  p.RunUntil(30000);
  EXPECT_EQ(RunDdl(h, 0).status, DdlStatus::kDone) << RunDdl(h, 0).error;
}

// ---- P4 Collect -----------------------------------------------------------------------------

TEST(ParentStateTest, CollectMovesToDeallocateRegionWhenEveryGroupIsDone) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kCollect));
  ASSERT_TRUE(p.PastParent(ParentState::kCollect));
  EXPECT_EQ(p.GroupSlots()[0]->status, ProcedureStatus::kDone);
  EXPECT_EQ(p.ParentStateNow(), ParentState::kDeallocateRegion);
  EXPECT_EQ(p.Parent()->context().succeeded_plans, std::vector<size_t>{0});
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step DeallocateRegion");
}

// The group's sources no longer match (fixture: R0's route expression changed before the
// group starts), so the group fails; Collect fails; the parent rolls back from Collect.
TEST(ParentStateTest, CollectFailsWhenAGroupFailedAndTheParentRollsBack) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToGroup(GroupState::kRepartitionStart));
  EditRoute(h, [](std::vector<RegionRoute>& routes) {
    FindRoute(routes, RegionN(0))->partition_expr = Expr("a < 60");
  });
  ASSERT_TRUE(p.StepUntil([&] { return p.ParentSlot()->status == ProcedureStatus::kRollingBack; }));
  const Slot* group = p.GroupSlots()[0];
  EXPECT_EQ(group->status, ProcedureStatus::kFailed);
  EXPECT_EQ(group->error, "PartitionExprMismatch: region " + R(0) + " expects '" +
                              Expr("a < 100").CanonicalText() + "' but the route has '" +
                              Expr("a < 60").CanonicalText() + "'");
  EXPECT_EQ(p.Parent()->context().failed_plans, std::vector<size_t>{0});
  EXPECT_EQ(p.ParentSlot()->error,
            "Failed to wait for repartition groups: failed plans [0], unknown plans []");
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "rollback Collect");
}

// ---- P5 DeallocateRegion --------------------------------------------------------------------

TEST(ParentStateTest, DeallocateRegionDropsTheMergedAwayRegionAndRemovesItsRoute) {
  RepartitionHarness h(Protocol::Greptime(), kThreeRegions);
  h.Alter(3000, kMerge);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kDeallocateRegion));
  EXPECT_NE(h.Route().Find(RegionN(2)), nullptr);
  EXPECT_EQ(h.Route().Find(RegionN(2))->write_policy, WritePolicy::kIgnoreAllWrites);
  EXPECT_NE(h.DatanodeRegion(RegionN(2)), nullptr);
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kDeallocateRegion));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kRepartitionEnd);
  EXPECT_EQ(p.LinesSince(mark, "ms.region_request"),
            std::vector<std::string>{Request("DropRegion", 2, 3)});
  EXPECT_EQ(p.LinesSince(mark, "ms.invalidate").size(), 1u);
  EXPECT_EQ(h.Route().Find(RegionN(2)), nullptr);
  EXPECT_EQ(h.Route().region_routes.size(), 2u);
  EXPECT_EQ(h.DatanodeRegion(RegionN(2)), nullptr);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step RepartitionEnd");
}

TEST(ParentStateTest, DeallocateRegionWithNothingPendingMovesOnWithoutPersisting) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kDeallocateRegion));
  const TableRoute before = h.Route();
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastParent(ParentState::kDeallocateRegion));
  EXPECT_EQ(p.ParentStateNow(), ParentState::kRepartitionEnd);
  EXPECT_TRUE(p.LinesSince(mark, "ms.region_request").empty());
  EXPECT_EQ(h.Route(), before);
  EXPECT_EQ(p.LatestRecord(p.ParentSlot()->id), "step DeallocateRegion");
}

// ---- P6 RepartitionEnd ----------------------------------------------------------------------

TEST(ParentStateTest, RepartitionEndCommitsThenDeletesEveryRecordOfTheTree) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kRepartitionEnd));
  EXPECT_GT(p.RecordCount(), 1u);  // parent and group records
  ASSERT_TRUE(p.PastParent(ParentState::kRepartitionEnd));
  EXPECT_EQ(p.ParentSlot()->status, ProcedureStatus::kDone);
  EXPECT_EQ(h.crash_stats.Get("Repartition.RepartitionEnd.after_persist").hits, 1u);  // commit
  EXPECT_EQ(p.RecordCount(), 0u);
  EXPECT_TRUE(p.procedures().locks().empty());
  EXPECT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
}

// ---- Rollback (docs/protocol.md section 10.6) ---------------------------------------------------

TEST(ParentStateTest, RollbackFromCollectRestoresTheRouteAndDropsTheAllocatedRegion) {
  RepartitionHarness h;
  h.Alter(3000, kSplit);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToGroup(GroupState::kRepartitionStart));
  EditRoute(h, [](std::vector<RegionRoute>& routes) {
    RegionRoute* r0 = FindRoute(routes, RegionN(0));
    r0->partition_expr = Expr("a < 60");
    r0->leader_state = LeaderState::kStaging;
  });
  ASSERT_TRUE(p.StepUntil([&] { return p.ParentSlot()->status == ProcedureStatus::kRollingBack; }));
  size_t mark = p.Mark();
  ASSERT_TRUE(p.StepUntil([&] { return p.ParentSlot()->status == ProcedureStatus::kFailed; }));
  EXPECT_EQ(p.LinesSince(mark, "ms.region_request"),
            std::vector<std::string>{Request("DropRegion", 2, 3)});
  const TableRoute route = h.Route();
  ASSERT_EQ(route.region_routes.size(), 2u);
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a < 100");
  EXPECT_EQ(route.Find(RegionN(0))->leader_state, LeaderState::kNone);
  EXPECT_EQ(route.Find(RegionN(2)), nullptr);
  EXPECT_EQ(route.max_region_number.value, 2u);  // region numbers are never reused
  EXPECT_EQ(h.DatanodeRegion(RegionN(2)), nullptr);
  EXPECT_EQ(p.LinesSince(mark, "ms.invalidate").size(), 1u);
  EXPECT_EQ(p.RecordCount(), 0u);
  const DdlRecord ddl = RunDdl(h, 0);
  EXPECT_EQ(ddl.status, DdlStatus::kFailed);
  EXPECT_EQ(ddl.error, "Failed to wait for repartition groups: failed plans [0], unknown plans []");
}

TEST(ParentStateTest, RollbackRestoresThePartitionColumnsOfAnUnpartitionedTable) {
  RepartitionHarness h(Protocol::Greptime(), "");
  h.Alter(3000, kPartitionOn);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToGroup(GroupState::kRepartitionStart));
  EXPECT_EQ(KeyIndices(h), std::vector<size_t>{3});
  EditRoute(h, [](std::vector<RegionRoute>& routes) {
    FindRoute(routes, RegionN(0))->partition_expr = Expr("a < 50");
  });
  ASSERT_TRUE(p.StepUntil([&] { return p.ParentSlot()->status == ProcedureStatus::kFailed; }));
  EXPECT_EQ(KeyIndices(h), std::vector<size_t>{});
  EXPECT_EQ(h.Route().region_routes.size(), 1u);
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "");  // the Default source gets "" back
  EXPECT_EQ(h.DatanodeRegion(RegionN(1)), nullptr);
}

TEST(ParentStateTest, RollbackOutsideTheRollbackActiveStatesIsANoOp) {
  // DeallocateRegion is not rollback-active: a non-retryable failure there (the merged-away
  // region vanished from its datanode is ignored, so use a deleted route) ends Failed as is.
  RepartitionHarness h(Protocol::Greptime(), kThreeRegions);
  h.Alter(3000, kMerge);
  ProcedureProbe p(h);
  ASSERT_TRUE(p.ToParent(ParentState::kDeallocateRegion));
  KvStore& kv = h.cluster.mutable_metasrv().mutable_kv();
  ASSERT_TRUE(kv.Delete(TableRouteKey(kTable)));
  ASSERT_TRUE(p.StepUntil([&] { return p.ParentSlot()->status == ProcedureStatus::kFailed; }));
  EXPECT_EQ(p.ParentSlot()->error, "Table not found: 1024");
  EXPECT_FALSE(kv.Get(TableRouteKey(kTable)).has_value());  // nothing restored
  EXPECT_NE(h.DatanodeRegion(RegionN(2)), nullptr);
}

}  // namespace state_test
}  // namespace
}  // namespace repartsim::model::testing
