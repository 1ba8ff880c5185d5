// Goal: no output of a verb replaces one of its inputs or a file it did not write, and one
// output that cannot be written does not cost the others. Before (issue 54): `run s.yaml
// --choices s.yaml`, `sweep s.yaml --json s.yaml`, `report r.json --html r.json`, `shrink
// g.yaml --out g.yaml` and `explore s.yaml --out s` overwrote their input (R5); `sweep --html
// s.html` clobbered an unrelated s-g1.html and `--json s-g1.html` was accepted (R6); a group
// page that could not be written lost the sweep's JSON and JUnit, and `run --html` lost --json
// (R7).
// Method: scratch copies of a bundled scenario and of a fixture that fails at seed 12, the
// built binary run on them, exit codes, first lines and the files left behind asserted.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/tools/cli_runner.h"

namespace {
namespace output_collisions_cli_test {

using repartsim::testing::CliOutcome;
using repartsim::testing::Has;
using repartsim::testing::ReadText;
using repartsim::testing::RunRepartsim;
namespace fs = std::filesystem;

std::string Scratch() {
  const std::string dir = repartsim::testing::FreshTestDir("collisions");
  fs::copy_file(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/crash/datanode_restart_writes.yaml",
                dir + "/s.yaml");
  fs::copy_file(std::string(REPARTSIM_SOURCE_DIR) + "/tests/data/scenarios/unsafe_reference.yaml",
                dir + "/u.yaml");
  return dir;
}

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(OutputCollisionsCliTest, AnOutputNamingAnInputIsRefused) {
  const std::string dir = Scratch();
  const std::string before = ReadText(dir + "/s.yaml");
  ASSERT_EQ(RunRepartsim("run s.yaml --seed 0 --json r.json", dir).exit_code, 0);
  const struct {
    std::string args, flag, path;
  } cases[] = {
      {"run s.yaml --seed 0 --choices s.yaml", "--choices", "s.yaml"},
      {"run s.yaml --seed 0 --trace ./s.yaml", "--trace", "./s.yaml"},
      {"sweep s.yaml --json s.yaml", "--json", "s.yaml"},
      {"sweep . --seeds 0..0 --junit s.yaml", "--junit", "s.yaml"},
      {"report r.json --html r.json", "--html", "r.json"},
      {"shrink s.yaml --seed 0 --out s.yaml", "--out", "s.yaml"},
      {"explore s.yaml --out s", "--out", "s.yaml"},
      {"replay s.yaml --choices r.choices --trace r.choices", "--trace", "r.choices"},
      {"merge r.json --json r.json", "--json", "r.json"},
  };
  for (const auto& c : cases) {
    CliOutcome o = RunRepartsim(c.args, dir);
    EXPECT_EQ(o.exit_code, 64) << c.args << "\n" << o.output;
    EXPECT_TRUE(Has(FirstLine(o.output), "error: " + c.flag + " names an input file (" + c.path +
                                             "): writing it would overwrite what is read; "
                                             "choose another name"))
        << c.args << "\n"
        << o.output;
  }
  EXPECT_EQ(ReadText(dir + "/s.yaml"), before);
  // A resumed sweep may write its report back where it read it.
  ASSERT_EQ(RunRepartsim("sweep s.yaml --seeds 0..1 -q --json p.json", dir).exit_code, 0);
  CliOutcome resume =
      RunRepartsim("sweep s.yaml --seeds 0..1 -q --resume p.json --json p.json", dir);
  EXPECT_EQ(resume.exit_code, 0) << resume.output;
}

TEST(OutputCollisionsCliTest, GroupPagesAreRegisteredAndNeverClobberAForeignFile) {
  const std::string dir = Scratch();
  CliOutcome named =
      RunRepartsim("sweep u.yaml --seeds 12..12 -q --html s.html --json s-g1.html", dir);
  EXPECT_EQ(named.exit_code, 64) << named.output;
  EXPECT_TRUE(Has(FirstLine(named.output),
                  "error: --json s-g1.html has the name of a group page --html s.html may write "
                  "(s-g1.html, ...); choose another name"))
      << named.output;
  repartsim::testing::RunShell("echo mine > " + dir + "/s-g1.html");
  CliOutcome o = RunRepartsim("sweep u.yaml --seeds 12..12 -q --html s.html --json s.json", dir);
  EXPECT_EQ(o.exit_code, 1) << o.output;  // the violation decides; the refused page is reported
  EXPECT_TRUE(Has(o.output,
                  "s-g1.html: error: cannot write the report: the file exists and is "
                  "not a repartsim timeline page; move it or choose another --html"))
      << o.output;
  EXPECT_EQ(ReadText(dir + "/s-g1.html"), "mine\n");
  EXPECT_TRUE(fs::exists(dir + "/s.json"));
  EXPECT_FALSE(Has(ReadText(dir + "/s.html"), "s-g1.html"));
  EXPECT_TRUE(Has(ReadText(dir + "/s.html"), "s-g2.html"));
}

TEST(OutputCollisionsCliTest, AnOutputThatFailsDoesNotCostTheOthers) {
  const std::string dir = Scratch();
  fs::create_directories(dir + "/s-g1.html/x");  // a group page that cannot be written
  CliOutcome sweep =
      RunRepartsim("sweep u.yaml --seeds 12..12 -q --html s.html --json s.json --junit s.xml", dir);
  EXPECT_EQ(sweep.exit_code, 1) << sweep.output;
  EXPECT_TRUE(Has(sweep.output, "s-g1.html: error: cannot write the report: ")) << sweep.output;
  EXPECT_TRUE(fs::exists(dir + "/s.json")) << sweep.output;
  EXPECT_TRUE(fs::exists(dir + "/s.xml")) << sweep.output;
  EXPECT_TRUE(fs::exists(dir + "/s-g2.html")) << sweep.output;
  // A full device: the JSON is written first, and the other outputs still are.
  CliOutcome full =
      RunRepartsim("sweep s.yaml --seeds 0..0 -q --junit /dev/full --json t.json", dir);
  EXPECT_EQ(full.exit_code, 73) << full.output;
  EXPECT_TRUE(
      Has(full.output, "/dev/full: error: cannot write the report: No space left on device"))
      << full.output;
  EXPECT_TRUE(fs::exists(dir + "/t.json"));
  CliOutcome merge = RunRepartsim("merge t.json -q --junit /dev/full --json m.json", dir);
  EXPECT_EQ(merge.exit_code, 73) << merge.output;
  EXPECT_TRUE(fs::exists(dir + "/m.json")) << merge.output;
  CliOutcome run = RunRepartsim("run s.yaml --seed 0 --html /dev/full --json r.json", dir);
  EXPECT_EQ(run.exit_code, 73) << run.output;
  EXPECT_TRUE(Has(run.output, "/dev/full: error: cannot write the report: No space left on device"))
      << run.output;
  EXPECT_TRUE(fs::exists(dir + "/r.json")) << run.output;
}

}  // namespace output_collisions_cli_test
}  // namespace
