// Goal: the sweep report's verdicts (checker/campaign/sweep_report.h) and its text and JUnit
// renderings (sweep_text.h) are honest (issue 18 items 1, 2, 3, 9, 11, 12; issue 19
// item 3): rows keyed by (path, profile, rules); unexpected invariants fail a row even when
// the expected one is reproduced; READ-ANOMALY and tolerated invariants do not; an expected
// violation a shard does not hold is left to merge; skipped and unrun runs are reported as
// such; failure signatures fold wording; repro commands carry every rule override; the
// summary ends with a totals line; FromJson refuses a bad report with a located error.
// Method: build SweepReports by hand, aggregate, and assert exact fields and text.
#include "checker/campaign/sweep_report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "checker/report/sweep_text.h"

namespace repartsim::campaign {
namespace {
namespace sweep_report_test {

SweepScenario Row(const std::string& expect, std::vector<std::string> tolerate = {},
                  const std::string& profile = "greptime", const std::string& rules = "") {
  return SweepScenario{"s.yaml", "scenario-a", profile, rules, "0x1", expect, std::move(tolerate)};
}

SweepRun MakeRun(uint64_t seed, const std::string& outcome, std::vector<std::string> invariants,
                 const std::string& profile = "greptime", const std::string& rules = "") {
  SweepRun run;
  run.path = "s.yaml";
  run.profile = profile;
  run.rules = rules;
  run.seed = seed;
  run.outcome = outcome;
  run.steps = 100 + seed;
  run.trace_hash = "0x0000000000000000";
  run.invariants = invariants;
  for (const std::string& inv : invariants)
    run.failures.push_back({inv, inv + " sig", inv + " msg"});
  return run;
}

SweepReport Report(std::vector<SweepScenario> rows, std::vector<SweepRun> runs) {
  SweepReport r;
  r.binary_version = "0.1.0";
  r.binary_id = "0xb";
  r.seeds = "0..3";
  r.scenarios = std::move(rows);
  r.runs = std::move(runs);
  r.sweep_id = r.SweepId();
  r.Aggregate();
  return r;
}

std::string Summary(const SweepReport& r) { return report::SweepSummaryText(r, /*verbose=*/true); }

TEST(ReportSweepTest, UnexpectedInvariantFailsARowThatReproducedItsExpectation) {
  // Before: 'ok (reproduced INV-ACK)' and exit 0 although INV-NOOMIT was never expected.
  SweepReport r =
      Report({Row("violation: INV-ACK")},
             {MakeRun(0, "safety", {"INV-ACK"}), MakeRun(1, "safety", {"INV-ACK", "INV-NOOMIT"})});
  const ScenarioTally& t = r.tallies.at(r.scenarios[0].Key());
  EXPECT_FALSE(t.met);
  EXPECT_EQ(t.verdict, "UNEXPECTED INV-NOOMIT");
  EXPECT_EQ(t.unexpected, 1u);
  EXPECT_EQ(r.ExitCode(), 1);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[0].status, "UNEXPECTED");  // unexpected groups first
  EXPECT_EQ(r.groups[0].invariant, "INV-NOOMIT");
  EXPECT_EQ(r.groups[1].status, "expected");
  EXPECT_NE(report::SweepJunit(r).find("failures=\"1\""), std::string::npos);
}

// Before issue 53 a JUnit test case had no `time`: it is the wall time of the row's runs summed
// (other rows' runs not counted).
TEST(ReportSweepTest, JunitTestCaseTimeIsTheRowsRunsWallTime) {
  SweepRun a = MakeRun(0, "pass", {});
  SweepRun b = MakeRun(1, "pass", {});
  SweepRun other = MakeRun(0, "pass", {}, "reference");
  a.wall_ms = 1250;
  b.wall_ms = 500;
  other.wall_ms = 7000;
  SweepReport r = Report({Row("pass"), Row("pass", {}, "reference")}, {a, b, other});
  const std::string junit = report::SweepJunit(r);
  EXPECT_NE(junit.find(
                "<testcase classname=\"greptime\" name=\"scenario-a (s.yaml)\" time=\"1.750000\">"),
            std::string::npos)
      << junit;
  EXPECT_NE(
      junit.find(
          "<testcase classname=\"reference\" name=\"scenario-a (s.yaml)\" time=\"7.000000\">"),
      std::string::npos)
      << junit;
}

TEST(ReportSweepTest, ToleratedInvariantsAndReadAnomaliesDoNotFail) {
  SweepReport r = Report({Row("violation: INV-ACK", {"INV-LIVE"})},
                         {MakeRun(0, "safety", {"INV-ACK", "INV-LIVE", "READ-ANOMALY"}),
                          MakeRun(1, "pass", {"READ-ANOMALY"})});
  const ScenarioTally& t = r.tallies.at(r.scenarios[0].Key());
  EXPECT_TRUE(t.met) << t.verdict;
  EXPECT_EQ(t.verdict, "ok (reproduced INV-ACK)");
  EXPECT_EQ(t.anomalies, 2u);
  EXPECT_EQ(t.liveness, 1u);  // counted although the run also had a safety violation
  EXPECT_EQ(r.ExitCode(), 0);
  for (const SweepGroup& g : r.groups) {
    EXPECT_NE(g.status, "UNEXPECTED") << g.invariant;
    if (g.invariant == "READ-ANOMALY" || g.invariant == "INV-LIVE") {
      EXPECT_EQ(g.status, "tolerated");
    }
  }
}

// A capped run (steps_max before the liveness phase ended) is counted apart: the row is met,
// the totals line and the JSON count it, and JUnit marks the row skipped with a message.
TEST(ReportSweepTest, CappedRunsAreCountedApartAndFailNoRow) {
  SweepReport r = Report({Row("pass")}, {MakeRun(0, "pass", {}), MakeRun(1, "capped", {})});
  const ScenarioTally& t = r.tallies.at(r.scenarios[0].Key());
  EXPECT_TRUE(t.met);
  EXPECT_EQ(t.runs, 2u);
  EXPECT_EQ(t.capped, 1u);
  EXPECT_EQ(t.verdict, "ok (1 runs capped)");
  EXPECT_EQ(r.ExitCode(), 0);
  EXPECT_EQ(r.ToJson().at("scenarios")[0].at("capped"), 1);
  EXPECT_NE(Summary(r).find("2 runs, 0 with unexpected invariants, 1 capped, 0 skipped"),
            std::string::npos)
      << Summary(r);
  const std::string junit = report::SweepJunit(r);
  EXPECT_NE(junit.find("skipped=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<skipped message=\"1 of 2 runs capped at limits.steps_max"),
            std::string::npos)
      << junit;
}

TEST(ReportSweepTest, OnlyUnexpectedLivenessExitsTwo) {
  SweepReport r = Report({Row("pass")}, {MakeRun(0, "liveness", {"INV-LIVE"})});
  EXPECT_EQ(r.tallies.at(r.scenarios[0].Key()).verdict, "UNEXPECTED INV-LIVE");
  EXPECT_EQ(r.ExitCode(), 2);
}

TEST(ReportSweepTest, RawFailsOnEveryInvariantButReadAnomaly) {
  SweepReport r;
  r.raw = true;
  r.scenarios = {Row("violation: INV-ACK")};
  r.runs = {MakeRun(0, "safety", {"INV-ACK", "READ-ANOMALY"})};
  r.Aggregate();
  EXPECT_EQ(r.tallies.at(r.scenarios[0].Key()).verdict, "UNEXPECTED INV-ACK");
}

TEST(ReportSweepTest, AShardLeavesAnUnreproducedExpectationToMerge) {
  SweepReport r;
  r.shard = "1/2";
  r.complete = false;
  r.scenarios = {Row("violation: INV-ACK")};
  r.runs = {MakeRun(1, "pass", {})};
  r.Aggregate();
  EXPECT_TRUE(r.tallies.at(r.scenarios[0].Key()).met);
  EXPECT_EQ(r.tallies.at(r.scenarios[0].Key()).verdict, "INV-ACK not in this shard (merge judges)");
  r.complete = true;
  r.Aggregate();
  EXPECT_EQ(r.tallies.at(r.scenarios[0].Key()).verdict, "NOT REPRODUCED INV-ACK");
  EXPECT_EQ(r.ExitCode(), 1);
}

TEST(ReportSweepTest, RowsAreKeyedByProfileAndRules) {
  SweepReport r = Report({Row("pass", {}, "greptime"), Row("pass", {}, "reference"),
                          Row("pass", {}, "reference", "fenced-reads=off")},
                         {MakeRun(0, "pass", {}, "greptime"), MakeRun(0, "pass", {}, "reference"),
                          MakeRun(0, "safety", {"INV-NOOMIT"}, "reference", "fenced-reads=off")});
  EXPECT_EQ(r.tallies.size(), 3u);
  EXPECT_TRUE(r.tallies.at(r.scenarios[0].Key()).met);
  EXPECT_TRUE(r.tallies.at(r.scenarios[1].Key()).met);
  EXPECT_FALSE(r.tallies.at(r.scenarios[2].Key()).met);
  ASSERT_EQ(r.groups.size(), 1u);
  const std::string summary = Summary(r);
  // The repro command carries the rule override (before: dropped, and the repro passed).
  EXPECT_NE(
      summary.find("repartsim run s.yaml --seed 0 --profile reference --rule fenced-reads=off"),
      std::string::npos)
      << summary;
  EXPECT_NE(
      report::SweepJunit(r).find("replay: repartsim run s.yaml --seed 0 --profile reference --rule "
                                 "fenced-reads=off"),
      std::string::npos);
  EXPECT_EQ(r.ToJson()["groups"][0]["repro"],
            "repartsim run s.yaml --seed 0 --profile reference --rule fenced-reads=off");
}

TEST(ReportSweepTest, ReproCommandListsEveryRule) {
  EXPECT_EQ(ReproCommand("a.yaml", 7, "greptime", "x=off,y=on"),
            "repartsim run a.yaml --seed 7 --profile greptime --rule x=off --rule y=on");
}

TEST(ReportSweepTest, SkippedAndUnrunRunsAreReportedAsSuch) {
  SweepReport r = Report({Row("pass")}, {MakeRun(0, "skipped", {}), MakeRun(1, "skipped", {})});
  EXPECT_EQ(r.tallies.at(r.scenarios[0].Key()).verdict, "skipped (2 runs)");
  const std::string junit = report::SweepJunit(r);
  EXPECT_NE(junit.find("<skipped message=\"skipped (2 runs)\"/>"), std::string::npos) << junit;
  EXPECT_NE(junit.find("skipped=\"1\""), std::string::npos);
  EXPECT_NE(Summary(r).find("== 0 passed, 0 failed, 1 skipped (scenario rows); 0 runs"),
            std::string::npos);

  SweepReport dead = Report({Row("pass")}, {MakeRun(0, "pass", {}), MakeRun(1, "unrun", {})});
  EXPECT_EQ(dead.tallies.at(dead.scenarios[0].Key()).verdict,
            "UNRUN 1 runs (the sweep was interrupted or a worker died)");
  EXPECT_EQ(dead.ExitCode(), 70);
}

TEST(ReportSweepTest, SummaryFitsLongNamesAndEndsWithTotals) {
  SweepScenario row = Row("pass");
  row.name = "a-very-long-scenario-name-that-overflowed-the-old-column";
  SweepReport r = Report({row}, {MakeRun(0, "pass", {}), MakeRun(1, "pass", {})});
  r.wall_ms = 2500;
  const std::string summary = Summary(r);
  EXPECT_NE(summary.find(row.name + " greptime  pass"), std::string::npos) << summary;
  EXPECT_NE(summary.find("== 1 passed, 0 failed, 0 skipped (scenario rows); 2 runs, 0 with "
                         "unexpected invariants, 0 capped, 0 skipped, 0 unrun; 2.5 s =="),
            std::string::npos)
      << summary;
}

TEST(ReportSweepTest, AGreenSummaryCountsExpectedGroupsInsteadOfListingThem) {
  // Before: every met row and every expected or tolerated group was printed (about 310 lines
  // for the bundled library on a green run).
  SweepScenario pass_row = Row("pass", {}, "greptime");
  pass_row.path = "p.yaml";
  pass_row.name = "scenario-p";
  SweepRun pass_run = MakeRun(0, "pass", {});
  pass_run.path = "p.yaml";
  SweepReport green =
      Report({Row("violation: INV-ACK", {"INV-NODUP"}), pass_row},
             {MakeRun(0, "safety", {"INV-ACK", "INV-NODUP"}), MakeRun(1, "pass", {}), pass_run});
  ASSERT_EQ(green.ExitCode(), 0);
  ASSERT_EQ(green.groups.size(), 2u);
  const std::string quiet = report::SweepSummaryText(green, /*verbose=*/false);
  EXPECT_EQ(quiet.find("scenario-a"), std::string::npos) << quiet;
  EXPECT_EQ(quiet.find("[expected]"), std::string::npos) << quiet;
  EXPECT_EQ(
      quiet.rfind("2 of 2 scenario rows met their expectations; 1 expected and 1 tolerated failure "
                  "groups (--verbose lists every row and group)\n"
                  "determinism re-check: 0 runs, 0 mismatches\n",
                  0),
      0u)
      << quiet;
  const std::string verbose = report::SweepSummaryText(green, /*verbose=*/true);
  EXPECT_NE(verbose.find("[expected] scenario-a INV-ACK x1"), std::string::npos) << verbose;
  EXPECT_NE(verbose.find("[tolerated] scenario-a INV-NODUP x1"), std::string::npos) << verbose;
  EXPECT_NE(verbose.find("\nscenario-p "), std::string::npos) << verbose;

  // A row not met is listed with its table header, and its unexpected group, also when quiet.
  SweepReport red = Report({Row("pass"), pass_row}, {MakeRun(0, "safety", {"INV-OWN"}), pass_run});
  const std::string failing = report::SweepSummaryText(red, /*verbose=*/false);
  EXPECT_EQ(failing.rfind("scenario   profile ", 0), 0u) << failing;
  EXPECT_NE(failing.find("\nscenario-a greptime "), std::string::npos) << failing;
  EXPECT_EQ(failing.find("scenario-p"), std::string::npos) << failing;
  EXPECT_NE(failing.find("  [UNEXPECTED] scenario-a INV-OWN x1: INV-OWN msg\n"), std::string::npos)
      << failing;
  EXPECT_NE(failing.find("1 of 2 scenario rows met their expectations; 0 expected and 0 "
                         "tolerated failure groups"),
            std::string::npos)
      << failing;
}

TEST(ReportSweepTest, OneFailingRunIsOneGroupWithItsStory) {
  // Issue 53: one run with two unexpected invariants printed as two groups, and no group said
  // what happened.
  SweepReport red = Report({Row("pass")}, {MakeRun(0, "safety", {"INV-OWN", "INV-NODUP"})});
  ASSERT_EQ(red.groups.size(), 2u);
  const std::string repro =
      campaign::ReproCommand(red.groups[0].path, 0, red.groups[0].profile, red.groups[0].rules);
  const std::string text =
      report::SweepSummaryText(red, /*verbose=*/false, {{repro, "rows were lost when ..."}});
  EXPECT_NE(text.find("  [UNEXPECTED] scenario-a INV-NODUP, INV-OWN x1: INV-NODUP msg\n"
                      "    story: rows were lost when ...\n"
                      "    " +
                      repro + "\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("[UNEXPECTED]"), text.rfind("[UNEXPECTED]")) << text;  // one group line
}

// A swarm-shaped run's drawn shape goes into its JSON row, survives FromJson, and its group
// (the fastest failing run's) prints it above the repro line; other runs carry no shape.
TEST(ReportSweepTest, AGroupOfSwarmRunsCarriesTheFastestRunsShape) {
  SweepRun slow = MakeRun(3, "safety", {"INV-ACK"});
  slow.shape = "table=dedup ddl1=split";
  SweepRun fast = MakeRun(1, "safety", {"INV-ACK"});
  fast.shape = "table=append ddl1=merge";
  const SweepReport red = Report({Row("pass")}, {slow, fast, MakeRun(2, "pass", {})});
  ASSERT_EQ(red.groups.size(), 1u);
  EXPECT_EQ(red.groups[0].fastest_seed, 1u);
  EXPECT_EQ(red.groups[0].fastest_shape, "table=append ddl1=merge");
  const nlohmann::json j = red.ToJson();
  EXPECT_EQ(j.at("runs").at(1).at("shape"), "table=append ddl1=merge");
  EXPECT_FALSE(j.at("runs").at(2).contains("shape"));
  EXPECT_EQ(j.at("groups").at(0).at("shape"), "table=append ddl1=merge");
  EXPECT_EQ(RunFromJson(RunToJson(fast)).shape, fast.shape);
  auto back = SweepReport::FromJson(j.dump(), "r.json");
  ASSERT_TRUE(back.ok()) << back.error().Format();
  EXPECT_EQ(back.value().runs[1].shape, fast.shape);
  EXPECT_EQ(back.value().runs[2].shape, "");
  const std::string repro = ReproCommand("s.yaml", 1, "greptime", "");
  EXPECT_NE(Summary(red).find("    shape: table=append ddl1=merge\n    " + repro + "\n"),
            std::string::npos)
      << Summary(red);
}

TEST(ReportSweepTest, RunUnexpectedFollowsTheRowsExpectation) {
  const SweepScenario row = Row("violation: INV-ACK", {"INV-NODUP"});
  EXPECT_FALSE(RunUnexpected(MakeRun(0, "safety", {"INV-ACK", "INV-NODUP"}), &row, false));
  EXPECT_FALSE(RunUnexpected(MakeRun(0, "safety", {"READ-ANOMALY"}), &row, false));
  EXPECT_TRUE(RunUnexpected(MakeRun(0, "safety", {"INV-ACK", "INV-OWN"}), &row, false));
  EXPECT_TRUE(RunUnexpected(MakeRun(0, "safety", {"INV-ACK"}), &row, /*raw=*/true));
  EXPECT_TRUE(RunUnexpected(MakeRun(0, "nondeterminism", {}), &row, false));
  EXPECT_TRUE(RunUnexpected(MakeRun(0, "safety", {"INV-ACK"}), nullptr, false));
  EXPECT_FALSE(RunUnexpected(MakeRun(0, "pass", {}), nullptr, false));
}

TEST(ReportSweepTest, SignatureFoldsCountsPluralsAndQueryText) {
  EXPECT_EQ(FailureSignature("1 acknowledged row is missing at quiescence"),
            FailureSignature("3 acknowledged rows are missing at quiescence"));
  EXPECT_EQ(FailureSignature("query `SELECT * FROM cpu WHERE a < 3` omitted 1 row acknowledged "
                             "before step 40"),
            FailureSignature("query `SELECT count(*) FROM cpu` omitted 2 rows acknowledged "
                             "before step 7"));
  EXPECT_EQ(FailureSignature("query `x` omitted 2 rows"), "query `_` omitted # row");
  EXPECT_NE(FailureSignature("1 row is missing"), FailureSignature("1 row is visible"));
  EXPECT_EQ(FailureSignature("region 4398046511105(1024, 1) accepted 1 row outside its expression "
                             "host <> 'h0'"),
            FailureSignature("region 4398046511104(1024, 0) accepted 3 rows outside its expression "
                             "host <> 'h0' AND host < 'h2'"));
  EXPECT_EQ(FailureSignature("region 4398046511104(1024, 0) accepted 1 row outside its staging "
                             "expression a < 5 (committed: a < 10)"),
            "region #(#, #) accepted # row outside its staging expression _");
}

nlohmann::json ValidJson() {
  SweepReport r = Report({Row("violation: INV-ACK")}, {MakeRun(0, "safety", {"INV-ACK"})});
  return r.ToJson();
}

TEST(ReportSweepTest, FromJsonRoundTrips) {
  auto r = SweepReport::FromJson(ValidJson().dump(1), "r.json");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  EXPECT_EQ(r.value().runs.size(), 1u);
  EXPECT_EQ(r.value().scenarios[0].expect, "violation: INV-ACK");
  EXPECT_EQ(r.value().binary_id, "0xb");
}

TEST(ReportSweepTest, FromJsonRefusesBadFieldsWithALocatedError) {
  // Before: an expect of neither form aborted merge (SIGABRT, exit 134); a negative seed
  // wrapped to 2^64-1; an unknown outcome or an unlisted scenario passed silently.
  struct Case {
    std::function<void(nlohmann::json&)> mutate;
    std::string marker;  // the offending value as dumped, to find its line
    std::string error;
  };
  const std::vector<Case> cases = {
      {[](nlohmann::json& j) { j["scenarios"][0]["expect"] = "maybe"; }, "\"maybe\"",
       "scenarios[0].expect: 'expect' must be 'pass' or 'violation: INV-...', got 'maybe'"},
      {[](nlohmann::json& j) { j["scenarios"][0]["expect"] = "violation: INV-X"; },
       "\"violation: INV-X\"", "scenarios[0].expect: unknown invariant 'INV-X'"},
      {[](nlohmann::json& j) { j["runs"][0]["outcome"] = "fine"; }, "\"fine\"",
       "runs[0].outcome: unknown outcome 'fine'; expected pass, safety, liveness, nondeterminism, "
       "capped, skipped, unrun or internal-error"},
      {[](nlohmann::json& j) { j["runs"][0]["seed"] = -1; }, "-1",
       "runs[0].seed: 'seed' must be a non-negative integer, got -1"},
      {[](nlohmann::json& j) { j["version"] = 1; }, "\"version\": 1",
       "version: sweep report schema version 1; this repartsim reads version 2 (re-run the sweep "
       "with this binary)"},
      {[](nlohmann::json& j) { j["runs"][0]["path"] = "t.yaml"; }, "\"t.yaml\"",
       "runs[0]: run of scenario t.yaml (profile greptime) is not listed in 'scenarios'"},
      {[](nlohmann::json& j) { j["runs"][0]["invariants"][0] = "INV-Y"; }, "\"INV-Y\"",
       "runs[0].invariants[0]: unknown invariant 'INV-Y'"},
      {[](nlohmann::json& j) { j["runs"][0]["trace_hash"] = "0x12"; }, "\"0x12\"",
       "runs[0].trace_hash: 'trace_hash' must be 0x and 16 hex digits, got '0x12'"},
      {[](nlohmann::json& j) { j["shard"] = "2/2"; }, "\"2/2\"",
       "shard: 'shard' must be I/N with 0 <= I < N, got '2/2'"},
  };
  for (const Case& c : cases) {
    nlohmann::json j = ValidJson();
    c.mutate(j);
    const std::string text = j.dump(1);
    auto r = SweepReport::FromJson(text, "r.json");
    ASSERT_FALSE(r.ok()) << c.error;
    EXPECT_EQ(r.error().message, c.error);
    EXPECT_EQ(r.error().location.file, "r.json");
    const size_t at = text.find(c.marker);
    ASSERT_NE(at, std::string::npos) << c.marker;
    uint32_t line = 1;
    for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
    if (c.marker.front() == '"' && c.marker.find(':') == std::string::npos &&
        c.error.find("runs[0]:") != 0) {
      EXPECT_EQ(r.error().location.line, line) << c.error;
    }
    EXPECT_GT(r.error().location.line, 1u) << c.error;
    EXPECT_GT(r.error().location.column, 1u) << c.error;
  }
  auto bad = SweepReport::FromJson("{\"version\": 2,", "r.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.rfind("not valid JSON", 0), 0u);
}

// A number too large for a double is an out_of_range from the parser, not a parse_error: it
// was not caught and aborted `merge` (found by fuzz_merge; tests/fuzz/regressions/merge/).
TEST(SweepReportTest, AnOverflowingNumberIsALocatedError) {
  auto bad = SweepReport::FromJson("{\"version\": 2,\n \"binary\": 1e309}", "r.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().location.line, 2u);
  EXPECT_EQ(bad.error().location.column, 12u);
  EXPECT_EQ(bad.error().message.rfind("not valid JSON: ", 0), 0u) << bad.error().message;
  EXPECT_NE(bad.error().message.find("1e309"), std::string::npos) << bad.error().message;
}

}  // namespace sweep_report_test
}  // namespace
}  // namespace repartsim::campaign
