// Goal: file names a person did not choose with care reach every writer intact. A scenario path
// that is not UTF-8 (a Latin-1 0xE9) used to abort run --json, sweep (even without an output
// flag) and mutants --json with exit 134; a path with a space broke the choice file's header
// (replay refused its own file); a scenario name or path with control bytes reached the
// terminal raw.
// Method: copy a bundled scenario under such names into a scratch directory, run the built
// binary there, assert exit codes, the reports (read back by the campaign layer's reader) and
// the exact lines printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/utf8.h"
#include "tests/tools/cli_runner.h"
#include "tests/tools/sweep_reader.h"

namespace {
namespace hostile_paths_cli_test {

using repartsim::testing::CliOutcome;
using repartsim::testing::Has;
using repartsim::testing::ReadText;
using repartsim::testing::RunRepartsim;

const std::string kScenario = "/scenarios/crash/datanode_restart_writes.yaml";

// A scratch directory holding the bundled scenario as `dir/name`.
std::string WithScenario(const std::string& dir, const std::string& name) {
  const std::string root = repartsim::testing::FreshTestDir("hostile_paths");
  std::filesystem::create_directories(root + "/" + dir);
  std::filesystem::copy_file(std::string(REPARTSIM_SOURCE_DIR) + kScenario,
                             root + "/" + dir + "/" + name);
  return root;
}

TEST(HostilePathsCliTest, NonUtf8PathReachesRunSweepAndMutantsReports) {
  const std::string root = WithScenario("u", "caf\xe9.yaml");
  CliOutcome run = RunRepartsim("run u/$(printf 'caf\\351.yaml') --seed 0 --json r.json", root);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string json = ReadText(root + "/r.json");
  EXPECT_EQ(repartsim::sim::FirstInvalidUtf8(json), std::nullopt);
  EXPECT_TRUE(Has(json, "\"path\": \"u/caf\xef\xbf\xbd.yaml\"")) << json.substr(0, 400);

  CliOutcome sweep = RunRepartsim("sweep u --seeds 0..1 --quiet --json s.json --junit s.xml", root);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  repartsim::campaign::SweepReport report = repartsim::testing::ReadSweep(root + "/s.json");
  ASSERT_EQ(report.runs.size(), 2u);
  EXPECT_EQ(report.runs[0].path, "u/caf\xef\xbf\xbd.yaml");
  EXPECT_EQ(report.runs[1].outcome, "pass");
  // The rows and the resume find the runs under the file's own name.
  CliOutcome resume = RunRepartsim("sweep u --seeds 0..1 --quiet --resume s.json", root);
  ASSERT_EQ(resume.exit_code, 0) << resume.output;
  EXPECT_TRUE(Has(resume.output, "note: resumed from s.json: 2 finished runs kept, 0 to run"))
      << resume.output;
  EXPECT_TRUE(Has(resume.output, "== 1 passed, 0 failed, 0 skipped (scenario rows); 2 runs"))
      << resume.output;

  CliOutcome mutants = RunRepartsim(
      "mutants u --only per-group-indices --seeds-per-scenario 1 --explore-states 0 --quiet "
      "--json m.json",
      root);
  EXPECT_EQ(mutants.exit_code, 0) << mutants.output;
  const std::string mutants_json = ReadText(root + "/m.json");
  EXPECT_EQ(repartsim::sim::FirstInvalidUtf8(mutants_json), std::nullopt);
  EXPECT_TRUE(Has(mutants_json, "\"scenarios\": [\n   \"u/caf\xef\xbf\xbd.yaml\"\n  ]"))
      << mutants_json.substr(0, 400);
}

TEST(HostilePathsCliTest, PathWithSpacesReplaysFromItsChoiceFile) {
  const std::string root = WithScenario("a b", "r f.yaml");
  CliOutcome run = RunRepartsim("run 'a b/r f.yaml' --seed 0 --choices 'a b/x.choices'", root);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Has(run.output, "choices: a b/x.choices (replay: " + std::string(REPARTSIM_BINARY) +
                                  " replay 'a b/r f.yaml' --choices 'a b/x.choices')"))
      << run.output;
  EXPECT_TRUE(Has(ReadText(root + "/a b/x.choices"), "# scenario=\"a b/r f.yaml\" seed=0 "));
  CliOutcome replay = RunRepartsim("replay 'a b/r f.yaml' --choices 'a b/x.choices'", root);
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_TRUE(Has(replay.output, "replay: matches the recorded trace_hash")) << replay.output;
}

TEST(HostilePathsCliTest, ControlBytesInNamesAndPathsAreShownEscaped) {
  const std::string root = WithScenario("c", "x\x1by.yaml");
  const std::string yaml = root + "/c/x\x1by.yaml";
  std::string text = ReadText(yaml);
  const size_t name = text.find("\nname: ");
  ASSERT_NE(name, std::string::npos);
  text.replace(name + 7, text.find('\n', name + 1) - name - 7, "\"evil\\e[31mred\\x07\"");
  std::ofstream(yaml) << text;
  CliOutcome run = RunRepartsim("run c/$(printf 'x\\033y.yaml') --seed 0", root);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find('\x1b'), std::string::npos) << run.output;
  EXPECT_EQ(run.output.rfind("scenario evil\\x1b[31mred\\x07 (c/x\\x1by.yaml) profile=", 0), 0u)
      << run.output;
  EXPECT_TRUE(Has(run.output, " run $'c/x\\x1by.yaml' --seed 0 --profile reference")) << run.output;
  CliOutcome sweep = RunRepartsim("sweep c --seeds 0..0 --quiet -v", root);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  EXPECT_EQ(sweep.output.find('\x1b'), std::string::npos) << sweep.output;
  EXPECT_TRUE(Has(sweep.output, "\nevil\\x1b[31mred\\x07 reference pass ")) << sweep.output;
}

// Issue 54 (R4): as root, `--junit /dev/stdout` replaced the system's /dev/stdout with a
// regular file; as anyone else it failed. The report goes to this process's stdout.
TEST(HostilePathsCliTest, JunitToDevStdoutWritesToStdout) {
  const std::string root = WithScenario("s", "a.yaml");
  // Stdout redirected to a regular file, as in the report (a pipe was written in place).
  CliOutcome o = repartsim::testing::RunShell("cd " + root + " && " + REPARTSIM_BINARY +
                                              " sweep s --seeds 0..1 --quiet --junit /dev/stdout"
                                              " > out.txt 2>&1");
  ASSERT_EQ(o.exit_code, 0) << ReadText(root + "/out.txt");
  const std::string out = ReadText(root + "/out.txt");
  EXPECT_TRUE(Has(out, "\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=")) << out;
  EXPECT_TRUE(Has(out, "== 1 passed, 0 failed")) << out;
  EXPECT_TRUE(std::filesystem::is_symlink("/dev/stdout"));
}

}  // namespace hostile_paths_cli_test
}  // namespace
