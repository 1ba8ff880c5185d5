// Goal: every repro and replay command a verb prints runs as printed: pasted into a shell in
// the directory where it was printed, it reproduces the run it names (the same trace hash, or
// for a mutant the same invariant). The commands start the way the binary was started.
// Method: start the binary as `bin/repartsim` (a symlink in a scratch directory) on a copy of
// a failing scenario named by a relative path, take every command starting with
// `bin/repartsim ` from what `run`, `sweep` and `mutants` print, and run each with /bin/sh
// in that directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"
#include "tests/tools/sweep_reader.h"

namespace {
namespace repro_cli_test {

using Outcome = repartsim::testing::CliOutcome;
const std::string kRoot = REPARTSIM_SOURCE_DIR;
const std::string kName = "bin/repartsim ";

class ReproCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = repartsim::testing::FreshTestDir("repro");
    std::filesystem::create_directories(dir_ + "/bin");
    std::filesystem::create_symlink(REPARTSIM_BINARY, dir_ + "/bin/repartsim");
    std::filesystem::copy_file(kRoot + "/tests/data/scenarios/unsafe_reference.yaml",
                               dir_ + "/unsafe.yaml");
    std::filesystem::copy_file(kRoot + "/scenarios/multi_group/two_group_repartition.yaml",
                               dir_ + "/two_groups.yaml");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs `command` (which starts with the binary's name) in the scratch directory.
  Outcome Sh(const std::string& command) const {
    return repartsim::testing::RunShell("cd " + dir_ + " && " + command + " 2>&1");
  }

  std::string dir_;
};

// Every command in `text` that starts with the binary's name, up to the end of its line or
// the parenthesis that closes "(repro: ...)".
std::vector<std::string> Commands(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = text.find(kName); at != std::string::npos; at = text.find(kName, at + 1)) {
    size_t end = text.find_first_of("\n)", at);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
  }
  return out;
}

std::string TraceHash(const std::string& output) {
  const size_t at = output.find("trace_hash=0x");
  return at == std::string::npos ? "" : output.substr(at + 11, 18);
}

TEST_F(ReproCliTest, RunPrintsAReplayAndAReproThatGiveItsTraceHash) {
  const Outcome o = Sh(kName + "run unsafe.yaml --seed 12");
  ASSERT_EQ(o.exit_code, 1) << o.output;
  const std::string hash = TraceHash(o.output);
  ASSERT_EQ(hash.size(), 18u) << o.output;
  const std::vector<std::string> commands = Commands(o.output);
  ASSERT_EQ(commands.size(), 2u) << o.output;
  EXPECT_EQ(
      commands[0],
      kName +
          "replay unsafe.yaml --choices repartsim-fixture-unsafe-reference-reference-12.choices");
  EXPECT_EQ(commands[1], kName + "run unsafe.yaml --seed 12 --profile reference");
  for (const std::string& command : commands) {
    const Outcome again = Sh(command);
    EXPECT_EQ(again.exit_code, 1) << command << "\n" << again.output;
    EXPECT_EQ(TraceHash(again.output), hash) << command << "\n" << again.output;
  }
}

TEST_F(ReproCliTest, SweepFailureGroupsReproduceTheirRunsTraceHashes) {
  const Outcome o = Sh(kName + "sweep unsafe.yaml --seeds 10..13 -q --json r.json");
  ASSERT_EQ(o.exit_code, 1) << o.output;
  const repartsim::campaign::SweepReport report = repartsim::testing::ReadSweep(dir_ + "/r.json");
  const std::vector<std::string> commands = Commands(o.output);
  ASSERT_FALSE(commands.empty()) << o.output;
  for (const std::string& command : commands) {
    const Outcome again = Sh(command);
    const size_t seed_at = command.find(" --seed ");
    ASSERT_NE(seed_at, std::string::npos) << command;
    const uint64_t seed = std::stoull(command.substr(seed_at + 8));
    std::string want;
    for (const auto& run : report.runs) {
      if (run.seed == seed) want = run.trace_hash;
    }
    EXPECT_EQ(TraceHash(again.output), want) << command << "\n" << again.output;
  }
}

TEST_F(ReproCliTest, MutantReprosShowTheKillingInvariant) {
  const Outcome o = Sh(kName +
                       "mutants two_groups.yaml --only per-group-indices --seeds-per-scenario 1 "
                       "--explore-states 0 --quiet");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const std::vector<std::string> commands = Commands(o.output);
  ASSERT_EQ(commands.size(), 1u) << o.output;
  EXPECT_EQ(commands[0], kName +
                             "run two_groups.yaml --seed 0 --profile reference --rule "
                             "per-group-indices=off");
  const Outcome again = Sh(commands[0]);
  EXPECT_EQ(again.exit_code, 1) << again.output;
  EXPECT_NE(again.output.find("INV-RULE at step "), std::string::npos) << again.output;
}

// Issue 54 (R14): a hand-edited decision the run does not ask for ends the replay as
// nondeterminism (exit 3) at that decision, without an INV-LIVE for a liveness phase the run
// never reached.
TEST(ReproCliEditTest, AnEditedDecisionIsNondeterminismWithoutAnInventedLiveness) {
  const std::string dir = repartsim::testing::FreshTestDir("repro_edit");
  const std::string scenario = kRoot + "/scenarios/random/restart_replay_faults.yaml";
  Outcome run = repartsim::testing::RunRepartsim(
      "run " + scenario + " --seed 3 --choices " + dir + "/c.choices", dir);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string text = repartsim::testing::ReadText(dir + "/c.choices");
  const size_t at = text.find("choose net.delay_ms 2000 ");
  ASSERT_NE(at, std::string::npos);
  std::ofstream(dir + "/edited.choices")
      << text.substr(0, at) + "choose net.delay_ms 1000 5" + text.substr(text.find('\n', at));
  Outcome replay = repartsim::testing::RunRepartsim(
      "replay " + scenario + " --choices " + dir + "/edited.choices", dir);
  EXPECT_EQ(replay.exit_code, 3) << replay.output;
  EXPECT_TRUE(repartsim::testing::Has(replay.output,
                                      "differs: recorded 'choose net.delay_ms 1000', "
                                      "run asked 'choose net.delay_ms 2000'"))
      << replay.output;
  EXPECT_FALSE(repartsim::testing::Has(replay.output, "INV-LIVE")) << replay.output;
}

}  // namespace repro_cli_test
}  // namespace
