// Goal: `repartsim explore` end to end: exhausts the small split under reference (exit 0,
// the report lines), and with version-fence-unversioned off exits 1 with INV-OWN and writes a
// choice file that `replay` reproduces and a scenario that `run` reproduces (exit 1, INV-OWN,
// no random draw left); `--json -` puts only the JSON report on stdout. Bad flags exit 64.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli_runner.h"

namespace repartsim::testing {
namespace {
namespace explore_cli_test {

const std::string kScenario = "scenarios/explore/split_small.yaml";

std::string TempDir() {
  const std::string dir = ::testing::TempDir() + "explore_cli";
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ExploreCliTest, ReferenceExhausts) {
  const CliOutcome r = RunRepartsim("explore " + kScenario + " --crash-budget 0 --quiet");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("runs=145 (cut at a visited state: 116, of them subsumed: 37) "
                          "states=2758 unique=2642 depth_max=49"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("result: exhausted\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" sites hit, 0 crashed\n"), std::string::npos) << r.output;
}

TEST(ExploreCliTest, NoSubsumptionCutsOnlyExactRepeats) {
  const CliOutcome r =
      RunRepartsim("explore " + kScenario + " --crash-budget 0 --quiet --no-subsumption");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("runs=145 (cut at a visited state: 115, of them subsumed: 0) "
                          "states=2826 unique=2711 depth_max=49"),
            std::string::npos)
      << r.output;
}

TEST(ExploreCliTest, FenceOffCounterexampleReplaysAndRuns) {
  const std::string out = TempDir() + "/fence";
  const CliOutcome r =
      RunRepartsim("explore " + kScenario +
                   " --crash-budget 0 --quiet --rule version-fence-unversioned=off --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("result: violation"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("INV-OWN at step"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("verified: same invariant"), std::string::npos) << r.output;
  // The decisive decisions read as a trace: the delayed write and what it did (issue 36).
  EXPECT_NE(r.output.find("decisions that made it (non-default; step, time, what each did):\n"
                          "  #25 net.delay = yes, step 25 (t=2999 ms): fe1 net.delay id=17 "
                          "msg=WriteRequest from=fe1 to=dn1 extra_ms=50 deliver_at=3050\n"
                          "  #26 net.delay_ms = 49 of 100, step 25 (t=2999 ms): fe1 net.delay"),
            std::string::npos)
      << r.output;

  const CliOutcome replay = RunRepartsim("replay " + kScenario + " --choices " + out + ".choices");
  EXPECT_EQ(replay.exit_code, 1) << replay.output;
  EXPECT_NE(replay.output.find("replay: matches the recorded trace_hash"), std::string::npos)
      << replay.output;

  const CliOutcome run = RunRepartsim("run " + out + ".yaml --choices " + out + ".run.choices");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("prng_draws=0 "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("INV-OWN at step"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("expect (reference): violation: INV-OWN -> met"), std::string::npos)
      << run.output;
}

TEST(ExploreCliTest, JsonOnStdoutIsOnlyJson) {
  // Before: the text report and the counterexample were printed on stdout before the JSON.
  const std::string out = TempDir() + "/json";
  const std::string args = "explore " + kScenario +
                           " --crash-budget 0 --quiet --rule version-fence-unversioned=off --out " +
                           out + " --json -";
  const CliOutcome json = RunRepartsim(args, "", /*stderr_too=*/false);
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(json.output.rfind("{\n", 0), 0u) << json.output;
  EXPECT_EQ(json.output.substr(json.output.size() - 2), "}\n") << json.output;
  EXPECT_NE(json.output.find("\"violation\": \"INV-OWN\""), std::string::npos) << json.output;
  EXPECT_EQ(json.output.find("result: violation"), std::string::npos) << json.output;
  const CliOutcome text = RunShell(std::string(REPARTSIM_BINARY) + " " + args + " 2>&1 >/dev/null");
  EXPECT_NE(text.output.find("result: violation"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("verified: same invariant"), std::string::npos) << text.output;
}

TEST(ExploreCliTest, BadFlagsExit64) {
  EXPECT_EQ(RunRepartsim("explore " + kScenario + " --bfs --dfs").exit_code, 64);
  EXPECT_EQ(RunRepartsim("explore").exit_code, 64);
  EXPECT_EQ(RunRepartsim("explore " + kScenario + " --profile nope").exit_code, 64);
  // Before: -5 and 1e20 states searched without a bound, nan and -1 seconds were accepted,
  // and an unwritable --out was found only after the search had found its counterexample.
  for (const char* flags :
       {"--max-states -5", "--max-states 1e20", "--max-seconds -1", "--max-seconds nan",
        "--values 1.5", "--out /nonexistent/x", "--time-budget -3s", "--time-budget 2y"}) {
    CliOutcome o = RunRepartsim("explore " + kScenario + " " + flags);
    EXPECT_EQ(o.exit_code, 64) << flags;
    EXPECT_EQ(o.output.find("explore:"), std::string::npos) << o.output;  // no search ran
  }
  EXPECT_EQ(RunRepartsim("explore " + kScenario + " --max-states -5").output,
            "<command line>:1:44: error: --max-states: must be an integer in "
            "1..18446744073709551615, got '-5' (see '" +
                std::string(REPARTSIM_BINARY) + " explore --help')\n");
}

TEST(ExploreCliTest, TimeBudgetAndQuietSpeakAsSweepDoes) {
  // The flag vocabulary (README "Flags"): a duration for --time-budget, -q for --quiet.
  const CliOutcome r =
      RunRepartsim("explore " + kScenario + " --crash-budget 0 -q --time-budget 10m");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("result: exhausted\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("explore: "), std::string::npos) << r.output;  // no progress line
  EXPECT_EQ(RunRepartsim("explore " + kScenario + " --time-budget soon").output,
            "<command line>:1:44: error: --time-budget: must be a duration such as 90s, 5m or "
            "500ms, at most a year, got 'soon' (see '" +
                std::string(REPARTSIM_BINARY) + " explore --help')\n");
}

// Issue 54 (R17): a --out prefix whose files cannot be written was located at the command
// line's first column (the checked path, PREFIX.choices, is no argument): now at the prefix.
TEST(ExploreCliTest, AnUnwritableOutPrefixIsLocatedAtItsArgument) {
  const std::string prefix = "explore " + kScenario + " --max-states 10 -q --out";
  CliOutcome r = RunRepartsim(prefix + " /nonexistent/dir/x");
  EXPECT_EQ(r.exit_code, 64) << r.output;
  EXPECT_EQ(r.output, "<command line>:1:" + std::to_string(prefix.size() + 2) +
                          ": error: cannot write /nonexistent/dir/x.choices: No such file or "
                          "directory\n");
  r = RunRepartsim(prefix + "=/nonexistent/dir/x");
  EXPECT_EQ(r.exit_code, 64) << r.output;
  EXPECT_EQ(r.output, "<command line>:1:" + std::to_string(prefix.size() + 2) +
                          ": error: cannot write /nonexistent/dir/x.choices: No such file or "
                          "directory\n");
}

// Issue 54 (R8): --max-memory-mb (and --max-seconds) were checked only between paths, so a
// single long path overran them (one hour of a quiet cluster: 14,421 states, all of the run,
// under --max-memory-mb 1). Now the path is cut at the check where the tables pass 1 MiB.
TEST(ExploreCliTest, MemoryBoundHoldsInsideOneLongPath) {
  const std::string path = TempDir() + "/quiet_hour.yaml";
  {
    std::ofstream out(path);
    out << "name: quiet-hour\n"
           "cluster: {datanodes: 4, frontends: 1}\n"
           "table: \"CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, "
           "PRIMARY KEY (host, a)) PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, "
           "a >= 20 AND a < 30, a >= 30)\"\n"
           "limits: {time_ms_max: 3600000, liveness_ms: 60000}\n"
           "expect: {reference: pass}\n";
  }
  const CliOutcome r = RunRepartsim("explore " + path + " --max-memory-mb 1 -q --out " + TempDir() +
                                    "/quiet_hour_cx");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // 10,927 states of 96 bytes are past 1 MiB (checked every 16 steps).
  EXPECT_NE(r.output.find("runs=1 (cut at a visited state: 1, of them subsumed: 0) states=10927 "
                          "unique=10927 depth_max=0"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("result: memory_max (the search held about 1 MB;"), std::string::npos)
      << r.output;
}

}  // namespace explore_cli_test
}  // namespace
}  // namespace repartsim::testing
