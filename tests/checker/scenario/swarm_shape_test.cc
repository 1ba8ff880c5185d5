// Goal: swarm shapes (checker/scenario/swarm_shape.h) are drawn from the seed alone (the same
// seed gives the same features and YAML, other seeds others), every value drawn is a listed
// value, every listed value of every feature is drawn within 400 seeds (no dead option),
// every drawn scenario loads, keeps the file's identity and expectations, a file's
// shape_only narrows the draws, rows drawn as moved go where the DDL moves values, and the
// run records its shape in the header and the JSON.
// Method: DrawShapedScenario over seeds 0..399 of scenarios/random/swarm_shapes.yaml and
// 0..199 of swarm_merges.yaml; DrawSwarmShape until five merge shapes with moved rows; one
// run.
#include "checker/scenario/swarm_shape.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "checker/report/run_text.h"
#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {

Scenario Base() {
  auto s =
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/random/swarm_shapes.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  EXPECT_TRUE(s.value().shape_swarm);
  return s.value();
}

TEST(SwarmShapeTest, TheSeedAloneDecidesTheShape) {
  const Scenario base = Base();
  ShapeFeatures a, b, c;
  std::string ya, yb, yc;
  ASSERT_TRUE(DrawShapedScenario(base, 7, &a, &ya).ok());
  ASSERT_TRUE(DrawShapedScenario(base, 7, &b, &yb).ok());
  ASSERT_TRUE(DrawShapedScenario(base, 8, &c, &yc).ok());
  EXPECT_EQ(a, b);
  EXPECT_EQ(ya, yb);
  EXPECT_NE(ya, yc);
  EXPECT_EQ(a.size(), SwarmFeatureValues().size());
}

TEST(SwarmShapeTest, EveryValueIsDrawnAndEveryShapeLoads) {
  const Scenario base = Base();
  std::map<std::string, std::set<std::string>> drawn;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    ShapeFeatures features;
    auto s = DrawShapedScenario(base, seed, &features);
    ASSERT_TRUE(s.ok()) << seed << ": " << s.error().Format();
    EXPECT_EQ(s.value().name, base.name);
    EXPECT_EQ(s.value().path, base.path);
    EXPECT_EQ(s.value().ExpectationFor("greptime")->tolerate,
              base.ExpectationFor("greptime")->tolerate);
    for (const auto& [name, value] : features) drawn[name].insert(value);
  }
  for (const auto& [name, values] : SwarmFeatureValues()) {
    EXPECT_EQ(drawn[name], std::set<std::string>(values.begin(), values.end())) << name;
  }
}

// swarm_merges.yaml narrows rule, ddl1 and invalidation by shape_only and pins crash and net:
// every seed draws listed values, both ddl1 values occur, and the drawn YAML has the merge
// and the dropped or held invalidations.
TEST(SwarmShapeTest, ShapeOnlyNarrowsTheDraws) {
  auto merges =
      LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/random/swarm_merges.yaml");
  ASSERT_TRUE(merges.ok()) << merges.error().Format();
  const Scenario base = merges.value();
  ASSERT_EQ(base.shape_only.at("ddl1"), (std::vector<std::string>{"merge", "merge_all"}));
  std::set<std::string> ddl1;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    ShapeFeatures features;
    std::string yaml;
    auto s = DrawShapedScenario(base, seed, &features, &yaml);
    ASSERT_TRUE(s.ok()) << seed << ": " << s.error().Format();
    EXPECT_EQ(s.value().shape_only, base.shape_only);
    std::map<std::string, std::string> f(features.begin(), features.end());
    ddl1.insert(f.at("ddl1"));
    EXPECT_TRUE(f.at("rule") == "ranges3" || f.at("rule") == "ranges4") << seed;
    EXPECT_TRUE(f.at("invalidation") == "drop" || f.at("invalidation") == "hold") << seed;
    EXPECT_EQ(f.at("crash"), "none") << seed;
    EXPECT_EQ(f.at("net"), "none") << seed;
    EXPECT_NE(yaml.find(f.at("ddl1") == "merge" ? "MERGE PARTITION" : "REPARTITION ("),
              std::string::npos)
        << seed;
    EXPECT_NE(yaml.find("kind: InvalidateCache, to: fe2"), std::string::npos) << seed;
  }
  EXPECT_EQ(ddl1, (std::set<std::string>{"merge", "merge_all"}));
}

// A listed value the shape does not allow at that point (PARTITION ON COLUMNS of a table that
// is already partitioned) leaves the feature to draw among those it allows.
TEST(SwarmShapeTest, ARestrictionTheShapeCannotMeetDrawsAmongWhatItAllows) {
  std::set<std::string> ddl1;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    sim::Prng prng(seed);
    const DrawnShape shape =
        DrawSwarmShape(prng, {{"rule", {"ranges3"}}, {"ddl1", {"partition_on"}}});
    std::map<std::string, std::string> f(shape.features.begin(), shape.features.end());
    EXPECT_EQ(f.at("rule"), "ranges3");
    ddl1.insert(f.at("ddl1"));
  }
  EXPECT_EQ(ddl1, (std::set<std::string>{"split", "split_adjacent", "merge_all", "on_columns",
                                         "bad_split", "merge", "repartition_groups"}));
}

// write_rows=moved puts the frontend's rows among the values the DDL moves: after a merge,
// the merged-away region's; fe2_workload=no runs the workload on fe1 alone.
TEST(SwarmShapeTest, MovedRowsLandInTheMergedAwayRange) {
  size_t checked = 0;
  for (uint64_t seed = 0; seed < 20000 && checked < 5; ++seed) {
    sim::Prng draw_prng(seed);
    const DrawnShape shape = DrawSwarmShape(draw_prng);
    std::map<std::string, std::string> f(shape.features.begin(), shape.features.end());
    if (f.at("rule") != "ranges3" || f.at("ddl1") != "merge" || f.at("write_rows") != "moved" ||
        f.at("late_write") != "row" || f.at("fe2_workload") != "no") {
      continue;
    }
    EXPECT_NE(shape.yaml.find("  frontends: 1\n"), std::string::npos);
    // ranges3 is a < 10, 10..20, a >= 20: the merge drops 10..20 or a >= 20.
    const bool first =
        shape.yaml.find("MERGE PARTITION (a < 10, a >= 10 AND a < 20)") != std::string::npos;
    const std::string rows =
        first ? "('h1', 80, 80, 11), ('h2', 81, 81, 18)" : "('h1', 80, 80, 21), ('h2', 81, 81, 28)";
    EXPECT_NE(shape.yaml.find("frontend: fe2, sql: \"INSERT INTO t VALUES " + rows),
              std::string::npos)
        << shape.yaml;
    ++checked;
  }
  EXPECT_EQ(checked, 5u);
}

TEST(SwarmShapeTest, TheRunRecordsItsShape) {
  const Scenario base = Base();
  run::RunConfig config;
  config.seed = 3;
  auto r = run::RunScenario(base, config);
  ASSERT_TRUE(r.ok());
  ShapeFeatures features;
  ASSERT_TRUE(DrawShapedScenario(base, 3, &features).ok());
  EXPECT_EQ(r.value().shape, features);
  const nlohmann::json j = r.value().ToJson();
  EXPECT_EQ(j.at("shape").at("rule"), features[1].second);
  EXPECT_NE(
      report::RunReportText(base, r.value(), 10).find("\nshape: " + ShapeText(features) + "\n"),
      std::string::npos);
}

}  // namespace
}  // namespace repartsim::scenario
