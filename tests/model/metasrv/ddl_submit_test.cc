// Goal: DDL submission on the metasrv: CREATE TABLE makes the route's regions operating regions
// and submits one procedure; a repartition writes the durable GC requirement marker and
// submits a procedure whose persistent context holds the planned expressions, the ON COLUMNS
// target and the timeout; both log `ms.submit` with the procedure id. Method: a fresh metasrv,
// hand-made info, route and plan, exact kv, procedure and trace.
#include <gtest/gtest.h>

#include "model/metasrv/metasrv.h"
#include "model/repartition/repartition_procedure.h"
#include "tests/model/frontend/frontend_fixture.h"
#include "tests/model/node/node_context_fixture.h"

namespace repartsim::model {
namespace {
namespace ddl_submit_test {

using namespace testing;  // NOLINT

Metasrv Fresh() { return Metasrv(NodeId{0}, {NodeId{1}}, {NodeId{2}}); }

TEST(DdlSubmitTest, CreateTableRegistersOperatingRegionsAndSubmits) {
  Metasrv metasrv = Fresh();
  NodeContextFixture f(NodeId{0});
  TableRoute route = TableRoute::New({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  const ProcedureId id = metasrv.SubmitCreateTable(FeInfo(), route, f.ctx());
  EXPECT_EQ(metasrv.operating_regions(),
            (std::map<RegionId, ProcedureId>{{route.region_routes[0].region_id, id},
                                             {route.region_routes[1].region_id, id}}));
  ASSERT_NE(metasrv.procedures().Find(id), nullptr);
  EXPECT_EQ(f.TraceCount("ms.submit CreateTable procedure=" + std::to_string(id.value)), 1u);
  EXPECT_TRUE(f.ctx().outbox.empty());
}

TEST(DdlSubmitTest, RepartitionWritesTheGcMarkerAndFillsTheContext) {
  Metasrv metasrv = Fresh();
  NodeContextFixture f(NodeId{0});
  RepartitionTask task;
  task.info = FeInfo();
  task.kind = sql::AlterRepartition::Kind::kPartitionOn;
  task.to = {FeLt(10), FeGe(10)};
  task.target_columns = std::vector<std::string>{"a"};
  task.timeout_ms = 1234;
  EXPECT_FALSE(metasrv.kv().Get("__requirements/gc/repartition").has_value());
  const ProcedureId id = metasrv.SubmitRepartition(task, f.ctx());
  EXPECT_EQ(metasrv.kv().Get("__requirements/gc/repartition"), "repartition");
  const auto* slot = metasrv.procedures().Find(id);
  ASSERT_NE(slot, nullptr);
  const MetaProcedure* meta = slot->body.Held<MetaProcedure>();
  ASSERT_NE(meta, nullptr);
  const RepartitionProcedure* procedure = meta->As<RepartitionProcedure>();
  ASSERT_NE(procedure, nullptr);
  const RepartitionProcedure::PersistentContext& ctx = procedure->context();
  EXPECT_EQ(ctx.table, kFeTable);
  EXPECT_EQ(ctx.table_name, "t");
  EXPECT_TRUE(ctx.from_exprs.empty());
  EXPECT_EQ(ctx.to_exprs, (std::vector<PartitionExpr>{FeLt(10), FeGe(10)}));
  EXPECT_EQ(ctx.target_columns, std::vector<std::string>{"a"});
  EXPECT_EQ(ctx.timeout_ms, 1234);
  EXPECT_EQ(f.TraceCount("ms.submit Repartition procedure=" + std::to_string(id.value)), 1u);
}

// The DdlSubmit call: the procedure is submitted and the call answered when it ends, with the
// procedure's error; the History record gets the procedure id at submission and its end.
TEST(DdlSubmitTest, TheCallIsAnsweredWhenItsProcedureEnds) {
  Metasrv metasrv = Fresh();
  NodeContextFixture f(NodeId{0});
  DdlRecord& record = f.history().ddls.emplace_back();
  record.id = 1;
  RepartitionTask task;
  task.info = FeInfo();
  task.kind = sql::AlterRepartition::Kind::kSplit;
  task.from = {FeGe(10)};
  task.to = {FeGe(10)};
  // No route is stored: RepartitionStart aborts at its first step.
  metasrv.OnMessage(NodeId{2}, Message{DdlSubmit{5, 1, task}}, f.ctx());
  ASSERT_EQ(record.procedures, std::vector<uint64_t>{1});
  EXPECT_TRUE(f.ctx().outbox.empty());
  for (int i = 0; i < 10 && f.ctx().outbox.empty(); ++i) {
    ASSERT_TRUE(metasrv.RunProcedure(ProcedureId{1}, f.ctx()));
  }
  ASSERT_EQ(f.ctx().outbox.size(), 1u);
  EXPECT_EQ(f.ctx().outbox[0].to, NodeId{2});
  const auto* reply = std::get_if<DdlReply>(&f.ctx().outbox[0].message.body);
  ASSERT_NE(reply, nullptr);
  EXPECT_EQ(reply->corr, 5u);
  EXPECT_EQ(reply->outcome, DdlOutcome::kFailed);
  EXPECT_EQ(reply->procedure, 1u);
  const auto* slot = metasrv.procedures().Find(ProcedureId{1});
  ASSERT_NE(slot, nullptr);
  EXPECT_FALSE(slot->error.empty());
  EXPECT_EQ(reply->error, slot->error);
  const ProcedureEnd* end = f.history().EndOf(1);
  ASSERT_NE(end, nullptr);
  EXPECT_FALSE(end->done);
  EXPECT_EQ(end->error, slot->error);
  EXPECT_EQ(f.history().procedure_ends.size(), 1u);
}

// Inside the leader-start window the procedure manager takes no DDL: the call is answered
// Unavailable at once and nothing is submitted.
TEST(DdlSubmitTest, LeaderStartWindowAnswersUnavailable) {
  Metasrv metasrv = Fresh();
  metasrv.Crash();
  ASSERT_TRUE(metasrv.Restart(sim::AtMs(0), sim::Seconds(5)).ok());
  ASSERT_FALSE(metasrv.recovered());
  NodeContextFixture f(NodeId{0});
  CreateTableTask task{FeInfo(), TableRoute::New({FeRoute(0, FeLt(10))})};
  metasrv.OnMessage(NodeId{2}, Message{DdlSubmit{9, 0, task}}, f.ctx());
  ASSERT_EQ(f.ctx().outbox.size(), 1u);
  const auto* reply = std::get_if<DdlReply>(&f.ctx().outbox[0].message.body);
  ASSERT_NE(reply, nullptr);
  EXPECT_EQ(reply->corr, 9u);
  EXPECT_EQ(reply->outcome, DdlOutcome::kUnavailable);
  EXPECT_EQ(reply->procedure, 0u);
  EXPECT_EQ(metasrv.procedures().Find(ProcedureId{1}), nullptr);
}

// CreateTableProcedure::recover re-registers the regions of a recovered CREATE TABLE, and a
// metasrv that restarts with a leader-start window recovers procedures only when the window
// ends (docs/protocol.md section 3).
TEST(DdlSubmitTest, RecoveredCreateTableRegistersItsRegionsAgainWhenTheLeaderStartWindowEnds) {
  Metasrv metasrv = Fresh();
  NodeContextFixture f(NodeId{0});
  TableRoute route = TableRoute::New({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  const ProcedureId id = metasrv.SubmitCreateTable(FeInfo(), route, f.ctx());
  ASSERT_TRUE(metasrv.RunProcedure(id, f.ctx()));  // Prepare, persisted
  metasrv.Crash();
  EXPECT_TRUE(metasrv.operating_regions().empty());
  ASSERT_TRUE(metasrv.Restart(sim::AtMs(2000), sim::Ms(1500)).ok());
  EXPECT_TRUE(metasrv.operating_regions().empty());  // heartbeats are served, nothing recovered
  EXPECT_TRUE(metasrv.procedures().slots().empty());
  ASSERT_EQ(metasrv.NextTimer(), sim::AtMs(3500));
  NodeContextFixture later(NodeId{0}, Protocol::Greptime(), sim::AtMs(3500));
  metasrv.OnTimer(later.ctx());
  EXPECT_EQ(later.TraceCount("ms.procedures_recovered"), 1u);
  EXPECT_EQ(metasrv.operating_regions(),
            (std::map<RegionId, ProcedureId>{{route.region_routes[0].region_id, id},
                                             {route.region_routes[1].region_id, id}}));
}

}  // namespace ddl_submit_test
}  // namespace
}  // namespace repartsim::model
