// Goal: the shipped CI matrix workflow (.github/workflows/sweep.yml) and Kubernetes Indexed
// Job (tools/k8s/) work: their shard and merge commands (tools/ci_sweep.sh), run here as the
// matrix jobs and the pods would run them, give one merged report that covers every shard
// exactly once; a lost shard makes the merge fail (exit 64); the manifests keep their shard
// counts consistent. Method: run tools/ci_sweep.sh with the built binary over a small copy
// of the library in a scratch directory, and read the manifests as text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"
#include "tests/tools/sweep_reader.h"

namespace {
namespace ci_test {

const std::string kRoot = REPARTSIM_SOURCE_DIR;

using Shell = repartsim::testing::CliOutcome;
using repartsim::testing::ReadText;

Shell Sh(const std::string& command) { return repartsim::testing::RunShell(command + " 2>&1"); }

// The digits after the first `prefix` in `text` ("" when there are none).
std::string DigitsAfter(const std::string& text, const std::string& prefix) {
  const size_t at = text.find(prefix);
  if (at == std::string::npos) return "";
  size_t end = at + prefix.size();
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  return text.substr(at + prefix.size(), end - at - prefix.size());
}

class CiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = repartsim::testing::FreshTestDir("ci");
    std::filesystem::create_directories(dir_ + "/lib/crash");
    std::filesystem::create_directories(dir_ + "/lib/merge");
    std::filesystem::copy_file(kRoot + "/scenarios/crash/datanode_restart_writes.yaml",
                               dir_ + "/lib/crash/datanode_restart_writes.yaml");
    std::filesystem::copy_file(kRoot + "/scenarios/merge/merge_with_writers.yaml",
                               dir_ + "/lib/merge/merge_with_writers.yaml");
  }
  std::string Env() const {
    return "REPARTSIM=" + std::string(REPARTSIM_BINARY) + " SCENARIOS=" + dir_ + "/lib ";
  }
  std::string Script() const { return "bash " + kRoot + "/tools/ci_sweep.sh "; }
  std::string dir_;
};

TEST_F(CiTest, MatrixShardsThenMergeCoverEveryRunOnce) {
  for (int i = 0; i < 3; ++i) {
    Shell s =
        Sh(Env() + Script() + "shard " + std::to_string(i) + " 3 " + dir_ + "/out --seeds 0..2");
    ASSERT_EQ(s.exit_code, 0) << s.output;
  }
  Shell m = Sh(Env() + Script() + "merge " + dir_ + "/out");
  ASSERT_EQ(m.exit_code, 0) << m.output;
  EXPECT_NE(m.output.find("merged 6 reports (2 sweeps, every shard once): 12 runs"),
            std::string::npos)
      << m.output;
  const repartsim::campaign::SweepReport all =
      repartsim::testing::ReadSweep(dir_ + "/out/all.json");
  EXPECT_EQ(all.runs.size(), 12u);  // 2 scenarios x 3 seeds x 2 profiles
  EXPECT_EQ(all.scenarios.size(), 4u);
  EXPECT_TRUE(all.complete);
  EXPECT_NE(ReadText(dir_ + "/out/all.xml").find("tests=\"4\" failures=\"0\""), std::string::npos);

  std::filesystem::remove(dir_ + "/out/sweep-greptime-1-of-3.json");
  m = Sh(Env() + Script() + "merge " + dir_ + "/out");
  EXPECT_EQ(m.exit_code, 64) << m.output;
  EXPECT_NE(m.output.find("is missing shard 1/3"), std::string::npos) << m.output;
}

TEST_F(CiTest, IndexedJobPodsTakeTheirShardFromTheEnvironment) {
  for (int i = 0; i < 2; ++i) {
    Shell s = Sh("JOB_COMPLETION_INDEX=" + std::to_string(i) + " REPARTSIM_SHARD_COUNT=2 " + Env() +
                 Script() + "shard env 2 " + dir_ + "/reports --seeds 0..1");
    ASSERT_EQ(s.exit_code, 0) << s.output;
  }
  Shell m = Sh(Env() + Script() + "merge " + dir_ + "/reports");
  ASSERT_EQ(m.exit_code, 0) << m.output;
  EXPECT_NE(m.output.find("8 runs"), std::string::npos) << m.output;
  // `sweep --shard env` reads the same two variables.
  Shell s =
      Sh("cd " + dir_ + " && JOB_COMPLETION_INDEX=1 REPARTSIM_SHARD_COUNT=2 " +
         std::string(REPARTSIM_BINARY) + " sweep lib --seeds 0..1 --shard env -q --json e.json");
  ASSERT_EQ(s.exit_code, 0) << s.output;
  EXPECT_EQ(repartsim::testing::ReadSweep(dir_ + "/e.json").shard, "1/2");
  s = Sh("cd " + dir_ + " && env -u JOB_COMPLETION_INDEX " + std::string(REPARTSIM_BINARY) +
         " sweep lib --shard env");
  EXPECT_EQ(s.exit_code, 64);
  EXPECT_NE(s.output.find("--shard env needs JOB_COMPLETION_INDEX and REPARTSIM_SHARD_COUNT"),
            std::string::npos)
      << s.output;
}

// Issue 53: ci_sweep.sh (and run.sh) called $root/build/repartsim on $root/scenarios, so every
// repro line carried the sweeping machine's absolute paths. Now the script runs from the
// repository root with paths relative to it, says so, and a repro line copied from its report
// runs in another directory laid out as a clone (scenarios/ and build/repartsim, here links).
TEST_F(CiTest, ReproLinesRunAtTheRootOfAnotherClone) {
  const std::string binary = REPARTSIM_BINARY;
  ASSERT_EQ(binary.rfind(kRoot + "/", 0), 0u) << "the test expects the build inside the checkout";
  Shell s = Sh("cd " + dir_ + " && REPARTSIM=" + binary + " " + Script() +
               "shard 0 1 out --seeds 0..0 --tag n2");
  ASSERT_EQ(s.exit_code, 0) << s.output;
  EXPECT_EQ(s.output.rfind("repro lines below run from the root of a repartsim clone with " +
                               binary.substr(kRoot.size() + 1) + " built (here: " + kRoot + ")\n",
                           0),
            0u)
      << s.output;
  const std::string path = "scenarios/greptime/adopted_files_outrank_staging_writes.yaml";
  const std::string repro =
      binary.substr(kRoot.size() + 1) + " run " + path + " --seed 0 --profile greptime";
  const std::string report = ReadText(dir_ + "/out/sweep-greptime-0-of-1.json");
  EXPECT_NE(report.find("\"repro\": \"" + repro + "\""), std::string::npos) << report;
  EXPECT_EQ(report.find(kRoot), std::string::npos) << report;

  const std::string clone = dir_ + "/elsewhere/clone";
  const std::filesystem::path link = clone + "/" + binary.substr(kRoot.size() + 1);
  std::filesystem::create_directories(link.parent_path());
  std::filesystem::create_symlink(kRoot + "/scenarios", clone + "/scenarios");
  std::filesystem::create_symlink(binary, link);
  const Shell run = Sh("cd " + clone + " && " + repro);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("expect (greptime): violation: INV-NOOMIT"), std::string::npos)
      << run.output;
}

TEST_F(CiTest, ManifestsKeepTheirShardCountsConsistent) {
  const std::string workflow = ReadText(kRoot + "/.github/workflows/sweep.yml");
  const std::string shards = DigitsAfter(workflow, "SHARDS: ");
  ASSERT_FALSE(shards.empty()) << workflow;
  std::string list;  // "0, 1, 2, 3" from "shard: [0, 1, 2, 3]"
  for (int i = 0; i < std::stoi(shards); ++i) list += (i ? ", " : "") + std::to_string(i);
  EXPECT_NE(workflow.find("shard: [" + list + "]"), std::string::npos) << workflow;
  EXPECT_NE(workflow.find("bash tools/ci_sweep.sh shard ${{ matrix.shard }} \"$SHARDS\""),
            std::string::npos);
  EXPECT_NE(workflow.find("run: bash tools/ci_sweep.sh merge reports"), std::string::npos);
  EXPECT_NE(workflow.find("if: always()"), std::string::npos);

  const std::string job = ReadText(kRoot + "/tools/k8s/sweep-indexed-job.yaml");
  const std::string completions = DigitsAfter(job, "completions: ");
  ASSERT_FALSE(completions.empty()) << job;
  EXPECT_NE(job.find("completionMode: Indexed"), std::string::npos);
  EXPECT_NE(job.find("value: \"" + completions + "\""), std::string::npos);
  EXPECT_NE(job.find("[\"bash\", \"tools/ci_sweep.sh\", \"shard\", \"env\", \"" + completions +
                     "\", \"/reports\"]"),
            std::string::npos);
  const std::string merge = ReadText(kRoot + "/tools/k8s/sweep-merge-job.yaml");
  EXPECT_NE(merge.find("[\"bash\", \"tools/ci_sweep.sh\", \"merge\", \"/reports\"]"),
            std::string::npos);
}

}  // namespace ci_test
}  // namespace
