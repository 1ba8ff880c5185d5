// Goal: one test per state of the repartition group procedure (docs/protocol.md section 10.4,
// datanode side 10.5): RepartitionStart, SyncRegion, ApplyStaging, EnterStagingRegion,
// RemapManifest, ApplyStagingManifest, ExitStaging: given the route and datanode state before the
// state, pin the next state, whether it persisted, the route, the datanode regions (role, committed
// and staging expression, files), the remap blobs and the instructions sent, in order.
// Method: the real cluster under the timed driver, stepped with ProcedureProbe to the moment
// the group is about to run the state and until it left it. SyncRegion is unreachable with
// the mito engine (Dispatch never sets sync_region), so its test submits a group directly.
#include "tests/model/repartition/procedure_probe.h"

namespace repartsim::model::testing {
namespace {
namespace group_state_test {

constexpr const char* kSplit =
    "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)";
constexpr const char* kThreeRegions =
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)";
constexpr const char* kMerge = "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)";

std::string Request(const char* op, uint32_t region, uint32_t node) {
  return std::string("ms.region_request ") + op + " region=" + R(region) +
         " to=" + std::to_string(node);
}

// A split harness with rows in R0's memtable (a < 100) and R1's, about to run `state`.
struct SplitAt {
  explicit SplitAt(GroupState state, Protocol protocol = Protocol::Greptime()) : h(protocol), p(h) {
    h.Insert(2000, 0, {MakeRow(10, 1), MakeRow(60, 2), MakeRow(120, 3)});
    h.Alter(3000, kSplit);
    ok = p.ToGroup(state);
  }
  RepartitionHarness h;
  ProcedureProbe p;
  bool ok = false;
};

struct MergeAt {
  explicit MergeAt(GroupState state, Protocol protocol = Protocol::Greptime())
      : h(protocol, kThreeRegions), p(h) {
    h.Insert(2000, 0, {MakeRow(5, 1), MakeRow(15, 2), MakeRow(25, 3)});
    h.Alter(3000, kMerge);
    ok = p.ToGroup(state);
  }
  RepartitionHarness h;
  ProcedureProbe p;
  bool ok = false;
};

// ---- G0 RepartitionStart --------------------------------------------------------------------

TEST(GroupStateTest, RepartitionStartPersistsThePrepareResult) {
  SplitAt s(GroupState::kRepartitionStart);
  ASSERT_TRUE(s.ok);
  const TableRoute route = s.h.Route();
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kRepartitionStart));
  EXPECT_EQ(s.p.GroupStateNow(), GroupState::kApplyStaging);
  const Slot* group = s.p.GroupSlots()[0];
  EXPECT_EQ(s.p.LatestRecord(group->id), "step ApplyStaging");
  const auto& prepare = s.p.Group()->context().prepare;
  ASSERT_TRUE(prepare.has_value());
  EXPECT_EQ(prepare->central_region, RegionN(0));  // sources[0]
  EXPECT_EQ(prepare->central_datanode, NodeId{1});
  EXPECT_EQ(prepare->source_routes, std::vector<RegionRoute>{*route.Find(RegionN(0))});
  EXPECT_EQ(prepare->target_routes,
            (std::vector<RegionRoute>{*route.Find(RegionN(0)), *route.Find(RegionN(2))}));
  EXPECT_TRUE(s.p.LinesSince(mark, "ms.region_request").empty());
  EXPECT_EQ(s.h.Route(), route);
}

TEST(GroupStateTest, RepartitionStartAbortsWhenATargetRouteIsMissing) {
  SplitAt s(GroupState::kRepartitionStart);
  ASSERT_TRUE(s.ok);
  EditRoute(s.h, [](std::vector<RegionRoute>& routes) {
    std::erase_if(routes, [](const RegionRoute& r) { return r.region_id == RegionN(2); });
  });
  ASSERT_TRUE(s.p.PastGroup(GroupState::kRepartitionStart));
  const Slot* group = s.p.GroupSlots()[0];
  EXPECT_EQ(group->status, ProcedureStatus::kFailed);
  EXPECT_EQ(group->error, "RepartitionTargetRegionMissing: region " + R(2));
  EXPECT_EQ(s.p.LatestRecord(group->id), "<none>");  // no rollback: nothing stored
}

// ---- G1 SyncRegion --------------------------------------------------------------------------

TEST(GroupStateTest, SyncRegionIsANoOpThatPersistsApplyStagingForMito) {
  RepartitionHarness h;
  ProcedureProbe p(h);
  p.RunUntil(1000);
  // A group that asks for SyncRegion (metric engine): no repartition plan produces one here.
  RepartitionGroupProcedure::PersistentContext ctx;
  ctx.group_id = 1;
  ctx.table = kTable;
  ctx.sources = {SourceDescriptor{RegionN(1), Expr("a >= 100")}};
  ctx.targets = {TargetDescriptor{RegionN(1), Expr("a >= 100")}};
  ctx.region_mapping = {{RegionN(1), {RegionN(1)}}};
  ctx.sync_region = true;
  ctx.allocated = {RegionN(1)};
  ctx.created_at_ms = 1000;
  ProcedureId id =
      h.cluster.mutable_metasrv().Submit(RepartitionGroupProcedure(ctx), sim::AtMs(1000));
  ASSERT_TRUE(p.ToGroup(GroupState::kSyncRegion));
  EXPECT_EQ(p.LatestRecord(id), "step SyncRegion");
  size_t mark = p.Mark();
  ASSERT_TRUE(p.PastGroup(GroupState::kSyncRegion));
  EXPECT_EQ(p.GroupStateNow(), GroupState::kApplyStaging);
  EXPECT_EQ(p.LatestRecord(id), "step ApplyStaging");
  EXPECT_TRUE(p.LinesSince(mark, "ms.region_request").empty());
}

// ---- G2 ApplyStaging ------------------------------------------------------------------------

TEST(GroupStateTest, ApplyStagingWritesTargetExpressionsAndStagingToTheRoute) {
  SplitAt s(GroupState::kApplyStaging);
  ASSERT_TRUE(s.ok);
  const size_t records = s.p.RecordCount();
  const RegionRoute r1 = *s.h.Route().Find(RegionN(1));
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kApplyStaging));
  EXPECT_EQ(s.p.GroupStateNow(), GroupState::kEnterStagingRegion);
  EXPECT_EQ(s.p.RecordCount(), records);  // not persisted
  const TableRoute route = s.h.Route();
  EXPECT_EQ(s.h.RouteExpr(RegionN(0)), "a < 50");
  EXPECT_EQ(s.h.RouteExpr(RegionN(2)), "a >= 50 AND a < 100");
  EXPECT_EQ(route.Find(RegionN(0))->leader_state, LeaderState::kStaging);
  EXPECT_EQ(route.Find(RegionN(2))->leader_state, LeaderState::kStaging);
  EXPECT_EQ(route.Find(RegionN(2))->write_policy, WritePolicy::kNormal);
  EXPECT_EQ(*route.Find(RegionN(1)), r1);
  EXPECT_EQ(s.p.LinesSince(mark, "ms.invalidate").size(), 1u);
  EXPECT_TRUE(s.p.LinesSince(mark, "ms.region_request").empty());
  // The datanodes know nothing yet.
  EXPECT_EQ(DnExpr(s.h, 0), "a < 100");
  EXPECT_EQ(s.h.DatanodeRegion(RegionN(0))->state(), RegionState::kWritable);
}

TEST(GroupStateTest, ApplyStagingClearsTheFenceOfNewRegionsUnderReference) {
  SplitAt s(GroupState::kApplyStaging, Protocol::Reference());
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.h.Route().Find(RegionN(2))->write_policy, WritePolicy::kIgnoreAllWrites);
  ASSERT_TRUE(s.p.PastGroup(GroupState::kApplyStaging));
  EXPECT_EQ(s.h.Route().Find(RegionN(2))->write_policy, WritePolicy::kNormal);
}

TEST(GroupStateTest, ApplyStagingMarksTheMergedAwaySourceIgnoreAllWrites) {
  MergeAt s(GroupState::kApplyStaging);
  ASSERT_TRUE(s.ok);
  ASSERT_TRUE(s.p.PastGroup(GroupState::kApplyStaging));
  const TableRoute route = s.h.Route();
  EXPECT_EQ(s.h.RouteExpr(RegionN(1)), "a >= 10");
  EXPECT_EQ(s.h.RouteExpr(RegionN(2)), "a >= 20");  // a source keeps its expression
  EXPECT_EQ(route.Find(RegionN(1))->leader_state, LeaderState::kStaging);
  EXPECT_EQ(route.Find(RegionN(2))->leader_state, LeaderState::kStaging);
  EXPECT_EQ(route.Find(RegionN(1))->write_policy, WritePolicy::kNormal);
  EXPECT_EQ(route.Find(RegionN(2))->write_policy, WritePolicy::kIgnoreAllWrites);
  EXPECT_EQ(route.Find(RegionN(0))->leader_state, LeaderState::kNone);
}

// ---- G3 EnterStagingRegion ------------------------------------------------------------------

TEST(GroupStateTest, EnterStagingRegionStagesEveryTargetAfterFlushingIt) {
  SplitAt s(GroupState::kEnterStagingRegion);
  ASSERT_TRUE(s.ok);
  EXPECT_GT(s.h.DatanodeRegion(RegionN(0))->memtable_rows(), 0u);
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kEnterStagingRegion));
  EXPECT_EQ(s.p.GroupStateNow(), GroupState::kRemapManifest);
  EXPECT_EQ(s.p.LatestRecord(s.p.GroupSlots()[0]->id), "step RemapManifest");
  EXPECT_EQ(
      s.p.LinesSince(mark, "ms.region_request"),
      (std::vector<std::string>{Request("EnterStaging", 0, 1), Request("EnterStaging", 2, 3)}));
  for (uint32_t n : {0u, 2u}) {
    EXPECT_EQ(s.h.DatanodeRegion(RegionN(n))->state(), RegionState::kStaging) << n;
  }
  EXPECT_EQ(DnStaging(s.h, 0), "a < 50");
  EXPECT_EQ(DnStaging(s.h, 2), "a >= 50 AND a < 100");
  EXPECT_EQ(DnExpr(s.h, 0), "a < 100");  // committed expression unchanged
  // The memtable was flushed into the NORMAL manifest before staging (file expr = a < 100).
  EXPECT_EQ(s.h.DatanodeRegion(RegionN(0))->memtable_rows(), 0u);
  const RegionManifest* manifest = s.h.cluster.object_store().Manifest(RegionN(0));
  ASSERT_NE(manifest, nullptr);
  ASSERT_EQ(manifest->files.size(), 1u);
  EXPECT_EQ(s.h.cluster.object_store().File(*manifest->files.begin())->expr_text,
            Expr("a < 100").CanonicalText());
  EXPECT_EQ(DnStaging(s.h, 1), "<none>");
}

// GreptimeDB groups a state's regions by peer: one EnterStagingRegions instruction per
// datanode, waited for as long as the group has left (group.rs next_operation_timeout).
TEST(GroupStateTest, EnterStagingRegionSendsOneInstructionPerDatanodeUntilTheGroupDeadline) {
  ClusterConfig config;
  config.datanode_count = 1;
  RepartitionHarness h(Protocol::Greptime(), "PARTITION ON COLUMNS (a) (a < 100, a >= 100)",
                       config);
  ProcedureProbe p(h);
  h.Insert(2000, 0, {MakeRow(10, 1), MakeRow(60, 2)});
  h.Alter(3000, kSplit);
  ASSERT_TRUE(p.ToGroup(GroupState::kEnterStagingRegion));
  const size_t mark = p.Mark();
  ASSERT_TRUE(p.StepUntil([&] { return p.GroupSlots()[0]->status == ProcedureStatus::kWaiting; }));
  const RepartitionGroupProcedure::PersistentContext& ctx = p.Group()->context();
  EXPECT_EQ(p.GroupSlots()[0]->wake_at.ms, ctx.created_at_ms + ctx.timeout_ms);
  EXPECT_EQ(
      p.LinesSince(mark, "ms.region_request"),
      (std::vector<std::string>{Request("EnterStaging", 0, 1), Request("EnterStaging", 2, 1)}));
  std::vector<std::string> sends = p.LinesSince(mark, "send");
  std::erase_if(sends, [](const std::string& l) { return l.find("msg=RegionRequest") == l.npos; });
  EXPECT_EQ(sends.size(), 1u);
  ASSERT_TRUE(p.PastGroup(GroupState::kEnterStagingRegion));
  EXPECT_EQ(p.GroupStateNow(), GroupState::kRemapManifest);
  EXPECT_EQ(p.LinesSince(mark, "dn.region_op"),
            (std::vector<std::string>{"dn.region_op EnterStaging " + R(0) + " Ok",
                                      "dn.region_op EnterStaging " + R(2) + " Ok"}));
}

TEST(GroupStateTest, EnterStagingRegionFlushesTheMergedAwaySourceFirst) {
  MergeAt s(GroupState::kEnterStagingRegion);
  ASSERT_TRUE(s.ok);
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kEnterStagingRegion));
  EXPECT_EQ(s.p.LinesSince(mark, "ms.region_request"),
            (std::vector<std::string>{Request("FlushRegion", 2, 3), Request("EnterStaging", 1, 2),
                                      Request("EnterStaging", 2, 3)}));
  EXPECT_EQ(DnStaging(s.h, 1), "a >= 10");
  EXPECT_EQ(DnStaging(s.h, 2), "<reject>");
  EXPECT_EQ(s.h.DatanodeRegion(RegionN(2))->memtable_rows(), 0u);
}

// ---- G4 RemapManifest -----------------------------------------------------------------------

TEST(GroupStateTest, RemapManifestStoresOneManifestPerTargetInTheCentralStagingArea) {
  SplitAt s(GroupState::kRemapManifest);
  ASSERT_TRUE(s.ok);
  const ObjectStore& store = s.h.cluster.object_store();
  EXPECT_EQ(store.RemapBlob(RegionN(0), RegionN(2)), nullptr);
  const std::set<FileId> r0_files = store.Manifest(RegionN(0))->files;
  ASSERT_FALSE(r0_files.empty());
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kRemapManifest));
  EXPECT_EQ(s.p.GroupStateNow(), GroupState::kApplyStagingManifest);
  EXPECT_EQ(s.p.LatestRecord(s.p.GroupSlots()[0]->id), "step ApplyStagingManifest");
  EXPECT_TRUE(s.p.Group()->context().remapped);
  EXPECT_EQ(s.p.LinesSince(mark, "ms.region_request"),
            std::vector<std::string>{Request("RemapManifest", 0, 1)});
  const RegionManifest* to_r0 = store.RemapBlob(RegionN(0), RegionN(0));
  const RegionManifest* to_r2 = store.RemapBlob(RegionN(0), RegionN(2));
  ASSERT_NE(to_r0, nullptr);
  ASSERT_NE(to_r2, nullptr);
  EXPECT_EQ(to_r0->ExprText(), Expr("a < 50").CanonicalText());
  EXPECT_EQ(to_r2->ExprText(), Expr("a >= 50 AND a < 100").CanonicalText());
  EXPECT_EQ(to_r0->files, r0_files);  // whole-file references
  EXPECT_EQ(to_r2->files, r0_files);
  // Nothing is committed yet.
  EXPECT_EQ(DnExpr(s.h, 0), "a < 100");
  EXPECT_EQ(s.h.DatanodeRegion(RegionN(0))->state(), RegionState::kStaging);
}

// ---- G5 ApplyStagingManifest ----------------------------------------------------------------

TEST(GroupStateTest, ApplyStagingManifestAppliesNonCentralTargetsBeforeTheCentralOne) {
  SplitAt s(GroupState::kApplyStagingManifest);
  ASSERT_TRUE(s.ok);
  const std::set<FileId> r0_files = s.h.cluster.object_store().Manifest(RegionN(0))->files;
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kApplyStagingManifest));
  EXPECT_EQ(s.p.GroupStateNow(), GroupState::kExitStaging);
  EXPECT_EQ(s.p.LatestRecord(s.p.GroupSlots()[0]->id), "step ExitStaging");
  EXPECT_EQ(s.p.LinesSince(mark, "ms.region_request"),
            (std::vector<std::string>{Request("ApplyStagingManifest", 2, 3),
                                      Request("ApplyStagingManifest", 0, 1)}));
  // The central request leaves only after R2 applied.
  const std::vector<std::string>& lines = s.h.trace.lines();
  size_t r2_applied = 0, r0_sent = 0;
  for (size_t i = mark; i < lines.size(); ++i) {
    if (lines[i].find("dn.region_op ApplyStagingManifest " + R(2) + " Ok") != std::string::npos) {
      r2_applied = i;
    }
    if (lines[i].find(Request("ApplyStagingManifest", 0, 1)) != std::string::npos) r0_sent = i;
  }
  EXPECT_GT(r2_applied, 0u);
  EXPECT_LT(r2_applied, r0_sent);
  for (uint32_t n : {0u, 2u}) {
    EXPECT_EQ(s.h.DatanodeRegion(RegionN(n))->state(), RegionState::kWritable) << n;
    EXPECT_EQ(DnStaging(s.h, n), "<none>") << n;
  }
  EXPECT_EQ(DnExpr(s.h, 0), "a < 50");
  EXPECT_EQ(DnExpr(s.h, 2), "a >= 50 AND a < 100");
  const ObjectStore& store = s.h.cluster.object_store();
  for (FileId f : r0_files) {
    EXPECT_EQ(store.Manifest(RegionN(2))->files.count(f), 1u);
    EXPECT_EQ(store.Manifest(RegionN(0))->files.count(f), 1u);
  }
  // The route still says Staging until ExitStaging.
  EXPECT_EQ(s.h.Route().Find(RegionN(0))->leader_state, LeaderState::kStaging);
}

// ---- G6 ExitStaging -------------------------------------------------------------------------

TEST(GroupStateTest, ExitStagingClearsStagingAndRecordsTheFileSharingMap) {
  SplitAt s(GroupState::kExitStaging);
  ASSERT_TRUE(s.ok);
  const Slot* group = s.p.GroupSlots()[0];
  size_t mark = s.p.Mark();
  ASSERT_TRUE(s.p.PastGroup(GroupState::kExitStaging));
  EXPECT_EQ(s.p.GroupStateNow(), GroupState::kRepartitionEnd);
  EXPECT_EQ(s.p.LatestRecord(group->id), "step ExitStaging");  // not persisted
  for (const RegionRoute& r : s.h.Route().region_routes) {
    EXPECT_EQ(r.leader_state, LeaderState::kNone) << r.region_id.ToString();
  }
  EXPECT_EQ(s.h.RouteExpr(RegionN(0)), "a < 50");
  auto repart = DecodeTableRepart(*s.h.cluster.metasrv().kv().Get(TableRepartKey(kTable)));
  ASSERT_TRUE(repart.ok());
  EXPECT_EQ(repart.value().src_to_dst,
            (std::map<RegionId, std::set<RegionId>>{{RegionN(0), {RegionN(0), RegionN(2)}}}));
  EXPECT_EQ(s.p.LinesSince(mark, "ms.invalidate").size(), 1u);
  EXPECT_TRUE(s.p.LinesSince(mark, "ms.region_request").empty());
  ASSERT_TRUE(s.p.PastGroup(GroupState::kRepartitionEnd));
  EXPECT_EQ(s.p.GroupSlots()[0]->status, ProcedureStatus::kDone);
}

TEST(GroupStateTest, ExitStagingKeepsIgnoreAllWritesOnTheMergedAwaySource) {
  MergeAt s(GroupState::kExitStaging);
  ASSERT_TRUE(s.ok);
  ASSERT_TRUE(s.p.PastGroup(GroupState::kExitStaging));
  const TableRoute route = s.h.Route();
  const RegionRoute* r2 = route.Find(RegionN(2));
  EXPECT_EQ(r2->write_policy, WritePolicy::kIgnoreAllWrites);
  EXPECT_EQ(r2->leader_state, LeaderState::kNone);  // its lease grants Leader again
  EXPECT_EQ(s.h.Route().Find(RegionN(1))->leader_state, LeaderState::kNone);
}

TEST(GroupStateTest, ExitStagingKeepsTheMergedAwaySourceStagingUnderReference) {
  MergeAt s(GroupState::kExitStaging, Protocol::Reference());
  ASSERT_TRUE(s.ok);
  ASSERT_TRUE(s.p.PastGroup(GroupState::kExitStaging));
  const TableRoute route = s.h.Route();
  const RegionRoute* r2 = route.Find(RegionN(2));
  EXPECT_EQ(r2->write_policy, WritePolicy::kIgnoreAllWrites);
  EXPECT_EQ(r2->leader_state, LeaderState::kStaging);  // fence-merged-away-sources
  EXPECT_EQ(s.h.Route().Find(RegionN(1))->leader_state, LeaderState::kNone);
}

}  // namespace group_state_test
}  // namespace
}  // namespace repartsim::model::testing
