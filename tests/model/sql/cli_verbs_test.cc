// Goal: pin the README examples of the four partition verbs (check-rule, plan, route, prune):
// exact stdout/stderr and exit codes 0/1/64. Method: run the built repartsim binary
// (REPARTSIM_BINARY) from the repository root with popen, capturing both streams.
#include <gtest/gtest.h>

#include <string>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace cli_verbs_test {

struct CliRun {
  std::string out;
  int code;
};

CliRun Repartsim(const std::string& args) {
  repartsim::testing::CliOutcome o = repartsim::testing::RunRepartsim(args, REPARTSIM_SOURCE_DIR);
  return {o.output, o.exit_code};
}

const std::string kMetrics = "-f tests/data/partition/metrics.sql ";

TEST(PartitionCliTest, CheckRuleValidRejectedAndSyntaxError) {
  CliRun ok = Repartsim("check-rule --json " + kMetrics);
  EXPECT_EQ(ok.out, "{\"error\":null,\"valid\":true}\n");
  EXPECT_EQ(ok.code, 0);
  CliRun gap = Repartsim(
      "check-rule \"CREATE TABLE t (id INT, ts TIMESTAMP TIME INDEX) PARTITION ON "
      "COLUMNS (id) (id < 10, id > 10)\"");
  EXPECT_EQ(gap.out, "rejected: Checkpoint `id=10` is not covered\n");
  EXPECT_EQ(gap.code, 1);
  CliRun bad = Repartsim("check-rule -f tests/data/sql/bad_syntax.sql");
  EXPECT_EQ(bad.out,
            "tests/data/sql/bad_syntax.sql:6:24: error: Expected an expression, found: <\n");
  EXPECT_EQ(bad.code, 64);
}

TEST(PartitionCliTest, CheckRuleProfiles) {
  std::string sql =
      "\"CREATE TABLE t (id INT, ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (id) "
      "(id <= 9, id >= 10)\"";
  EXPECT_EQ(Repartsim("check-rule " + sql).out, "rejected: Checkpoint `9<id<10` is not covered\n");
  CliRun ref = Repartsim("check-rule --profile reference " + sql);
  EXPECT_EQ(ref.code, 0);
  EXPECT_EQ(Repartsim("check-rule --profile bogus " + sql).code, 64);
}

TEST(PartitionCliTest, PlanAcceptedAndRejected) {
  CliRun merge = Repartsim(
      "plan --json " + kMetrics +
      "\"ALTER TABLE metrics MERGE PARTITION (host >= 'h' AND host < 'p', host >= 'p')\"");
  EXPECT_EQ(merge.out,
            "{\"accepted\":true,\"error\":null,\"groups\":[{\"dispatch_panic\":null,"
            "\"dropped_regions\":[2],\"from\":[\"host >= 'h' AND host < 'p'\",\"host >= 'p'\"],"
            "\"new_regions\":[],\"source_regions\":[1,2],\"target_regions\":[1],"
            "\"to\":[\"host >= 'h'\"]}],\"rule\":[{\"expr\":\"host < 'h'\",\"region\":0},"
            "{\"expr\":\"host >= 'h'\",\"region\":1}]}\n");
  EXPECT_EQ(merge.code, 0);
  CliRun bad = Repartsim("plan --json " + kMetrics +
                         "\"ALTER TABLE metrics SPLIT PARTITION (host < 'h') INTO (host < 'c', "
                         "host > 'c' AND host < 'h')\"");
  EXPECT_EQ(bad.out,
            "{\"accepted\":false,\"error\":\"Checkpoint `host=c` is not covered\","
            "\"groups\":[],\"rule\":[]}\n");
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(Repartsim("plan " + kMetrics).code, 64);
}

// A metric-engine logical table has the regions of its physical table: GreptimeDB refuses to
// repartition it (ddl.rs, repartition_table) and names unknown tables in full.
TEST(PartitionCliTest, PlanRefusesALogicalTableAndNamesUnknownTablesInFull) {
  const std::string tables =
      "\"CREATE TABLE phy (host STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX, v DOUBLE) "
      "PARTITION ON COLUMNS (host) (host < 'm', host >= 'm') ENGINE = metric "
      "WITH ('physical_metric_table' = '');\" "
      "\"CREATE TABLE cpu (host STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX, v DOUBLE) "
      "ENGINE = metric WITH ('on_physical_table' = 'phy');\" ";
  CliRun logical = Repartsim("plan --json " + tables +
                             "\"ALTER TABLE cpu SPLIT PARTITION (host < 'm') INTO "
                             "(host < 'c', host >= 'c' AND host < 'm')\"");
  EXPECT_EQ(logical.out,
            "{\"accepted\":false,\"error\":\"Not supported: REPARTITION on logical tables\","
            "\"groups\":[],\"rule\":[]}\n");
  EXPECT_EQ(logical.code, 1);
  CliRun physical = Repartsim("plan " + tables +
                              "\"ALTER TABLE phy SPLIT PARTITION (host < 'm') INTO "
                              "(host < 'c', host >= 'c' AND host < 'm')\"");
  EXPECT_EQ(physical.code, 0) << physical.out;
  CliRun unknown = Repartsim("plan --json " + tables +
                             "\"ALTER TABLE mem MERGE PARTITION (host < 'm', host >= 'm')\"");
  EXPECT_EQ(unknown.out,
            "{\"accepted\":false,\"error\":\"Table not found: greptime.public.mem\","
            "\"groups\":[],\"rule\":[]}\n");
}

TEST(PartitionCliTest, RouteFlagsTheNullNotEqDisagreement) {
  CliRun r = Repartsim(
      "route --json \"CREATE TABLE t (host STRING, ts TIMESTAMP TIME INDEX) PARTITION "
      "ON COLUMNS (host) (host = 'a', host <> 'a')\" --row \"host=NULL\"");
  EXPECT_EQ(r.out,
            "{\"agree\":false,\"filter_path_region\":0,\"filter_path_regions\":[0],"
            "\"region\":1}\n");
  CliRun web = Repartsim("route " + kMetrics + "--row \"host='web-1',cpu=0.5\"");
  EXPECT_EQ(web.out, "row path: region 2\nfilter path: region 2\n");
  CliRun unknown = Repartsim("route " + kMetrics + "--row \"zone='x'\"");
  EXPECT_EQ(unknown.out, "<--row>:1:1: error: Cannot find column by name: zone\n");
  EXPECT_EQ(unknown.code, 64);
}

TEST(PartitionCliTest, PruneCandidatesAndFallBack) {
  EXPECT_EQ(Repartsim("prune " + kMetrics + "--where \"host >= 'q' AND cpu > 0.9\"").out,
            "candidate regions: 2\n");
  EXPECT_EQ(Repartsim("prune --json " + kMetrics + "--where \"host IN ('a', 'k')\"").out,
            "{\"fell_back\":false,\"regions\":[0,1]}\n");
  CliRun bad = Repartsim("prune " + kMetrics + "--where \"host > \"");
  EXPECT_EQ(bad.out, "<--where>:1:8: error: Expected a literal or column name, found: EOF\n");
  EXPECT_EQ(bad.code, 64);
}

TEST(PartitionCliTest, PruneWithoutWhereScansEveryRegion) {
  CliRun all = Repartsim("prune " + kMetrics);
  EXPECT_EQ(all.out, "candidate regions: 0, 1, 2\n");
  EXPECT_EQ(all.code, 0);
  EXPECT_EQ(Repartsim("prune --json " + kMetrics).out,
            "{\"fell_back\":false,\"regions\":[0,1,2]}\n");
}

}  // namespace cli_verbs_test
}  // namespace
