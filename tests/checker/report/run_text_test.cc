// Goal: the run report a person reads and its JSON (checker/report/run_text.h): a failing run's
// text leads with the header and summary, shows at most `violations_max` violations and counts
// the rest by invariant, and ends with the totals; its JSON carries the expectation, the choice
// file and the repro; the identity read back from that JSON names the same run, and a report
// without one of its fields is refused at that field.
// Method: one bundled scenario run under greptime, where it fails with several violations.
#include "checker/report/run_text.h"

#include <gtest/gtest.h>

#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::report {
namespace {
namespace run_text_test {

struct Failing {
  scenario::Scenario scenario;
  run::RunReport report;
};

Failing FailingRun() {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/stale_cache/stale_frontend_during_split.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.seed = 1;
  config.profile = "greptime";
  config.rules = {{"fenced-reads", false}};
  auto run = run::RunScenario(s.value(), config);
  EXPECT_TRUE(run.ok());
  return {std::move(s).value(), std::move(run).value()};
}

TEST(RunTextTest, TextShowsTheFirstViolationsAndCountsTheRest) {
  const Failing f = FailingRun();
  ASSERT_GT(f.report.violations.size(), 2u);
  const std::string text = RunReportText(f.scenario, f.report, 2);
  EXPECT_EQ(text.rfind("scenario stale-frontend-during-split (" + f.scenario.path +
                           ") profile=greptime rules=-",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("\n" + f.report.SummaryLine() + "\n"), std::string::npos);
  EXPECT_NE(text.find("expect (greptime): "), std::string::npos);
  EXPECT_NE(
      text.find("... and " + std::to_string(f.report.violations.size() - 2) + " more violations: "),
      std::string::npos);
  EXPECT_EQ(text.substr(text.rfind("violations: "), 12), "violations: ");
}

TEST(RunTextTest, JsonNamesTheRunAndItsIdentityReadsBack) {
  const Failing f = FailingRun();
  const nlohmann::json j = RunReportJson(f.scenario, f.report, "x.choices", "repartsim run x");
  EXPECT_EQ(j["choices"], "x.choices");
  EXPECT_EQ(j["repro"], "repartsim run x");
  EXPECT_EQ(j["expect_met"], f.report.Meets(*f.scenario.ExpectationFor("greptime")));
  auto id = ReadRunIdentity(j.dump(2), "run.json");
  ASSERT_TRUE(id.ok()) << id.error().Format();
  EXPECT_EQ(id.value().path, f.scenario.path);
  EXPECT_EQ(id.value().profile, "greptime");
  EXPECT_EQ(id.value().seed, 1u);
  EXPECT_EQ(id.value().trace_hash, sim::Hex64(f.report.summary.trace_hash));

  nlohmann::json bad = j;
  bad["summary"]["seed"] = -1;
  auto refused = ReadRunIdentity(bad.dump(2), "run.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().location.file, "run.json");
  EXPECT_GT(refused.error().location.line, 1u);
  EXPECT_NE(refused.error().message.find("summary.seed: expected a non-negative integer seed"),
            std::string::npos);
  auto not_json = ReadRunIdentity("{\n  \"path\": ", "run.json");
  ASSERT_FALSE(not_json.ok());
  EXPECT_EQ(not_json.error().location.line, 2u);
  // Issue 54 (R3): a number beyond double range is refused, located, not an abort.
  auto overflow = ReadRunIdentity("{\n  \"path\": 1e999}", "run.json");
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.error().Format(),
            "run.json:2:11: error: not valid JSON: [json.exception.out_of_range.406] number "
            "overflow parsing '1e999'");
}

}  // namespace run_text_test
}  // namespace
}  // namespace repartsim::report
