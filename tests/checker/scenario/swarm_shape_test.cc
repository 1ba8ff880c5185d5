// Goal: swarm shapes (checker/scenario/swarm_shape.h) are drawn from the seed alone (the same
// seed gives the same features and YAML, other seeds others), every value drawn is a listed
// value, every listed value of every feature is drawn within 400 seeds (no dead option),
// every drawn scenario loads, keeps the file's identity and expectations, rows drawn as
// moved go where the DDL moves values, and the run records its shape in the header and the
// JSON.
// Method: DrawShapedScenario over seeds 0..399 of scenarios/random/swarm_shapes.yaml;
// DrawSwarmShape until five merge shapes with moved rows; one run.
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
