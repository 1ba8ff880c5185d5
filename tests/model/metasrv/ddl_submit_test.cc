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
  sql::AlterRepartition alter;
  alter.kind = sql::AlterRepartition::Kind::kPartitionOn;
  sql::RepartitionPlan plan;
  plan.to = {FeLt(10), FeGe(10)};
  plan.target_columns = {"a"};
  plan.timeout_ms = 1234;
  EXPECT_FALSE(metasrv.kv().Get("__requirements/gc/repartition").has_value());
  const ProcedureId id = metasrv.SubmitRepartition(FeInfo(), alter, plan, f.ctx());
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

}  // namespace
}  // namespace repartsim::model
