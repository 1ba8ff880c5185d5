// Goal: the scenario verbs of the repartsim binary end to end: run (summary line, choice
// file, JSON report, exit 0/1/64), replay (--choices and --seed match; a tampered choice file
// exits 3 naming the divergence), sweep (table, JSON/JUnit, shards, exit codes) and merge,
// and --help of every verb. Method: run the built binary (REPARTSIM_BINARY) through popen in
// a scratch directory and assert exit codes and exact output fragments.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace scenario_cli_test {

using Outcome = repartsim::testing::CliOutcome;

const std::string kRoot = REPARTSIM_SOURCE_DIR;
const std::string kCrash = kRoot + "/scenarios/crash/datanode_restart_writes.yaml";
const std::string kDefect = kRoot + "/tests/data/scenarios/unsafe_reference.yaml";

std::string Scratch() {
  std::string dir = std::filesystem::temp_directory_path().string() + "/repartsim_cli_" +
                    std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

Outcome Cli(const std::string& args) { return repartsim::testing::RunRepartsim(args, Scratch()); }

std::string Read(const std::string& path) { return repartsim::testing::ReadText(path); }

TEST(ScenarioCliTest, RunPrintsSummaryWritesChoicesAndJsonAndExitsZero) {
  Outcome o = Cli("run " + kCrash + " --seed 2 --json run2.json");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("seed=2 steps="), std::string::npos);
  EXPECT_NE(o.output.find(" outcome=pass\n"), std::string::npos);
  EXPECT_NE(o.output.find("history: writes=95 acked=89 rejected=0 unknown=6 pending=0 queries="),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("\nprobes: rows=29 acked=29 writes=29 "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("expect (reference): pass -> met"), std::string::npos);
  EXPECT_NE(o.output.find("choices: run2.choices"), std::string::npos);
  const std::string json = Read(Scratch() + "/run2.json");
  EXPECT_NE(json.find("\"outcome\": \"pass\""), std::string::npos);
  EXPECT_NE(json.find("\"crash_points\""), std::string::npos);
  EXPECT_EQ(Read(Scratch() + "/run2.choices").rfind("# repartsim choices\n# scenario=", 0), 0u);
}

TEST(ScenarioCliTest, RunWithSafetyViolationExitsOneAndPrintsRowsAndTrace) {
  Outcome o = Cli("run " + kDefect + " --seed 12");
  ASSERT_EQ(o.exit_code, 1) << o.output;
  EXPECT_NE(o.output.find("outcome=safety"), std::string::npos);
  EXPECT_NE(o.output.find("INV-NOOMIT at step"), std::string::npos);
  EXPECT_NE(o.output.find("  row: "), std::string::npos);
  EXPECT_NE(o.output.find("  trace: "), std::string::npos);
}

TEST(ScenarioCliTest, RunWithBadScenarioExits64WithLocatedError) {
  Outcome o = Cli("run " + kRoot + "/tests/data/bad_input/unknown_node.yaml");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output, kRoot +
                          "/tests/data/bad_input/unknown_node.yaml:7:24: error: unknown node "
                          "'dn7'; nodes are metasrv, dn1..dn2, fe1..fe2 (at steps[0].crash)\n");
}

TEST(ScenarioCliTest, RunWithBadRuleFlagExits64) {
  Outcome o = Cli("run " + kCrash + " --rule nosuch=on");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output.rfind("<command line>:1:", 0), 0u) << o.output;
  EXPECT_NE(o.output.find("unknown rule 'nosuch'"), std::string::npos);
  o = Cli("run " + kCrash + " --rule fenced-reads");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_NE(o.output.find("--rule expects name=on|off, got 'fenced-reads'"), std::string::npos);
}

TEST(ScenarioCliTest, TraceJsonlHasOneObjectPerLine) {
  Outcome o = Cli("run " + kCrash + " --seed 1 --trace t.jsonl --trace-format jsonl");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  std::ifstream in(Scratch() + "/t.jsonl");
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first.rfind("{\"fields\":", 0), 0u) << first;  // keys in alphabetical order
  EXPECT_NE(first.find("\"kind\":"), std::string::npos);
  EXPECT_EQ(first.find("\"detail\":"), std::string::npos);  // no free text wrapped whole
}

// Issue 53: `replay --json -` printed "replay: matches ..." on stdout after the JSON, and the
// run JSON had no schema version or binary id. Now stdout parses as JSON (python3's parser)
// with `version` 1 and `binary` {version, id} as `repartsim --version` names the build, and
// the verdict goes to stderr.
TEST(ScenarioCliTest, ReplayAndRunJsonOnStdoutParseAndNameTheirBinary) {
  ASSERT_EQ(Cli("run " + kCrash + " --seed 4 --choices j4.choices").exit_code, 0);
  const std::string build = Cli("--version").output;  // "repartsim 0.1.0 (build 0x...)\n"
  const size_t at = build.find("(build ");
  ASSERT_NE(at, std::string::npos) << build;
  const std::string version = build.substr(10, at - 11);  // after "repartsim "
  const std::string id = build.substr(at + 7, build.find(')', at) - at - 7);
  const std::string parse =
      " | python3 -c 'import json, sys; d = json.load(sys.stdin); "
      "print(d[\"version\"], d[\"binary\"][\"version\"], d[\"binary\"][\"id\"], d[\"outcome\"])'";
  const std::string cd = "cd " + Scratch() + " && " + std::string(REPARTSIM_BINARY);
  for (const std::string& verb :
       {"replay " + kCrash + " --choices j4.choices", "replay " + kCrash + " --seed 4",
        "run " + kCrash + " --seed 4 --choices j4b.choices"}) {
    const Outcome json =
        repartsim::testing::RunShell(cd + " " + verb + " --json - 2>/dev/null" + parse);
    EXPECT_EQ(json.exit_code, 0) << verb;
    EXPECT_EQ(json.output, "1 " + version + " " + id + " pass\n") << verb;
  }
  const Outcome text = repartsim::testing::RunShell(
      cd + " replay " + kCrash + " --choices j4.choices --json - 2>&1 >/dev/null");
  EXPECT_NE(text.output.find("replay: matches the recorded trace_hash 0x"), std::string::npos)
      << text.output;
}

TEST(ScenarioCliTest, ReplayFromChoicesAndFromSeedMatch) {
  ASSERT_EQ(Cli("run " + kCrash + " --seed 4 --choices r4.choices").exit_code, 0);
  Outcome o = Cli("replay " + kCrash + " --choices r4.choices");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("replay: matches the recorded trace_hash 0x"), std::string::npos);
  o = Cli("replay " + kCrash + " --seed 4");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("replay: two runs of seed 4 gave the same trace_hash"),
            std::string::npos);
}

TEST(ScenarioCliTest, ReplayOfTamperedChoicesExitsThreeNamingTheDivergence) {
  ASSERT_EQ(Cli("run " + kCrash + " --seed 5 --choices r5.choices").exit_code, 0);
  std::string text = Read(Scratch() + "/r5.choices");
  const size_t at = text.find("seed=5");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 6, "seed=6");  // the workload of another seed: a different trace
  std::ofstream(Scratch() + "/r6.choices") << text;
  Outcome o = Cli("replay " + kCrash + " --choices r6.choices");
  EXPECT_EQ(o.exit_code, 3) << o.output;
  EXPECT_NE(o.output.find("NONDETERMINISM: replaying r6.choices gave trace_hash"),
            std::string::npos);
  EXPECT_NE(o.output.find("the recorded run came from a different binary, scenario or seed"),
            std::string::npos);
}

TEST(ScenarioCliTest, SweepPassesWritesReportsAndMergesShards) {
  Outcome a = Cli("sweep " + kCrash + " --seeds 0..5 --shard 0/2 -q --json a.json");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  Outcome b = Cli("sweep " + kCrash +
                  " --seeds 0..5 --shard 1/2 --jobs 2 -q -v --json b.json --junit b.xml");
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_NE(b.output.find("datanode-restart-writes reference pass"), std::string::npos);
  EXPECT_NE(Read(Scratch() + "/b.xml").find("<testcase classname=\"reference\""),
            std::string::npos);
  Outcome m = Cli("merge a.json b.json --json m.json");
  ASSERT_EQ(m.exit_code, 0) << m.output;
  EXPECT_NE(m.output.find("merged 2 reports (1 sweep, every shard once): 6 runs"),
            std::string::npos);
}

TEST(ScenarioCliTest, SweepWithUnexpectedViolationExitsOneAndGroupsIt) {
  Outcome o = Cli("sweep " + kDefect + " -q");
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_NE(o.output.find("UNEXPECTED INV-ACK"), std::string::npos);
  // One run's INV-ACK and INV-NOOMIT are one group, told by the run's first story (issue 53).
  EXPECT_NE(o.output.find("[UNEXPECTED] fixture-unsafe-reference INV-ACK, INV-NOOMIT x1"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("\n    story: N1 (docs/findings.md): region "), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("repartsim run " + kDefect + " --seed 12 --profile reference"),
            std::string::npos);
}

TEST(ScenarioCliTest, SweepAndMergeRejectBadInput) {
  EXPECT_EQ(Cli("sweep " + kCrash + " --seeds 5..2").exit_code, 64);
  EXPECT_EQ(Cli("sweep " + kCrash + " --shard 3/2").exit_code, 64);
  Outcome o = Cli("merge nosuch.json");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output, "nosuch.json: error: cannot read sweep report: No such file or directory\n");
}

TEST(ScenarioCliTest, EveryScenarioVerbHasHelp) {
  for (const char* verb : {"run", "replay", "sweep", "merge"}) {
    Outcome o = Cli(std::string(verb) + " --help");
    EXPECT_EQ(o.exit_code, 0) << verb;
    EXPECT_NE(o.output.find("Exit codes"), std::string::npos) << verb;
  }
}

}  // namespace scenario_cli_test
}  // namespace
