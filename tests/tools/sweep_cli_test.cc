// Goal: the CI-facing verbs give honest answers (issue 18 items 1, 2, 7, 8, 10, 11, 13; issue
// 19 items 3 and 6): merge keeps every profile, refuses mixed binaries, repeated and missing
// shards and malformed reports with a located error; repro commands carry rule overrides;
// numeric flags are checked; `-` means stdout; a rejected scripted DDL fails the run; a dead
// worker gives unrun runs and exit 70; SIGTERM writes the finished runs and --resume
// continues; output paths are checked before any run; a full disk is exit 73.
// Method: run the built binary through popen in a scratch directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "tests/paths.h"
#include "tests/tools/cli_runner.h"
#include "tests/tools/sweep_reader.h"

namespace {
namespace sweep_cli_test {

using Outcome = repartsim::testing::CliOutcome;

const std::string kRoot = REPARTSIM_SOURCE_DIR;
const std::string kCrash = kRoot + "/scenarios/crash/datanode_restart_writes.yaml";
const std::string kDefect = kRoot + "/tests/data/scenarios/unsafe_reference.yaml";
const std::string kRejected = kRoot + "/tests/data/scenarios/rejected_merge.yaml";

std::string Scratch() {
  std::string dir = std::filesystem::temp_directory_path().string() + "/repartsim_sweep_" +
                    std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

Outcome Cli(const std::string& args) { return repartsim::testing::RunRepartsim(args, Scratch()); }

using repartsim::campaign::SweepReport;
using repartsim::testing::Has;
using repartsim::testing::ReplaceFirst;

std::string Read(const std::string& path) { return repartsim::testing::ReadText(path); }

SweepReport ReadReport(const std::string& name) {
  return repartsim::testing::ReadSweep(Scratch() + "/" + name);
}

void Write(const std::string& name, const std::string& text) {
  std::ofstream(Scratch() + "/" + name) << text;
}

// Only the binary's stdout (stderr discarded).
Outcome StdoutOnly(const std::string& args) {
  return repartsim::testing::RunRepartsim(args, Scratch(), /*stderr_too=*/false);
}

TEST(SweepCliTest, MergeKeepsEveryProfileInAnyOrder) {
  // Before: runs were de-duplicated by (path, seed), so the second profile's rows vanished.
  ASSERT_EQ(Cli("sweep " + kCrash + " --seeds 0..2 --profile reference -q --json r.json").exit_code,
            0);
  ASSERT_EQ(Cli("sweep " + kCrash + " --seeds 0..2 --profile greptime -q --json g.json").exit_code,
            0);
  Outcome m = Cli("merge g.json r.json --json m1.json --junit m1.xml");
  ASSERT_EQ(m.exit_code, 0) << m.output;
  EXPECT_TRUE(Has(m.output, "merged 2 reports (2 sweeps, every shard once): 6 runs")) << m.output;
  ASSERT_EQ(Cli("merge r.json g.json --json m2.json").exit_code, 0);
  const SweepReport a = ReadReport("m1.json"), b = ReadReport("m2.json");
  ASSERT_EQ(a.scenarios.size(), 2u);
  EXPECT_EQ(a.runs.size(), 6u);
  std::set<std::string> profiles;
  for (const auto& s : a.scenarios) profiles.insert(s.profile);
  EXPECT_EQ(profiles, (std::set<std::string>{"greptime", "reference"}));
  EXPECT_EQ(b.runs.size(), 6u);
  EXPECT_EQ(a.sweep_id, b.sweep_id);
  EXPECT_TRUE(Has(Read(Scratch() + "/m1.xml"), "tests=\"2\" failures=\"0\""));
  EXPECT_TRUE(a.binary_id.rfind("0x", 0) == 0);
  EXPECT_TRUE(a.scenarios[0].hash.rfind("0x", 0) == 0);
}

TEST(SweepCliTest, AMixedProfileShardedRuleOverriddenSweepMergesTheSameInAnyOrder) {
  const std::string base = "sweep " + kDefect + " " + kCrash + " --seeds 10..13 -q";
  for (int i = 0; i < 2; ++i) {
    const std::string shard = " --shard " + std::to_string(i) + "/2";
    Outcome r = Cli(base + " --profile reference --rule fenced-reads=off" + shard + " --json r" +
                    std::to_string(i) + ".json");
    ASSERT_NE(r.exit_code, 64) << r.output;
    Outcome g =
        Cli(base + " --profile greptime" + shard + " --json g" + std::to_string(i) + ".json");
    ASSERT_NE(g.exit_code, 64) << g.output;
  }
  Outcome a = Cli("merge g1.json r0.json g0.json r1.json --json a.json --junit a.xml");
  Outcome b = Cli("merge r1.json g0.json r0.json g1.json --json b.json --junit b.xml");
  EXPECT_EQ(a.exit_code, b.exit_code);
  EXPECT_EQ(a.exit_code, 1) << a.output;  // the defect fixture's INV-ACK is unexpected
  const SweepReport ja = ReadReport("a.json"), jb = ReadReport("b.json");
  // Each scenario row (path|profile|rules -> hash, expect, run count) and each run, in any order.
  auto rows = [](const SweepReport& j) {
    std::map<std::string, std::string> out;
    for (const auto& s : j.scenarios) {
      out[s.path + "|" + s.profile + "|" + s.rules] =
          s.hash + " " + s.expect + " " + std::to_string(j.tallies.at(s.Key()).runs);
    }
    return out;
  };
  auto runs = [](const SweepReport& j) {
    std::set<std::string> out;
    for (const auto& r : j.runs) {
      out.insert(r.Key() + " " + std::to_string(r.seed) + " " + r.outcome + " " + r.trace_hash);
    }
    return out;
  };
  EXPECT_EQ(rows(ja), rows(jb));
  EXPECT_EQ(runs(ja), runs(jb));
  EXPECT_EQ(ja.runs.size(), 16u);  // 2 scenarios x 4 seeds x 2 profiles, every shard once
  ASSERT_EQ(rows(ja).size(), 4u);
  EXPECT_EQ(ja.tallies.at(kCrash + "|reference|fenced-reads=off").runs, 4u);
  EXPECT_EQ(ja.tallies.at(kCrash + "|greptime|").runs, 4u);
  EXPECT_EQ(ja.groups.size(), jb.groups.size());
  EXPECT_TRUE(ja.complete);
  const std::string xa = Read(Scratch() + "/a.xml"), xb = Read(Scratch() + "/b.xml");
  EXPECT_TRUE(Has(xa, "tests=\"4\"")) << xa;
  EXPECT_EQ(std::count(xa.begin(), xa.end(), '\n'), std::count(xb.begin(), xb.end(), '\n'));
  EXPECT_TRUE(Has(a.output, "--profile reference --rule fenced-reads=off")) << a.output;
}

TEST(SweepCliTest, MergeRefusesMissingRepeatedAndForeignShards) {
  ASSERT_EQ(Cli("sweep " + kCrash + " --seeds 0..3 --shard 0/2 -q --json s0.json").exit_code, 0);
  ASSERT_EQ(Cli("sweep " + kCrash + " --seeds 0..3 --shard 1/2 -q --json s1.json").exit_code, 0);
  Outcome o = Cli("merge s0.json");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output,
                  "is missing shard 1/2 (have s0.json (0/2)); merge needs every shard "
                  "exactly once"))
      << o.output;
  o = Cli("merge s0.json s1.json s0.json");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "is given twice (also s0.json)")) << o.output;
  o = Cli("merge s1.json s0.json");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(Has(o.output, "merged 2 reports (1 sweep, every shard once): 4 runs")) << o.output;
  Write("s1-other.json", ReplaceFirst(Read(Scratch() + "/s1.json"),
                                      "\"id\": \"" + ReadReport("s1.json").binary_id + "\"",
                                      "\"id\": \"0x0000000000000001\""));
  o = Cli("merge s0.json s1-other.json");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output.rfind("s1-other.json:", 0), 0u) << o.output;
  EXPECT_TRUE(Has(o.output, "merge reports of one binary")) << o.output;
}

TEST(SweepCliTest, MergeRefusesAMalformedReportWithALocatedErrorInsteadOfAborting) {
  ASSERT_EQ(Cli("sweep " + kCrash + " --seeds 0..1 -q --json ok.json").exit_code, 0);
  const std::string ok = Read(Scratch() + "/ok.json");
  Write("bad.json", ReplaceFirst(ok, "\"expect\": \"pass\"", "\"expect\": \"flaky\""));
  Outcome o = Cli("merge bad.json");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output.rfind("bad.json:", 0), 0u) << o.output;
  EXPECT_TRUE(Has(o.output,
                  ": error: scenarios[0].expect: 'expect' must be 'pass' or "
                  "'violation: INV-...', got 'flaky'\n"))
      << o.output;
  Write("bad.json", ReplaceFirst(ok, "\"seed\": 1,", "\"seed\": -1,"));  // runs[1]: seed 1
  o = Cli("merge bad.json");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "runs[1].seed: 'seed' must be a non-negative integer, got -1"))
      << o.output;
}

// Issue 54 (R18): a key repeated in one object of a report was read as its last value without
// a word (nlohmann keeps the last): a seed edited in by hand merged as a run nobody ran.
TEST(SweepCliTest, MergeAndReportRefuseAKeyRepeatedInOneObject) {
  ASSERT_EQ(Cli("sweep " + kCrash + " --seeds 0..1 -q --json ok.json").exit_code, 0);
  const std::string ok = Read(Scratch() + "/ok.json");
  Write("dup.json", ReplaceFirst(ok, "\"seed\": 1,", "\"seed\": 1, \"seed\": 7,"));
  Outcome o = Cli("merge dup.json");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(o.output.rfind("dup.json:", 0), 0u) << o.output;
  EXPECT_TRUE(Has(o.output,
                  ": error: runs[1].seed: the key \"seed\" appears twice in one "
                  "object (JSON would keep only the last)\n"))
      << o.output;
  ASSERT_EQ(Cli("run " + kCrash + " --seed 0 --json run.json").exit_code, 0);
  Write("rdup.json", ReplaceFirst(Read(Scratch() + "/run.json"), "\"summary\": {",
                                  "\"summary\": {\"seed\": 3, "));
  o = Cli("report rdup.json --html out.html");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output,
                  ": error: summary.seed: the key \"seed\" appears twice in one "
                  "object (JSON would keep only the last)\n"))
      << o.output;
}

TEST(SweepCliTest, SweepRecordsRuleOverridesInRowsAndRepros) {
  Outcome o = Cli("sweep " + kDefect + " --rule fenced-reads=on -q --json d.json --junit d.xml");
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_TRUE(Has(o.output, "repartsim run " + kDefect +
                                " --seed 12 --profile reference --rule fenced-reads=on"))
      << o.output;
  const SweepReport j = ReadReport("d.json");
  EXPECT_EQ(j.rules, "fenced-reads=on");
  ASSERT_FALSE(j.scenarios.empty());
  ASSERT_FALSE(j.runs.empty());
  EXPECT_EQ(j.scenarios[0].rules, "fenced-reads=on");
  EXPECT_EQ(j.runs[0].rules, "fenced-reads=on");
  EXPECT_TRUE(Has(Read(Scratch() + "/d.xml"), "--rule fenced-reads=on"));
  EXPECT_TRUE(Has(o.output, "UNEXPECTED INV-ACK")) << o.output;
}

TEST(SweepCliTest, NumericFlagsAreCheckedWithALocatedError) {
  // Before: 0..-1 aborted with std::bad_alloc (exit 134), 0..4294967296 grew to 16 GB, and
  // run --seed -1 ran seed 2^64-1.
  Outcome o = Cli("sweep " + kCrash + " --seeds 0..-1");
  EXPECT_EQ(o.exit_code, 64);
  const std::string column = std::to_string(kCrash.size() + 16);
  EXPECT_EQ(o.output, "<command line>:1:" + column +
                          ": error: --seeds expects A..B with 0 <= A <= B < 2^64, got '0..-1'\n");
  o = Cli("sweep " + kCrash + " --seeds 0..4294967296");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(
      o.output.rfind("<command line>:1:" + column + ": error: sweep of more than 1000000 runs", 0),
      0u)
      << o.output;
  o = Cli("run " + kCrash + " --seed -1");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output, "error: --seed expects a non-negative integer below 2^64, got '-1'"))
      << o.output;
  EXPECT_EQ(o.output.rfind("<command line>:1:", 0), 0u);
  o = Cli("sweep " + kCrash + " --shard 2/2");
  EXPECT_EQ(o.exit_code, 64);
}

// Issue 54 (R17): a scenario's own `seeds:` too big for one sweep was located at the command
// line's scenario argument, not at the YAML; a --flag=VALUE at the first column; a shard count
// past 2^32 - 1 was refused with a rule it met (0 <= I < N).
TEST(SweepCliTest, SeedRangesAndShardsAreLocatedWhereTheyWereWritten) {
  Write("wide.yaml",
        "name: wide\ntable: \"CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, "
        "PRIMARY KEY (h))\"\nseeds: \"0..2000000\"\nexpect: {reference: pass}\n");
  Outcome o = Cli("sweep wide.yaml");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output,
            "wide.yaml:3:8: error: sweep of more than 1000000 runs (wide.yaml seeds 0..2000000); "
            "use a smaller --seeds range or split it with --shard\n");
  o = Cli("sweep wide.yaml --seeds=0..2000000");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output.rfind("<command line>:1:25: error: sweep of more than 1000000 runs", 0), 0u)
      << o.output;
  o = Cli("sweep wide.yaml --shard=0/4294967296");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(o.output,
            "<command line>:1:25: error: --shard expects I/N with 0 <= I < N <= 4294967295 (or "
            "env), got '0/4294967296'\n");
}

TEST(SweepCliTest, DashMeansStdoutAndTraceFormatNeedsTrace) {
  Outcome o = StdoutOnly("sweep " + kCrash + " --seeds 0..1 -q --json -");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(Scratch() + "/-"));
  repartsim::sim::Result<SweepReport> report = SweepReport::FromJson(o.output, "<stdout>");
  ASSERT_TRUE(report.ok()) << o.output;  // only the report, no text
  EXPECT_EQ(report.value().runs.size(), 2u);
  o = StdoutOnly("run " + kCrash + " --seed 1 --trace - --trace-format jsonl --choices t.choices");
  EXPECT_EQ(o.exit_code, 0);
  std::istringstream lines(o.output);
  std::string line;
  size_t count = 0;
  while (std::getline(lines, line)) {
    EXPECT_EQ(line.front(), '{') << line;  // only trace objects, no report text
    ++count;
  }
  EXPECT_GT(count, 10u);
  o = Cli("run " + kCrash + " --trace-format jsonl");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "error: --trace-format needs --trace FILE")) << o.output;
}

TEST(SweepCliTest, AnUnwritableDefaultChoiceFileDoesNotChangeTheVerdict) {
  // Before: a passing run in a read-only directory exited 64.
  Outcome o = repartsim::testing::RunRepartsim("run " + kCrash + " --seed 1", "/proc");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(Has(o.output,
                  "warning: repartsim-datanode-restart-writes-reference-1.choices: error: "
                  "cannot write the report: "))
      << o.output;
  o = repartsim::testing::RunRepartsim("run " + kCrash + " --seed 1 --json /proc/r.json", "/proc");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output, "error: cannot write /proc/r.json: ")) << o.output;
}

TEST(SweepCliTest, OutputPathsAreCheckedBeforeAnyRunAndAFullDiskIsExit73) {
  Outcome o = Cli("sweep " + kCrash + " --seeds 0..1 -q --json nosuchdir/x.json");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "error: cannot write nosuchdir/x.json: No such file or directory"))
      << o.output;
  EXPECT_FALSE(Has(o.output, "runs"));  // nothing ran
  o = Cli("sweep " + kCrash + " --seeds 0..1 -q --json /dev/full");
  EXPECT_EQ(o.exit_code, 73) << o.output;
  EXPECT_TRUE(Has(o.output, "/dev/full: error: cannot write the report: No space left on device"))
      << o.output;
  // Before: a trace that could not be written hid the run's report, choices and repro.
  o = Cli("run " + kCrash + " --seed 1 --trace /dev/full --choices t1.choices");
  EXPECT_EQ(o.exit_code, 73) << o.output;
  EXPECT_TRUE(Has(o.output, "violations: 0")) << o.output;
  EXPECT_TRUE(Has(o.output, "choices: t1.choices")) << o.output;
  EXPECT_TRUE(Has(o.output, "repro: " + std::string(REPARTSIM_BINARY) + " run ")) << o.output;
  EXPECT_TRUE(Has(o.output, "/dev/full: error: cannot write the report: No space left on device"));
  // A failing run keeps its own exit code.
  o = Cli("run " + kDefect + " --seed 12 --json /dev/full --choices d.choices");
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_TRUE(Has(o.output, "No space left on device"));
}

TEST(SweepCliTest, TwoOutputsOnOneFileAreRefusedBeforeAnyRun) {
  // Before: the JUnit report overwrote the JSON one (and run's --json, --trace, --choices).
  Outcome o = Cli("sweep " + kCrash + " --seeds 0..1 -q --json same.x --junit same.x");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "error: --junit names the same file as --json (same.x)")) << o.output;
  EXPECT_FALSE(std::filesystem::exists(Scratch() + "/same.x"));
  o = Cli("run " + kCrash + " --json r.x --choices ./sub/../r.x");
  EXPECT_EQ(o.exit_code, 64);
  o = Cli("run " + kCrash + " --json r.x --trace r.x");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "error: --json names the same file as --trace (r.x)")) << o.output;
  o = Cli("run " + kCrash + " --json - --trace -");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "error: --json - and --trace - cannot both write to stdout"))
      << o.output;
  o = Cli("sweep " + kCrash + " --seeds '' --profile reference");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "error: --seeds: must not be empty (leave the flag out instead)"))
      << o.output;
}

TEST(SweepCliTest, SweepOfADirectoryRecursesAndTagsFilter) {
  const std::string dir = Scratch() + "/tree";
  std::filesystem::create_directories(dir + "/a/b");
  std::filesystem::copy_file(kCrash, dir + "/a/b/crash.yaml",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(kDefect, dir + "/a/defect.yaml",
                             std::filesystem::copy_options::overwrite_existing);
  Outcome o = Cli("sweep tree --seeds 0..0 -q --json tree.json");
  EXPECT_EQ(ReadReport("tree.json").scenarios.size(), 2u) << o.output;
  o = Cli("sweep tree --seeds 0..0 -q --tag smoke --json smoke.json");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  const SweepReport j = ReadReport("smoke.json");
  ASSERT_EQ(j.scenarios.size(), 1u);
  EXPECT_EQ(j.scenarios[0].path, "tree/a/b/crash.yaml");
}

TEST(SweepCliTest, ARejectedScriptedDdlIsRefusedAtLoad) {
  // Before issue 36 the invalid MERGE was rejected and the run passed; before issue 53 it was
  // found only at run time (DDL-REJECTED, exit 1). The loader plans the scripted ALTERs against
  // the table's rule and refuses the file (split/repartition_refused_without_gc, which expects
  // its DDL-REJECTED, still shows the run-time path).
  Outcome o = Cli("run " + kRejected + " --seed 0");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output,
                  "rejected_merge.yaml:17:11: error: the scripted `ALTER TABLE cpu MERGE PARTITION "
                  "(a < 7, a >= 20)` is rejected against the table's rule at this step: Invalid "
                  "partition rule: partition expression 'a < 7' does not exist in table "
                  "greptime.public.cpu "
                  "(expect DDL-REJECTED if the scenario tests the rejection) (at steps)"))
      << o.output;
}

TEST(SweepCliTest, ADeadWorkerGivesUnrunRunsAndExit70NotNondeterminism) {
  Outcome o = repartsim::testing::RunRepartsim(
      "sweep " + kCrash + " --seeds 0..5 --jobs 2 -q --json dead.json --junit dead.xml",
      Scratch() + " && export REPARTSIM_TEST_KILL_WORKER=2");
  EXPECT_EQ(o.exit_code, 70) << o.output;
  EXPECT_TRUE(Has(o.output, "died: killed by signal 9")) << o.output;
  EXPECT_TRUE(Has(o.output, "2 of its runs never reported are marked unrun")) << o.output;
  EXPECT_TRUE(Has(o.output, "UNRUN 2 runs (the sweep was interrupted or a worker died)"))
      << o.output;
  EXPECT_TRUE(Has(o.output, "determinism re-check: 2 runs, 0 mismatches")) << o.output;
  const SweepReport j = ReadReport("dead.json");
  size_t unrun = 0;
  for (const auto& run : j.runs) {
    unrun += run.outcome == "unrun";
    EXPECT_EQ(run.path, kCrash);
  }
  EXPECT_EQ(unrun, 2u);
  EXPECT_TRUE(Has(Read(Scratch() + "/dead.xml"), "failures=\"1\""));
}

TEST(SweepCliTest, SigtermWritesTheFinishedRunsAndResumeContinues) {
  // The hook raises SIGTERM once 2 runs have finished; a run another worker finished meanwhile
  // (its result already in the pipe) is kept too, so the sweep stops after N >= 2 runs.
  Outcome o =
      repartsim::testing::RunRepartsim("sweep " + kCrash + " --seeds 0..5 -q --json part.json",
                                       Scratch() + " && export REPARTSIM_TEST_SIGNAL_AFTER=2");
  EXPECT_EQ(o.exit_code, 143) << o.output;
  const std::string kNote = "note: interrupted by Terminated after ";
  const size_t at = o.output.find(kNote);
  ASSERT_NE(at, std::string::npos) << o.output;
  const size_t finished = std::stoul(o.output.substr(at + kNote.size()));
  EXPECT_GE(finished, 2u);
  EXPECT_LT(finished, 6u);
  EXPECT_TRUE(Has(o.output, kNote + std::to_string(finished) + " of 6 runs")) << o.output;
  EXPECT_TRUE(Has(o.output, "; INTERRUPTED ==")) << o.output;
  SweepReport j = ReadReport("part.json");
  EXPECT_TRUE(j.interrupted);
  // Before: the interrupted report said complete, exit_code 0, its runs skipped, and merged
  // green. Its unfinished runs are unrun: the report and any merge of it fail (70).
  EXPECT_FALSE(j.complete);
  EXPECT_TRUE(Has(Read(Scratch() + "/part.json"), "\n \"exit_code\": 70,\n"));
  EXPECT_EQ(j.ExitCode(), 70);
  size_t unrun = 0;
  for (const auto& run : j.runs) unrun += run.outcome == "unrun";
  EXPECT_EQ(unrun, 6u - finished);
  o = Cli("merge part.json -q");
  EXPECT_EQ(o.exit_code, 70) << o.output;
  EXPECT_TRUE(Has(o.output, "UNRUN " + std::to_string(6u - finished) +
                                " runs (the sweep was interrupted or a worker died)"))
      << o.output;
  o = Cli("sweep " + kCrash + " --seeds 0..5 -q --json full.json --resume part.json");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(Has(o.output, "note: resumed from part.json: " + std::to_string(finished) +
                                " finished runs kept, " + std::to_string(6u - finished) +
                                " to run"))
      << o.output;
  j = ReadReport("full.json");
  EXPECT_FALSE(j.interrupted);
  EXPECT_EQ(j.runs.size(), 6u);
  for (const auto& run : j.runs) EXPECT_EQ(run.outcome, "pass");
  o = Cli("sweep " + kCrash + " --seeds 0..4 -q --resume part.json");
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_TRUE(Has(o.output, "is a report of another sweep")) << o.output;
}

TEST(SweepCliTest, ATimeBudgetSkipsTheRestAndKeepsScenariosLevel) {
  // Before: scenario after scenario, so with two scenarios and --time-budget 2s the first got
  // 286 runs and the second none. Now the k-th seed of every scenario runs before any
  // (k+1)-th: the two counts differ by at most one (one worker). How many runs fit in 2 s
  // depends on the machine (a loaded CI machine may run none); which ones run is pinned in
  // process by SweepPlanTest.ABudgetLeavesEveryScenarioSampledSeedMajor.
  const std::string kSplit = kRoot + "/scenarios/split/split_with_writers.yaml";
  Outcome o = Cli("sweep " + kCrash + " " + kSplit +
                  " --seeds 0..5000 --time-budget 2s --jobs 1 -q --json budget.json");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  const SweepReport j = ReadReport("budget.json");
  ASSERT_EQ(j.runs.size(), 10002u);
  uint64_t crash = 0, split = 0, skipped = 0;
  for (const auto& run : j.runs) {
    if (run.outcome == "skipped") {
      ++skipped;
      continue;
    }
    crash += run.path == kCrash;
    split += run.path == kSplit;
  }
  EXPECT_GT(skipped, 0u);
  EXPECT_EQ(crash + split + skipped, 10002u);
  EXPECT_LE(std::max(crash, split) - std::min(crash, split), 1u) << crash << " " << split;
}

TEST(SweepCliTest, AStopDuringStartUpStillWritesTheIncompleteReport) {
  Outcome o =
      repartsim::testing::RunRepartsim("sweep " + kCrash + " --seeds 0..3 -q --json start.json",
                                       Scratch() + " && export REPARTSIM_TEST_SIGNAL_AT_START=1");
  EXPECT_EQ(o.exit_code, 143) << o.output;
  const SweepReport j = ReadReport("start.json");
  EXPECT_TRUE(j.interrupted);
  EXPECT_FALSE(j.complete);
  ASSERT_EQ(j.runs.size(), 4u);
  for (const auto& run : j.runs) EXPECT_EQ(run.outcome, "unrun");
  EXPECT_EQ(j.ExitCode(), 70);
}

TEST(SweepCliTest, RunExplainsItsViolationsDecisiveFirst) {
  // Before: 20 INV-NOOMIT pushed the INV-ACK behind "... and 11 more", INV-ACK named only the
  // row (then the write, but not its region nor the event that lost the row), and the same
  // 12-line excerpt of every region's events repeated under every violation.
  Outcome o = Cli("run " + kDefect + " --seed 12 --choices d12.choices");
  EXPECT_EQ(o.exit_code, 1) << o.output;
  const size_t ack = o.output.find("\nINV-ACK at step ");
  const size_t omit = o.output.find("\nINV-NOOMIT at step ");
  ASSERT_NE(ack, std::string::npos) << o.output;
  EXPECT_LT(ack, omit);
  // Item 5: the query's frontend, route version and scanned regions; each write's frontend,
  // steps and accepting region; the lost row's last holder and the event that replaced its
  // data; a context of related events only (the query's own lines, not every region's).
  EXPECT_TRUE(Has(o.output,
                  "  note: query 26 from fe1 (issued at step 542, completed at step 550) "
                  "planned with route version 3 and scanned 4 regions (numbers 0, 1, 2, 3, "
                  "listed above)\n"))
      << o.output;
  EXPECT_TRUE(Has(o.output,
                  "  note: row (host='h2', ts=12, v=47, a=5): last accepted by region "
                  "4398046511104(1024, 0) on dn1 at step 168, which the query scanned; the first "
                  "event after that which dropped, replaced or lost that region's data: `211 4010 "
                  "n1 dn.region_op ApplyStagingManifest 4398046511104(1024, 0) Ok`\n"));
  EXPECT_TRUE(Has(o.output,
                  "  note: write 55 from fe1 (issued at step 537, acked at step 541) wrote "
                  "(host='h2', ts=12, v=99, a=5) into region 4398046511107(1024, 3) on dn1 "
                  "(accepted at step 538)\n"))
      << o.output;
  EXPECT_TRUE(Has(o.output,
                  "  note: row (host='h2', ts=12, v=47, a=5): last accepted by region "
                  "4398046511104(1024, 0) on dn1 at step 168; `211 4010 n1 dn.region_op "
                  "ApplyStagingManifest 4398046511104(1024, 0) Ok` moved its range to region "
                  "4398046511107(1024, 3); the first event after step 168 which dropped, "
                  "replaced or lost that region's data: `207 4008 n1 dn.region_op "
                  "ApplyStagingManifest 4398046511107(1024, 3) Ok`\n"))
      << o.output;
  EXPECT_TRUE(Has(o.output, "  note: the regions listed hold these rows in the final route\n"));
  EXPECT_TRUE(Has(o.output,
                  "  trace: 542 8787 n4 fe.query_plan id=26 table=1024 version=3 "
                  "regions=0,1,2,3\n"));
  // The query's context does not carry another query's lines, nor the write errors that
  // merely mention a region.
  const size_t second = o.output.find("\nINV-NOOMIT at step ", omit + 1);
  ASSERT_NE(second, std::string::npos);
  const std::string first_omit = o.output.substr(omit, second - omit);
  EXPECT_EQ(first_omit.find("op query id=27 "), std::string::npos) << first_omit;
  EXPECT_EQ(first_omit.find("error="), std::string::npos) << first_omit;
  EXPECT_TRUE(Has(o.output,
                  "... and 11 more violations: INV-NOOMIT 11 (see --json, or "
                  "--violations-max)\n"))
      << o.output;
  EXPECT_TRUE(Has(o.output, "violations: 21 (INV-NOOMIT 20, INV-ACK 1)\n"));
}

TEST(SweepCliTest, ReplayRefusesAChoiceFileOfAnotherScenarioOrProfile) {
  // Before: exit 3 (NONDETERMINISM) for what is a usage error.
  Outcome o = Cli("run " + kCrash + " --seed 3 --profile greptime");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  const std::string file = "repartsim-datanode-restart-writes-greptime-3.choices";
  ASSERT_TRUE(std::filesystem::exists(Scratch() + "/" + file)) << o.output;
  o = Cli("replay " + kDefect + " --choices " + file);
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output, "records a run of scenario '" + kCrash + "'")) << o.output;
  o = Cli("replay " + kCrash + " --choices " + file + " --profile reference");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output, "records a run under profile greptime, not reference")) << o.output;
  o = Cli("replay " + kCrash + " --choices " + file);
  EXPECT_EQ(o.exit_code, 0) << o.output;
}

}  // namespace sweep_cli_test
}  // namespace
