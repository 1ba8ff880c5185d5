// Goal: the frontend's repartition validation (docs/protocol.md section 4) reads the rule from
// the table's info and route (expression-less routes left out, region numbers kept, so a new
// region gets the next number), takes the partition columns from partition_key_indices (what a
// repartition updates) and refuses a repartition when metasrv GC is off.
// Method: ValidateRepartition over a hand-made info and route, exact plans and error texts.
#include "model/frontend/ddl_validation.h"

#include <gtest/gtest.h>

#include "model/sql/parser.h"
#include "tests/model/frontend/frontend_fixture.h"

namespace repartsim::model {
namespace {
namespace ddl_validation_test {

using namespace testing;  // NOLINT

sql::AlterRepartition Alter(const std::string& text) {
  auto r = sql::ParseStatements(text, "alter");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().Format());
  return std::get<sql::AlterRepartition>(r.value()[0].body);
}

TableRoute TwoRegions() {
  TableRoute route = TableRoute::New({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  return route;
}

TEST(DdlValidationTest, APlanUsesTheRouteRegionsAndNumbers) {
  sim::Result<sql::RepartitionPlan> plan =
      ValidateRepartition(FeInfo(), TwoRegions(),
                          Alter("ALTER TABLE t SPLIT PARTITION (a >= 10) INTO (a >= 10 AND a < 20, "
                                "a >= 20)"),
                          true, Protocol::Greptime());
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan.value().from, std::vector<PartitionExpr>{FeGe(10)});
  ASSERT_EQ(plan.value().to.size(), 2u);
  ASSERT_EQ(plan.value().groups.size(), 1u);
  EXPECT_EQ(plan.value().groups[0].allocated_regions, std::vector<uint32_t>{2});
  EXPECT_EQ(plan.value().result.max_region_number, 2u);
}

TEST(DdlValidationTest, GcOffIsRefused) {
  sim::Result<sql::RepartitionPlan> plan = ValidateRepartition(
      FeInfo(), TwoRegions(),
      Alter("ALTER TABLE t SPLIT PARTITION (a >= 10) INTO (a >= 10 AND a < 20, a >= 20)"), false,
      Protocol::Greptime());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().message,
            "Invalid arguments: Repartition requires metasrv GC to be enabled");
}

TEST(DdlValidationTest, ExpressionLessRoutesAreLeftOutOfTheRule) {
  // An unpartitioned table has one region without expression: PARTITION ON plans from nothing.
  TableInfo info = FeInfo();
  info.schema.partition_columns.clear();
  info.partition_key_indices.clear();
  TableRoute route = TableRoute::New({FeRoute(0, std::nullopt)});
  sim::Result<sql::RepartitionPlan> plan = ValidateRepartition(
      info, route, Alter("ALTER TABLE t PARTITION ON COLUMNS (a) (a < 10, a >= 10)"), true,
      Protocol::Greptime());
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_TRUE(plan.value().from.empty());
  EXPECT_EQ(plan.value().to.size(), 2u);
  EXPECT_EQ(plan.value().target_columns, std::vector<std::string>{"a"});
}

TEST(DdlValidationTest, PartitionColumnsComeFromThePartitionKeyIndices) {
  // After PARTITION ON COLUMNS the procedure updated partition_key_indices only; the schema's
  // list is still CREATE TABLE's (empty). Before issue 58 a SPLIT was then refused with
  // "table greptime.public.t does not have partition columns".
  TableInfo info = FeInfo();
  info.schema.partition_columns.clear();
  sim::Result<sql::RepartitionPlan> plan = ValidateRepartition(
      info, TwoRegions(),
      Alter("ALTER TABLE t SPLIT PARTITION (a >= 10) INTO (a >= 10 AND a < 20, a >= 20)"), true,
      Protocol::Greptime());
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan.value().target_columns, std::vector<std::string>{"a"});
}

}  // namespace ddl_validation_test
}  // namespace
}  // namespace repartsim::model
