// Goal: `repartsim mutants` turns each reference switch off alone, searches its budget in the
// printed order and reports the first finding: a known switch is killed by the known scenario
// with the exact invariant, a switch no scenario of the budget exercises survives, the
// reference row is clean, the score is the last line, --json writes the report on stdout, and the
// exit code follows --min-score and the reference row; bad flags are located errors (exit 64).
// Method: run the built binary through popen from the source directory on two or three bundled
// scenarios (a fraction of a second per call).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace mutants_cli_test {

using Outcome = repartsim::testing::CliOutcome;

const std::string kRoot = REPARTSIM_SOURCE_DIR;
const std::string kTwoGroups = "scenarios/multi_group/two_group_repartition.yaml";
const std::string kSplit = "scenarios/split/split_with_writers.yaml";
// kTwoGroups without its expect.with_rules.
const std::string kUndocumented = "tests/data/mutants/two_groups_undocumented.yaml";

Outcome Cli(const std::string& args) { return repartsim::testing::RunRepartsim(args, kRoot); }

using repartsim::testing::Lines;

// A table row without its last column (wall time): "%-30s %-9s %-13s %-60s %7s %10s".
std::string RowPrefix(const std::string& line) {
  return line.size() < 9 ? line : line.substr(0, line.size() - 9);  // " %8s" time
}

std::string Row(const std::string& rule, const std::string& result, const std::string& invariant,
                const std::string& found_by, int runs, int steps) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), "%-30s %-9s %-13s %-60s %7d %10d", rule.c_str(), result.c_str(),
                invariant.c_str(), found_by.c_str(), runs, steps);
  return buf;
}

TEST(MutantsCliTest, KillsAKnownSwitchWithItsInvariantAndKeepsTheReferenceClean) {
  Outcome o = Cli("mutants " + kTwoGroups + " " + kSplit +
                  " --only per-group-indices --only version-fence-unversioned"
                  " --seeds-per-scenario 2 --explore-states 0 --quiet");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  std::vector<std::string> lines = Lines(o.output);
  ASSERT_EQ(lines.size(), 7u) << o.output;
  EXPECT_EQ(lines[0],
            "budget: 2 scenarios, 4 runs (the first 2 seeds of each scenario's range, steps_max "
            "10000 per run), no explore");
  EXPECT_EQ(lines[1],
            std::string("switch                         result    invariant     found by") +
                std::string(56, ' ') + "runs      steps     time");
  EXPECT_EQ(RowPrefix(lines[2]), Row("(reference: all on)", "clean", "-", "-", 4, 4194));
  EXPECT_EQ(RowPrefix(lines[3]),
            Row("per-group-indices", "killed", "INV-RULE", kTwoGroups + " seed 0", 1, 938));
  EXPECT_EQ(RowPrefix(lines[4]), Row("version-fence-unversioned", "survived", "-", "-", 4, 4194));
  EXPECT_EQ(lines[5],
            "  per-group-indices: published rule of table cpu is not complete and disjoint: "
            "Checkpoint `a=5` is overlapped (repro: " +
                std::string(REPARTSIM_BINARY) + " run " + kTwoGroups +
                " --seed 0 --profile reference --rule per-group-indices=off); documented: "
                "expect.with_rules says violation: INV-RULE");
  EXPECT_EQ(lines[6],
            "mutation score: 1/2 killed (50.0%), 1 documented by the killing scenario's "
            "expect.with_rules");
}

TEST(MutantsCliTest, SearchesSeedMajorAndCountsRunsUntilTheKill) {
  // split_with_writers comes first here; per-group-indices needs two groups, so the kill is the
  // second run of the first seed round (neither scenario names the switch in its
  // expect.with_rules, so neither goes first).
  Outcome o = Cli("mutants " + kSplit + " " + kUndocumented +
                  " --only per-group-indices --seeds 3..4 --explore-states 0 --quiet");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  std::vector<std::string> lines = Lines(o.output);
  ASSERT_GE(lines.size(), 4u) << o.output;
  EXPECT_EQ(lines[0],
            "budget: 2 scenarios, 4 runs (seeds 3..4 of every scenario, steps_max 10000 per run), "
            "no explore");
  EXPECT_EQ(RowPrefix(lines[3]),
            Row("per-group-indices", "killed", "INV-RULE", kUndocumented + " seed 3", 2, 1960));
  EXPECT_NE(o.output.find("--rule per-group-indices=off); not named in the scenario's "
                          "expect.with_rules\n"),
            std::string::npos)
      << o.output;
  EXPECT_EQ(lines.back(),
            "mutation score: 1/1 killed (100.0%), 0 documented by the killing scenario's "
            "expect.with_rules");
}

TEST(MutantsCliTest, ScenariosThatDocumentTheSwitchAreSearchedFirst) {
  // The same order as above with the original two-group scenario: its expect.with_rules names
  // per-group-indices, so its runs go first and the first run kills.
  Outcome o = Cli("mutants " + kSplit + " " + kTwoGroups +
                  " --only per-group-indices --seeds 3..4 --explore-states 0 --quiet");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  std::vector<std::string> lines = Lines(o.output);
  ASSERT_GE(lines.size(), 4u) << o.output;
  EXPECT_EQ(RowPrefix(lines[3]),
            Row("per-group-indices", "killed", "INV-RULE", kTwoGroups + " seed 3", 1, 959));
  EXPECT_EQ(lines.back(),
            "mutation score: 1/1 killed (100.0%), 1 documented by the killing scenario's "
            "expect.with_rules");
}

TEST(MutantsCliTest, EveryFindingListsEachKillingScenarioAndWhetherItIsDocumented) {
  Outcome o = Cli("mutants " + kSplit + " " + kUndocumented + " " + kTwoGroups +
                  " --only per-group-indices --seeds-per-scenario 2 --explore-states 0 --quiet"
                  " --every-finding");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  std::vector<std::string> lines = Lines(o.output);
  ASSERT_EQ(lines.size(), 8u) << o.output;
  EXPECT_EQ(RowPrefix(lines[3]),
            Row("per-group-indices", "killed", "INV-RULE", kTwoGroups + " seed 0", 6, 5800));
  EXPECT_EQ(lines[5], "  finding per-group-indices: " + kTwoGroups +
                          " INV-RULE seeds 0,1; documented (violation: INV-RULE)");
  EXPECT_EQ(lines[6],
            "  finding per-group-indices: " + kUndocumented + " INV-RULE seeds 0,1; undocumented");
}

TEST(MutantsCliTest, JsonGoesToStdoutAndTheTextToStderr) {
  // What the JSON holds is tested in process (tests/checker/campaign/mutation_search_test.cc).
  const std::string args = "mutants " + kTwoGroups +
                           " --only per-group-indices --only fenced-reads --seeds-per-scenario 1"
                           " --explore-states 0 --quiet --json -";
  Outcome out = repartsim::testing::RunRepartsim(args, kRoot, /*stderr_too=*/false);
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.output.rfind("{\n \"version\": ", 0), 0u) << out.output;
  EXPECT_EQ(out.output.substr(out.output.size() - 2), "}\n") << out.output;
  EXPECT_NE(
      out.output.find("\n   \"switch\": \"per-group-indices\",\n   \"result\": \"killed\",\n"),
      std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("\n \"exit_code\": 0\n}\n"), std::string::npos) << out.output;
  Outcome err =
      repartsim::testing::RunShell("cd " + kRoot + " && " + std::string(REPARTSIM_BINARY) + " " +
                                   args + " 2>&1 >/dev/null");  // stderr alone
  EXPECT_EQ(Lines(err.output).back(),
            "mutation score: 1/2 killed (50.0%), 1 documented by the killing scenario's "
            "expect.with_rules");
}

TEST(MutantsCliTest, ScoreBelowMinScoreExitsOne) {
  const std::string base = "mutants " + kTwoGroups +
                           " --only per-group-indices --only fenced-reads --seeds-per-scenario 1"
                           " --explore-states 0 --quiet";
  Outcome met = Cli(base + " --min-score 50");
  EXPECT_EQ(met.exit_code, 0) << met.output;
  Outcome below = Cli(base + " --min-score 50.1");
  EXPECT_EQ(below.exit_code, 1) << below.output;
  EXPECT_EQ(Lines(below.output).back(),
            "mutation score: 1/2 killed (50.0%), 1 documented by the killing scenario's "
            "expect.with_rules");
}

TEST(MutantsCliTest, ReferenceNotCleanExitsOne) {
  // The fixture switches time-ordered-sequences off itself: seed 12 loses a value even with
  // no mutation.
  Outcome o =
      Cli("mutants tests/data/scenarios/unsafe_reference.yaml --seeds 12..12 --only "
          "per-group-indices --quiet");
  EXPECT_EQ(o.exit_code, 1) << o.output;
  std::vector<std::string> lines = Lines(o.output);
  ASSERT_GE(lines.size(), 3u) << o.output;
  EXPECT_EQ(RowPrefix(lines[2]),
            Row("(reference: all on)", "violation", "INV-ACK",
                "tests/data/scenarios/unsafe_reference.yaml seed 12", 1, 1032));
  EXPECT_NE(o.output.find("reference is NOT clean: INV-ACK by tests/data/scenarios/"
                          "unsafe_reference.yaml seed 12: 1 row shows a stale value at "
                          "quiescence"),
            std::string::npos)
      << o.output;
  EXPECT_EQ(lines.back(),
            "mutation score: 1/1 killed (100.0%), 0 documented by the killing scenario's "
            "expect.with_rules; reference NOT clean");
}

TEST(MutantsCliTest, BadFlagsAreLocatedErrors) {
  struct Case {
    std::string args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"mutants " + kSplit + " --min-score 200",
       "<command line>:1:61: error: --min-score expects a percentage from 0 to 100, got '200'"},
      {"mutants --only nosuch",
       "<command line>:1:16: error: --only: 'nosuch' is not a switch that is on in reference "
       "(see '" +
           std::string(REPARTSIM_BINARY) + " rules')"},
      {"mutants --seeds 3..1",
       "<command line>:1:17: error: --seeds expects A..B with 0 <= A <= B < 2^64, got '3..1'"},
      {"mutants --seeds-per-scenario 0",
       "<command line>:1:9: error: --seeds-per-scenario: must be an integer in 1..10000000, got "
       "'0' (see '" +
           std::string(REPARTSIM_BINARY) + " mutants --help')"},
      {"mutants --steps-max 0",
       "<command line>:1:9: error: --steps-max: must be an integer in 1..2000000, got '0' (see "
       "'" +
           std::string(REPARTSIM_BINARY) + " mutants --help')"},
      {"mutants --explore-states -5",
       "<command line>:1:9: error: --explore-states: must be an integer in "
       "0..18446744073709551615, got '-5' (see '" +
           std::string(REPARTSIM_BINARY) + " mutants --help')"},
      {"mutants --jobs 1e2",
       "<command line>:1:9: error: --jobs: must be an integer in 1..256, got '1e2' (see "
       "'" +
           std::string(REPARTSIM_BINARY) + " mutants --help')"},
      {"mutants " + kSplit + " --seeds 0..99999999",
       "<command line>:1:57: error: a budget of more than 10000000 runs per mutant; give a "
       "smaller --seeds range"},
      {"mutants --seeds ''",
       "<command line>:1:9: error: --seeds: must not be empty (leave the flag out instead) (see "
       "'" +
           std::string(REPARTSIM_BINARY) + " mutants --help')"},
      {"mutants --bogus",
       "<command line>:1:9: error: The following argument was not expected: --bogus (see "
       "'" +
           std::string(REPARTSIM_BINARY) + " mutants --help')"},
  };
  for (const Case& c : cases) {
    Outcome o = Cli(c.args);
    EXPECT_EQ(o.exit_code, 64) << c.args << "\n" << o.output;
    EXPECT_EQ(o.output, c.message + "\n") << c.args;
  }
}

}  // namespace mutants_cli_test
}  // namespace
