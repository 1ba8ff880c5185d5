// Goal: pin the repartition validation pipeline (docs/protocol.md section 4) error texts in order,
// and the plans it builds: groups, reused/new/dropped regions, the resulting rule, merge
// simplification, ON COLUMNS, unpartitioned sources and the P1 switch. Method: a CREATE TABLE
// parsed once, then ALTER statements planned against it.
#include "model/sql/repartition_planner.h"

#include <gtest/gtest.h>

#include "model/sql/parser.h"

namespace repartsim::model::sql {
namespace {
namespace repartition_planner_test {

constexpr const char* kCreate =
    "CREATE TABLE t (a INT, b STRING, c INT, ts TIMESTAMP TIME INDEX) "
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)";

TableState Table(const char* sql = kCreate) {
  auto r = ParseStatements(sql, "create");
  EXPECT_TRUE(r.ok());
  return TableState::FromCreate(std::get<CreateTable>(r.value()[0].body));
}

sim::Result<RepartitionPlan> Plan(const TableState& table, const std::string& alter,
                                  PlanOptions options = PlanOptions::Greptime()) {
  auto r = ParseStatements(alter, "alter");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().Format());
  return PlanRepartition(table, std::get<AlterRepartition>(r.value()[0].body),
                         r.value()[0].location, options);
}

std::string Err(const std::string& alter, const TableState& table = Table(),
                PlanOptions options = PlanOptions::Greptime()) {
  auto p = Plan(table, alter, options);
  return p.ok() ? "accepted" : p.error().Format();
}

std::vector<std::string> RuleText(const PartitionRule& rule) {
  std::vector<std::string> out;
  for (size_t i = 0; i < rule.regions.size(); ++i) {
    out.push_back(std::to_string(rule.regions[i]) + ": " +
                  (i < rule.exprs.size() ? rule.exprs[i].ToSql() : "-"));
  }
  return out;
}

using Strings = std::vector<std::string>;
using Regions = std::vector<uint32_t>;

TEST(RepartitionPlannerTest, SplitReusesTheSourceAndAllocatesANewRegion) {
  auto p = Plan(Table(),
                "ALTER TABLE t SPLIT PARTITION (a >= 10 AND a < 20) INTO "
                "(a >= 10 AND a < 15, a >= 15 AND a < 20)");
  ASSERT_TRUE(p.ok()) << p.error().Format();
  ASSERT_EQ(p.value().groups.size(), 1u);
  EXPECT_EQ(p.value().groups[0].target_regions, Regions({1, 3}));
  EXPECT_EQ(p.value().groups[0].allocated_regions, Regions({3}));
  EXPECT_EQ(RuleText(p.value().result.rule),
            Strings({"0: a < 10", "1: a >= 10 AND a < 15", "2: a >= 20", "3: a >= 15 AND a < 20"}));
  EXPECT_EQ(p.value().result.max_region_number, 3u);
}

TEST(RepartitionPlannerTest, MergeSimplifiesAndDropsTheSecondSource) {
  auto p = Plan(Table(), "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)");
  ASSERT_TRUE(p.ok()) << p.error().Format();
  EXPECT_EQ(p.value().to[0].ToSql(), "a >= 10");
  EXPECT_EQ(p.value().groups[0].deallocated_regions, Regions({2}));
  EXPECT_EQ(RuleText(p.value().result.rule), Strings({"0: a < 10", "1: a >= 10"}));
}

TEST(RepartitionPlannerTest, MergeOfNonAdjacentRegionsKeepsTheOr) {
  auto p = Plan(Table(), "ALTER TABLE t MERGE PARTITION (a < 10, a >= 20)");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().to[0].ToSql(), "a < 10 OR a >= 20");
}

TEST(RepartitionPlannerTest, NoOpMergeIsAcceptedAsOneGroup) {
  auto p = Plan(Table(), "ALTER TABLE t MERGE PARTITION (a < 10)");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().groups.size(), 1u);
  EXPECT_EQ(p.value().groups[0].target_regions, Regions({0}));
}

TEST(RepartitionPlannerTest, TwoGroupsReproduceP1OnlyInGreptime) {
  std::string alter =
      "ALTER TABLE t REPARTITION (a < 10, a >= 20) INTO "
      "(a < 5, a >= 5 AND a < 10, a >= 20 AND a < 30, a >= 30)";
  auto g = Plan(Table(), alter);
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(g.value().groups.size(), 2u);
  EXPECT_FALSE(g.value().groups[0].dispatch_panic.has_value());
  EXPECT_EQ(g.value().groups[1].dispatch_panic.value_or(""),
            "index out of bounds: the len is 2 but the index is 2");
  EXPECT_EQ(g.value().groups[1].allocated_regions, Regions({4}));
  auto r = Plan(Table(), alter, PlanOptions::Reference());
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value().groups[1].dispatch_panic.has_value());
}

TEST(RepartitionPlannerTest, PipelineErrorsUseTheRealTexts) {
  EXPECT_EQ(Err("ALTER TABLE u MERGE PARTITION (a < 10)"),
            "alter:1:1: error: Table not found: greptime.public.u");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (b < 'x') INTO (a < 1, a >= 1)"),
            "alter:1:32: error: Cannot find column by name: b");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 11) INTO (a < 1, a >= 1 AND a < 11)"),
            "alter:1:32: error: Invalid partition rule: partition expression 'a < 11' does not "
            "exist in table greptime.public.t");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a > 5 AND a < 10)"),
            "alter:1:1: error: Checkpoint `a=5` is not covered");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 4 AND a < 10)"),
            "alter:1:1: error: Checkpoint `a=4` is overlapped");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 11)"),
            "alter:1:1: error: Checkpoint `a=10` is overlapped");
  EXPECT_EQ(
      Err("ALTER TABLE t PARTITION ON COLUMNS (a) (a < 1, a >= 1)"),
      "alter:1:1: error: Invalid partition rule: table greptime.public.t already has partition "
      "columns");
  TableState gc_off = Table();
  gc_off.gc_enabled = false;
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION (a < 10)", gc_off),
            "alter:1:1: error: Invalid arguments: Repartition requires metasrv GC to be enabled");
  TableState logical = Table();
  logical.logical = true;
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION (a < 10)", logical),
            "alter:1:1: error: Not supported: REPARTITION on logical tables");
}

TEST(RepartitionPlannerTest, DiscreteSplitOnlyAcceptedByReference) {
  std::string alter = "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a <= 4, a >= 5 AND a < 10)";
  EXPECT_EQ(Err(alter), "alter:1:1: error: Checkpoint `4<a<5` is not covered");
  EXPECT_EQ(Err(alter, Table(), PlanOptions::Reference()), "accepted");
}

TEST(RepartitionPlannerTest, OnColumnsOverwritesAndChecksUntouchedExpressions) {
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 10) ON COLUMNS (b) INTO (b < 'm', b >= 'm')"),
            "alter:1:1: error: Invalid partition rule: partition expression 'a >= 10 AND a < 20' "
            "references column 'a' not in target partition columns");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 10) ON COLUMNS (a, a) INTO (a < 1, a >= 1)"),
            "alter:1:1: error: Duplicate partition column: a");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 10) ON COLUMNS (z) INTO (a < 1, a >= 1)"),
            "alter:1:1: error: Cannot find column by name: z");
  auto p = Plan(Table(),
                "ALTER TABLE t SPLIT PARTITION (a < 10) ON COLUMNS (a, b) INTO "
                "(a < 10 AND b < 'm', a < 10 AND b >= 'm')");
  ASSERT_TRUE(p.ok()) << p.error().Format();
  EXPECT_EQ(p.value().result.schema.partition_columns, Strings({"a", "b"}));
}

TEST(RepartitionPlannerTest, UnpartitionedTableGetsItsFirstRule) {
  TableState plain = Table("CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX)");
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION (a < 10)", plain),
            "alter:1:1: error: Invalid partition rule: table greptime.public.t does not have "
            "partition columns, cannot repartition");
  auto p = Plan(plain, "ALTER TABLE t PARTITION ON COLUMNS (a) (a < 0, a >= 0 AND a < 9, a >= 9)");
  ASSERT_TRUE(p.ok()) << p.error().Format();
  EXPECT_EQ(p.value().groups[0].source_regions, Regions({0}));
  EXPECT_EQ(p.value().groups[0].allocated_regions, Regions({1, 2}));
  EXPECT_EQ(RuleText(p.value().result.rule),
            Strings({"0: a < 0", "1: a >= 0 AND a < 9", "2: a >= 9"}));
}

TEST(RepartitionPlannerTest, RegionNumbersAreNeverReused) {
  auto merged = Plan(Table(), "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)");
  ASSERT_TRUE(merged.ok());
  auto split = Plan(merged.value().result,
                    "ALTER TABLE t SPLIT PARTITION (a >= 10) INTO (a >= 10 AND a < 50, a >= 50)");
  ASSERT_TRUE(split.ok()) << split.error().Format();
  EXPECT_EQ(split.value().groups[0].allocated_regions, Regions({3}));  // not 2
}

}  // namespace repartition_planner_test
}  // namespace
}  // namespace repartsim::model::sql
