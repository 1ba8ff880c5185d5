// Goal: `repartsim run --html` and `repartsim report RUN.json --html` write the same timeline
// page for the same run; `report` rejects bad input as `file:line:col: error: message` with
// exit 64 (malformed JSON, a missing or mistyped field, a trace hash the run does not give);
// `sweep --html` writes a summary linking each failure group's timeline.
// Method: run the built binary (REPARTSIM_BINARY) in a scratch directory; exact messages.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace report_verb_test {

using Outcome = repartsim::testing::CliOutcome;

const std::string kRoot = REPARTSIM_SOURCE_DIR;
const std::string kLeaseRace = kRoot + "/scenarios/greptime/lease_race_new_region_ack.yaml";

std::string Scratch() {
  std::string dir = std::filesystem::temp_directory_path().string() + "/repartsim_report_" +
                    std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

Outcome Cli(const std::string& args) { return repartsim::testing::RunRepartsim(args, Scratch()); }

std::string Read(const std::string& path) { return repartsim::testing::ReadText(path); }

void Write(const std::string& name, const std::string& text) {
  std::ofstream(Scratch() + "/" + name) << text;
}

TEST(ReportVerbTest, RunHtmlAndReportOfItsJsonWriteTheSamePage) {
  Outcome run = Cli("run " + kLeaseRace + " --seed 0 --html run.html --json run.json");
  ASSERT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("timeline: run.html\n"), std::string::npos) << run.output;
  const std::string page = Read(Scratch() + "/run.html");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n", 0), 0u);
  EXPECT_NE(page.find("<h1>lease-race-new-region-ack</h1>"), std::string::npos);
  Outcome report = Cli("report run.json --html again.html");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find("outcome=safety\ntimeline: again.html\n"), std::string::npos)
      << report.output;
  EXPECT_EQ(Read(Scratch() + "/again.html"), page);
}

TEST(ReportVerbTest, MalformedJsonIsLocated) {
  Write("bad.json", "{\n  \"path\": \"x.yaml\",\n  \"profile\": }\n");
  Outcome o = Cli("report bad.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output.rfind("bad.json:3:14: error: not valid JSON: syntax error while parsing "
                           "value - unexpected '}'; expected '[', '{', or a literal\n",
                           0),
            0u)
      << o.output;
  EXPECT_FALSE(std::filesystem::exists(Scratch() + "/out.html"));
}

TEST(ReportVerbTest, AMissingOrMistypedFieldIsLocated) {
  Write("noseed.json",
        "{\n  \"path\": \"x.yaml\",\n  \"profile\": \"greptime\",\n  \"rules\": \"\",\n"
        "  \"summary\": {\"seed\": \"zero\", \"trace_hash\": \"0x1\"}\n}\n");
  Outcome o = Cli("report noseed.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output,
            "noseed.json:5:23: error: summary.seed: expected a non-negative integer seed\n");
  Write("nopath.json", "{\"profile\": \"greptime\"}\n");
  o = Cli("report nopath.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output, "nopath.json:1:1: error: the run report has no \"path\"\n");
  Write("list.json", "[1, 2]\n");
  o = Cli("report list.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output,
            "list.json:1:1: error: a run report is a JSON object (repartsim run --json)\n");
}

// Issue 54 (R17): an unknown profile or rule in a report was refused by the run, at no place
// ("<input>: error: unknown profile 'nosuch'").
TEST(ReportVerbTest, AnUnknownProfileOrRuleIsLocatedInTheReport) {
  const auto report = [](const std::string& profile, const std::string& rules) {
    return "{\"path\": \"" + kLeaseRace + "\",\n \"profile\": \"" + profile +
           "\",\n \"rules\": \"" + rules +
           "\",\n \"summary\": {\"seed\": 0, \"trace_hash\": \"0x0000000000000001\"}}\n";
  };
  Write("profile.json", report("nosuch", ""));
  Outcome o = Cli("report profile.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output,
            "profile.json:2:13: error: profile: unknown profile 'nosuch' (expected 'greptime' or "
            "'reference')\n");
  Write("rule.json", report("greptime", "fenced-reads=on,bogus=off"));
  o = Cli("report rule.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output,
            "rule.json:3:11: error: rules: unknown rule 'bogus'; `repartsim rules` lists every "
            "rule\n");
}

TEST(ReportVerbTest, ATraceHashTheRunDoesNotGiveIsRefused) {
  Write("hash.json", "{\"path\": \"" + kLeaseRace +
                         "\", \"profile\": \"greptime\", \"rules\": \"\",\n"
                         " \"summary\": {\"seed\": 0, \"trace_hash\": \"0x0000000000000001\"}}\n");
  Outcome o = Cli("report hash.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_NE(
      o.output.find("hash.json:2:39: error: running " + kLeaseRace + " again gives trace_hash 0x"),
      std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find(", not the report's 0x0000000000000001 (another binary or an edited "
                          "scenario)\n"),
            std::string::npos);
}

TEST(ReportVerbTest, ReportNeedsHtml) {
  Outcome o = Cli("report run.json");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_NE(o.output.find("error: report needs --html FILE"), std::string::npos) << o.output;
}

TEST(ReportVerbTest, SweepHtmlLinksEachFailureGroupToItsTimeline) {
  Outcome o = Cli("sweep " + kLeaseRace + " --seeds 0..1 --quiet --html sweep.html");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const std::string page = Read(Scratch() + "/sweep.html");
  EXPECT_NE(page.find("\">lease-race-new-region-ack</td><td>greptime</td>"), std::string::npos)
      << page;
  EXPECT_NE(page.find("<a href=\"sweep-g1.html\">seed "), std::string::npos) << page;
  EXPECT_NE(Read(Scratch() + "/sweep-g1.html").find("<h1>lease-race-new-region-ack</h1>"),
            std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);
}

}  // namespace report_verb_test
}  // namespace
