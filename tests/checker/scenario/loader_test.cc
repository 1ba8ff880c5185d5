// Goal: the scenario loader is strict and precise: every kind of bad input in
// tests/data/bad_input/ yields exactly the error its first line states (file:line:col and
// message), and good scenarios load into the expected values.
// Method: load each fixture with LoadScenarioFile and compare Error::Format() with the
// fixture's "# expect:" (exact) or "# expect-prefix:" line; parse small inline scenarios.
#include "checker/scenario/loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "model/sql/parser.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace loader_test {

const std::string kDir = std::string(REPARTSIM_SOURCE_DIR) + "/tests/data/bad_input/";

std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(ScenarioLoaderTest, EveryBadInputFixtureGivesItsStatedError) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".yaml") continue;
    ++count;
    const std::string first = FirstLine(path);
    auto result = LoadScenarioFile(path);
    ASSERT_FALSE(result.ok()) << path;
    const std::string actual = result.error().Format();
    if (first.rfind("# expect: ", 0) == 0) {
      EXPECT_EQ(actual, kDir + first.substr(10)) << path;
    } else {
      ASSERT_EQ(first.rfind("# expect-prefix: ", 0), 0u) << path;
      EXPECT_EQ(actual.rfind(kDir + first.substr(17), 0), 0u) << actual;
    }
  }
  EXPECT_GE(count, 61u);
}

TEST(ScenarioLoaderTest, InputOnWhichTheParserNeverEndsIsRefusedNotHung) {
  // Found by fuzz_run: YAML::LoadAll never returns on ", x" (yaml-cpp 0.7 yields empty
  // documents forever); the loader asks the parser for two documents at most.
  auto result = ParseScenario(", VN-NOOMIT", "comma.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().Format(),
            "comma.yaml:1:1: error: expected a mapping, got a null (at <top>)");
}

TEST(ScenarioLoaderTest, MissingFileIsAnError) {
  auto result = LoadScenarioFile("/nonexistent/x.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().Format(),
            "/nonexistent/x.yaml: error: cannot read scenario file: No such file or directory");
}

constexpr char kGood[] = R"yaml(name: good
tags: [a, b]
profile: greptime
rules: {fenced-reads: on}
cluster: {datanodes: 2, frontends: 3, placement: [dn2, 0]}
table: |
  CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
setup:
  - sql: "INSERT INTO t VALUES ('x', 1, 5)"
    frontend: fe3
  - flush: all
steps:
  - {at_ms: 2000, crash: dn1}
  - {at_ms: 2500, restart: dn1}
  - {at_ms: 3000, sql: "SELECT count(*) FROM t WHERE a > 3", frontend: 1}
  - {at_ms: 3100, partition: {a: [metasrv], b: [dn1, fe1], symmetric: false}}
  - {at_ms: 3200, heal: true}
  - {at_ms: 3300, stale_cache: 2}
workload:
  writers: 2
  readers: 1
  bulk: "1/3"
  columns: {a: {min: -5, max: 25, nulls: "1/10"}, h: {values: [p, q]}}
  queries: [point, range]
faults: {drop: "1/100", delay: "1/10", delay_ms_max: 50, crash: "1/1000", swarm: true,
         crash_sites: {datanode.flush.after_sst: "1/2"}}
limits: {steps_max: 5000, time_ms_max: 8000, liveness_ms: 20000, settle_ms: 5000}
seeds: "5..7"
expect: {reference: pass, greptime: {violation: INV-NOOMIT}}
)yaml";

TEST(ScenarioLoaderTest, GoodScenarioLoadsEveryField) {
  auto result = ParseScenario(kGood, "good.yaml");
  ASSERT_TRUE(result.ok()) << result.error().Format();
  const Scenario& s = result.value();
  EXPECT_EQ(s.name, "good");
  EXPECT_EQ(s.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.profile, "greptime");
  ASSERT_EQ(s.rules.size(), 1u);
  EXPECT_EQ(s.rules[0], std::make_pair(std::string("fenced-reads"), true));
  EXPECT_EQ(s.datanode_count, 2u);
  EXPECT_EQ(s.frontend_count, 3u);
  EXPECT_EQ(s.placement, (std::vector<uint32_t>{1, 0}));
  ASSERT_EQ(s.setup.size(), 3u);  // one insert, two flushes (one per region)
  const auto& insert = model::OpAs<model::InsertOp>(s.setup[0].op);
  EXPECT_EQ(insert.frontend_index, 2u);
  EXPECT_EQ(s.setup[0].at_ms, 1000);
  EXPECT_EQ(model::OpAs<model::FlushOp>(s.setup[1].op).node, model::NodeId{2});  // dn2
  ASSERT_EQ(s.steps.size(), 6u);
  EXPECT_EQ(model::OpAs<model::CrashNodeOp>(s.steps[0].op).node, model::NodeId{1});
  const auto& query = model::OpAs<model::QueryOp>(s.steps[2].op);
  EXPECT_TRUE(query.count_star);
  EXPECT_EQ(query.frontend_index, 1u);
  const auto& partition = model::OpAs<model::PartitionOp>(s.steps[3].op);
  EXPECT_EQ(partition.side_b, (std::vector<model::NodeId>{model::NodeId{1}, model::NodeId{3}}));
  EXPECT_FALSE(partition.symmetric);
  EXPECT_EQ(s.stale_frontends, std::vector<uint32_t>{2});
  EXPECT_EQ(s.workload.writers_per_frontend, 2u);
  EXPECT_EQ(s.workload.end_ms, 8000);
  EXPECT_EQ(s.workload.columns.at("a").min, -5);
  EXPECT_EQ(s.workload.columns.at("a").null, (sim::Ratio{1, 10}));
  EXPECT_EQ(s.faults.drop, (sim::Ratio{1, 100}));
  EXPECT_TRUE(s.faults.swarm);
  EXPECT_EQ(s.faults.crash_sites.at("datanode.flush.after_sst"), (sim::Ratio{1, 2}));
  EXPECT_EQ(s.limits.settle_ms, 5000);
  EXPECT_EQ(s.seed_first, 5u);
  EXPECT_EQ(s.seed_last, 7u);
  EXPECT_TRUE(s.ExpectationFor("reference")->pass);
  EXPECT_EQ(s.ExpectationFor("greptime")->invariant, "INV-NOOMIT");
}

constexpr char kWithRules[] = R"yaml(name: with-rules
rules: {fenced-reads: off}
cluster: {datanodes: 2, frontends: 2}
table: |
  CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
expect:
  reference: pass
  greptime: {violation: INV-ACK}
  with_rules:
    - {rules: {per-group-indices: off}, violation: INV-RULE, tolerate: [INV-LIVE]}
    - {profile: greptime, rules: {unified-null-routing: on, durable-staging: on}, violation: INV-LIVE,
       seeds: "12..14"}
    - {rules: {versioned-leases: off}, violation: INV-LIVE, tolerate: [INV-ACK], found_by: explore}
seeds: "0..19"
)yaml";

// expect.with_rules: each entry is keyed by the switches its run differs in from its profile
// (the scenario's own rules: included), as a run's report names them.
TEST(ScenarioLoaderTest, WithRulesExpectationsAreFoundByTheRunsOverrides) {
  auto result = ParseScenario(kWithRules, "with_rules.yaml");
  ASSERT_TRUE(result.ok()) << result.error().Format();
  const Scenario& s = result.value();
  ASSERT_EQ(s.rule_expect.size(), 3u);
  EXPECT_EQ(s.rule_expect[0].profile, "reference");
  EXPECT_EQ(s.rule_expect[0].overrides, "fenced-reads=off,per-group-indices=off");
  EXPECT_EQ(s.rule_expect[0].expectation.ToString(), "violation: INV-RULE (tolerates INV-LIVE)");
  EXPECT_EQ(s.rule_expect[1].profile, "greptime");
  EXPECT_EQ(s.rule_expect[1].overrides, "unified-null-routing=on,durable-staging=on");
  // An entry's own seeds (the bundled test checks it there), else none: the first three.
  EXPECT_EQ(s.rule_expect[0].seeds, std::nullopt);
  EXPECT_EQ(s.rule_expect[1].seeds, (std::pair<uint64_t, uint64_t>{12, 14}));
  // Found by explore: the entry keeps its violation (mutants and the bundled test judge the
  // explore's counterexample by it); a run or sweep only tolerates it.
  EXPECT_FALSE(s.rule_expect[1].by_explore);
  ASSERT_TRUE(s.rule_expect[2].by_explore);
  EXPECT_EQ(s.rule_expect[2].expectation.ToString(), "violation: INV-LIVE (tolerates INV-ACK)");
  const std::string leases = s.OverridesFor("reference", {{"versioned-leases", false}});
  EXPECT_EQ(s.ExpectationFor("reference", leases)->ToString(),
            "pass (tolerates INV-ACK, INV-LIVE)");
  EXPECT_EQ(s.OverridesFor("reference", {{"per-group-indices", false}}),
            "fenced-reads=off,per-group-indices=off");
  EXPECT_EQ(s.OverridesFor("reference", {{"no-such-rule", false}}), "");
  EXPECT_EQ(s.ExpectationFor("reference", "fenced-reads=off,per-group-indices=off")->invariant,
            "INV-RULE");
  EXPECT_EQ(s.ExpectationFor("greptime", "unified-null-routing=on,durable-staging=on")->invariant,
            "INV-LIVE");
  // Any other set of overrides falls back to the profile's own expectation.
  EXPECT_TRUE(s.ExpectationFor("reference", "fenced-reads=off")->pass);
  EXPECT_EQ(s.ExpectationFor("greptime", "durable-staging=on")->invariant, "INV-ACK");
  EXPECT_EQ(s.RuleExpectationFor("reference", "per-group-indices=off"), nullptr);
  EXPECT_EQ(s.RuleExpectationFor("greptime", ""), nullptr);
}

constexpr char kFaultSteps[] = R"yaml(name: faults
cluster: {datanodes: 2, frontends: 2}
table: |
  CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
steps:
  - {at_ms: 100, drop: {kind: InvalidateCache, to: fe2, count: all}}
  - {at_ms: 200, delay: {kind: WriteRequest, from: fe1, to: dn2, ms: 250, count: 3}}
  - {at_ms: 300, duplicate: {kind: EnterStaging}}
  - after: RepartitionGroup.EnterStagingRegion
    hold: {kind: RouteReply, to: fe1, until: Repartition.RepartitionEnd}
  - {after: Repartition.Dispatch, delay_ms: 40, occurrence: 2,
     reorder: {kind: RouteReply, from: metasrv, count: 2}}
  - {after: CreateTable.Prepare, expire_lease: dn2}
  - {at_ms: 400, expire_lease: dn1}
expect: {reference: pass}
)yaml";

const model::MessageRule& RuleOf(const ScriptedStep& step) {
  return model::OpAs<model::MessageRuleOp>(step.op).rule;
}

TEST(ScenarioLoaderTest, FaultStepsLoadIntoRulesArmedStepsAndLeaseExpiry) {
  auto result = ParseScenario(kFaultSteps, "faults.yaml");
  ASSERT_TRUE(result.ok()) << result.error().Format();
  const std::vector<ScriptedStep>& steps = result.value().steps;
  ASSERT_EQ(steps.size(), 7u);
  const model::NodeId dn1{1}, dn2{2}, fe1{3}, fe2{4}, metasrv{0};

  EXPECT_EQ(steps[0].at_ms, 100);
  EXPECT_EQ(steps[0].after_state, "");
  EXPECT_EQ(steps[0].occurrence, 1u);
  EXPECT_EQ(steps[0].location.line, 7u);
  EXPECT_EQ(steps[0].location.column, 5u);
  const model::MessageRule& drop = RuleOf(steps[0]);
  EXPECT_EQ(drop.action, model::MessageAction::kDrop);
  EXPECT_EQ(drop.kind, "InvalidateCache");
  EXPECT_EQ(drop.from, std::nullopt);
  EXPECT_EQ(drop.to, fe2);
  EXPECT_EQ(drop.count, 0u);  // all
  EXPECT_EQ(drop.delay, sim::Ms(0));
  EXPECT_EQ(drop.until_state, "");

  const model::MessageRule& delay = RuleOf(steps[1]);
  EXPECT_EQ(steps[1].at_ms, 200);
  EXPECT_EQ(delay.action, model::MessageAction::kDelay);
  EXPECT_EQ(delay.kind, "WriteRequest");
  EXPECT_EQ(delay.from, fe1);
  EXPECT_EQ(delay.to, dn2);
  EXPECT_EQ(delay.count, 3u);
  EXPECT_EQ(delay.delay, sim::Ms(250));

  const model::MessageRule& duplicate = RuleOf(steps[2]);
  EXPECT_EQ(duplicate.action, model::MessageAction::kDuplicate);
  EXPECT_EQ(duplicate.kind, "EnterStaging");
  EXPECT_EQ(duplicate.from, std::nullopt);
  EXPECT_EQ(duplicate.to, std::nullopt);
  EXPECT_EQ(duplicate.count, 1u);

  EXPECT_EQ(steps[3].after_state, "RepartitionGroup.EnterStagingRegion");
  EXPECT_EQ(steps[3].at_ms, 0);  // no delay_ms
  EXPECT_EQ(steps[3].occurrence, 1u);
  const model::MessageRule& hold = RuleOf(steps[3]);
  EXPECT_EQ(hold.action, model::MessageAction::kHold);
  EXPECT_EQ(hold.kind, "RouteReply");
  EXPECT_EQ(hold.to, fe1);
  EXPECT_EQ(hold.until_state, "Repartition.RepartitionEnd");

  EXPECT_EQ(steps[4].after_state, "Repartition.Dispatch");
  EXPECT_EQ(steps[4].at_ms, 40);  // delay_ms: the offset after the pass
  EXPECT_EQ(steps[4].occurrence, 2u);
  const model::MessageRule& reorder = RuleOf(steps[4]);
  EXPECT_EQ(reorder.action, model::MessageAction::kReorder);
  EXPECT_EQ(reorder.kind, "RouteReply");
  EXPECT_EQ(reorder.from, metasrv);
  EXPECT_EQ(reorder.to, std::nullopt);
  EXPECT_EQ(reorder.count, 2u);

  EXPECT_EQ(steps[5].after_state, "CreateTable.Prepare");
  EXPECT_EQ(model::OpAs<model::ExpireLeaseOp>(steps[5].op).node, dn2);
  EXPECT_EQ(steps[6].at_ms, 400);
  EXPECT_EQ(steps[6].after_state, "");
  EXPECT_EQ(model::OpAs<model::ExpireLeaseOp>(steps[6].op).node, dn1);
}

TEST(ScenarioLoaderTest, ReplayCompactionAndCheckpointFaultsLoad) {
  auto result = ParseScenario(R"yaml(name: replay
cluster: {datanodes: 2, frontends: 2}
table: |
  CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
faults: {replay_fail: 1/4, compact: 1/3, checkpoint_race: 1/2, gc: 1/5}
steps:
  - {at_ms: 100, restart: dn2, replay_fail: 3}
  - {at_ms: 200, restart: dn1}
expect: {reference: pass}
)yaml",
                              "replay.yaml");
  ASSERT_TRUE(result.ok()) << result.error().Format();
  EXPECT_EQ(result.value().faults.replay_fail, (sim::Ratio{1, 4}));
  EXPECT_EQ(result.value().faults.compact, (sim::Ratio{1, 3}));
  EXPECT_EQ(result.value().faults.checkpoint_race, (sim::Ratio{1, 2}));
  EXPECT_EQ(result.value().faults.gc, (sim::Ratio{1, 5}));
  const std::vector<ScriptedStep>& steps = result.value().steps;
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(model::OpAs<model::RestartNodeOp>(steps[0].op).node, model::NodeId{2});
  EXPECT_EQ(model::OpAs<model::RestartNodeOp>(steps[0].op).replay_failures, 3u);
  EXPECT_EQ(model::OpAs<model::RestartNodeOp>(steps[1].op).replay_failures, 0u);
}

// The cluster and table of the step-parsing tests: two regions, on dn2 and dn1.
constexpr char kTwoRegions[] = R"yaml(
cluster: {datanodes: 2, frontends: 1, placement: [dn2, dn1]}
table: |
  CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
)yaml";

TEST(ScenarioLoaderTest, CompactStepsNameARegionOrEveryOpenRegion) {
  auto result = ParseScenario(std::string("name: compact") + kTwoRegions + R"yaml(steps:
  - {at_ms: 100, compact: all}
  - {at_ms: 200, compact: {region: 1}}
  - {at_ms: 300, compact: {region: 0, node: dn1}}
  - {at_ms: 400, gc: true}
expect: {reference: pass}
)yaml",
                              "compact.yaml");
  ASSERT_TRUE(result.ok()) << result.error().Format();
  const std::vector<ScriptedStep>& steps = result.value().steps;
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_TRUE(std::holds_alternative<model::GcOp>(std::get<model::FaultAction>(steps[3].op)));
  const auto& all = model::OpAs<model::CompactOp>(steps[0].op);
  EXPECT_TRUE(all.every_region);
  const auto& one = model::OpAs<model::CompactOp>(steps[1].op);
  EXPECT_FALSE(one.every_region);
  EXPECT_EQ(one.node, model::NodeId{1});  // region 1's initial leader
  EXPECT_EQ(one.region, model::RegionId::Of(result.value().table_id(), model::RegionNumber{1}));
  const auto& placed = model::OpAs<model::CompactOp>(steps[2].op);
  EXPECT_EQ(placed.node, model::NodeId{1});
  EXPECT_EQ(placed.region, model::RegionId::Of(result.value().table_id(), model::RegionNumber{0}));
  EXPECT_EQ(steps[2].at_ms, 300);
}

TEST(ScenarioLoaderTest, FlushStepsNameTheInitialRegionsEveryWritableRegionOrOne) {
  auto result = ParseScenario(std::string("name: flush") + kTwoRegions + R"yaml(steps:
  - {at_ms: 100, flush: all}
  - {at_ms: 200, flush: writable}
  - {at_ms: 300, flush: {region: 1}}
expect: {reference: pass}
)yaml",
                              "flush.yaml");
  ASSERT_TRUE(result.ok()) << result.error().Format();
  const std::vector<ScriptedStep>& steps = result.value().steps;
  ASSERT_EQ(steps.size(), 4u);
  const model::TableId table = result.value().table_id();
  // `all`: one flush per initial region, at its initial leader.
  const auto& first = model::OpAs<model::FlushOp>(steps[0].op);
  const auto& second = model::OpAs<model::FlushOp>(steps[1].op);
  EXPECT_FALSE(first.every_region);
  EXPECT_EQ(first.node, model::NodeId{2});
  EXPECT_EQ(first.region, model::RegionId::Of(table, model::RegionNumber{0}));
  EXPECT_EQ(second.node, model::NodeId{1});
  EXPECT_EQ(second.region, model::RegionId::Of(table, model::RegionNumber{1}));
  EXPECT_TRUE(model::OpAs<model::FlushOp>(steps[2].op).every_region);
  EXPECT_EQ(steps[2].at_ms, 200);
  const auto& one = model::OpAs<model::FlushOp>(steps[3].op);
  EXPECT_FALSE(one.every_region);
  EXPECT_EQ(one.node, model::NodeId{1});
  EXPECT_EQ(one.region, model::RegionId::Of(table, model::RegionNumber{1}));
}

TEST(ScenarioLoaderTest, ClusterGcIsOnUnlessTurnedOffAndCheckpointsAreEveryTenVersions) {
  const std::string table = R"yaml(
table: "CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h)) PARTITION ON COLUMNS (a) (a < 10, a >= 10)"
expect: {reference: pass}
)yaml";
  auto on = ParseScenario("name: on\ncluster: {datanodes: 2}" + table, "on.yaml");
  ASSERT_TRUE(on.ok()) << on.error().Format();
  EXPECT_TRUE(on.value().gc_enabled);
  EXPECT_EQ(on.value().checkpoint_distance, 10u);  // GreptimeDB's default
  EXPECT_EQ(on.value().gc_lingering_ms, 3'600'000);
  EXPECT_EQ(on.value().gc_interval_ms, 0);
  EXPECT_FALSE(on.value().init_regions_in_background);  // GreptimeDB's default
  EXPECT_EQ(on.value().region_open_ms, 500);
  auto off = ParseScenario(
      "name: off\ncluster: {datanodes: 2, gc: false, checkpoint_distance: 0}" + table, "off.yaml");
  ASSERT_TRUE(off.ok()) << off.error().Format();
  EXPECT_FALSE(off.value().gc_enabled);
  EXPECT_EQ(off.value().checkpoint_distance, 0u);
  auto background = ParseScenario(
      "name: bg\ncluster: {init_regions_in_background: true, region_open_ms: 3000}" + table,
      "bg.yaml");
  ASSERT_TRUE(background.ok()) << background.error().Format();
  EXPECT_TRUE(background.value().init_regions_in_background);
  EXPECT_EQ(background.value().region_open_ms, 3000);
  auto bad = ParseScenario("name: bad\ncluster: {gc: maybe}" + table, "bad.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().Format().rfind("bad.yaml:2:", 0), 0u) << bad.error().Format();
}

TEST(ScenarioLoaderTest, SqlErrorInsideQuotedStepIsRelocatedToTheYamlColumn) {
  std::string text = kGood;
  text.replace(text.find("SELECT count(*) FROM t WHERE a > 3"), 34, "SELECT * FROM t WHERE a >");
  auto result = ParseScenario(text, "q.yaml");
  ASSERT_FALSE(result.ok());
  // `  - {at_ms: 3000, sql: "` puts the SQL's first character (column 1) at column 25.
  auto direct = model::sql::ParseStatements("SELECT * FROM t WHERE a >", "sql");
  ASSERT_FALSE(direct.ok());
  EXPECT_EQ(result.error().location.line, 16u);
  EXPECT_EQ(result.error().location.column, 24u + direct.error().location.column);
  EXPECT_EQ(result.error().location.file, "q.yaml");
  EXPECT_NE(result.error().message.find("(at steps[2].sql)"), std::string::npos);
}

}  // namespace loader_test
}  // namespace
}  // namespace repartsim::scenario
