// Goal: the size limits (docs/limits.md) hold end to end in the repartsim binary: input
// beyond them exits 64 with a located error instead of crashing (deep SQL nesting used to
// overflow the stack, SIGSEGV, through check-rule -f, prune --where and a scenario's sql:
// step) or eating memory (a huge limits.time_ms_max used 12 GB, a 50 MB scenario 1.9 GB).
// Method: generate each input in a scratch directory, run the built binary (popen), assert
// the exit code and the exact first error line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli_runner.h"

namespace {
namespace limits_cli_test {

using Outcome = repartsim::testing::CliOutcome;

std::string Scratch() {
  std::string dir = std::filesystem::temp_directory_path().string() + "/repartsim_limits_" +
                    std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

Outcome Cli(const std::string& args) { return repartsim::testing::RunRepartsim(args, Scratch()); }

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = Scratch() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string Repeat(const std::string& piece, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += piece;
  return out;
}

const std::string kCreate =
    "CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h)) "
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10)";
const std::string kNested =
    "SELECT * FROM t WHERE " + Repeat("(", 5000) + "a = 1" + Repeat(")", 5000);
const std::string kNestedError =
    "error: expression nested too deeply: more than 128 levels of parentheses and NOT";

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(LimitsCliTest, CheckRuleFileWithDeepNestingExits64) {
  const std::string path = Write("deep.sql", kCreate + ";\n" + kNested + ";\n");
  Outcome o = Cli("check-rule -f " + path);
  EXPECT_EQ(o.exit_code, 64) << o.output.substr(0, 300);
  EXPECT_EQ(FirstLine(o.output), path + ":2:151: " + kNestedError);
}

TEST(LimitsCliTest, DeepNotChainsExit64) {
  // 30,000 NOTs: one command-line argument holds at most 128 KiB.
  Outcome o = Cli("prune \"" + kCreate + "\" --where \"" + Repeat("NOT ", 30000) + "a = 1\"");
  EXPECT_EQ(o.exit_code, 64) << o.output.substr(0, 300);
  EXPECT_EQ(FirstLine(o.output), "<--where>:1:513: " + kNestedError);
  const std::string path =
      Write("nots.sql", kCreate + "; SELECT * FROM t WHERE " + Repeat("NOT ", 100000) + "a = 1");
  o = Cli("check-rule -f " + path);
  EXPECT_EQ(o.exit_code, 64) << o.output.substr(0, 300);
  EXPECT_EQ(FirstLine(o.output),
            path + ":1:" + std::to_string(kCreate.size() + 537) + ": " + kNestedError);
}

TEST(LimitsCliTest, PruneWithTenThousandValueInListIsQuick) {
  std::string in = "a IN (0";
  for (int i = 1; i < 10000; ++i) in += ", " + std::to_string(i);
  const auto start = std::chrono::steady_clock::now();
  Outcome o = Cli("prune \"" + kCreate + "\" --where \"" + in + ")\"");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(o.exit_code, 0) << o.output.substr(0, 300);
  EXPECT_EQ(o.output, "candidate regions: 0, 1\n");
  EXPECT_LT(seconds, 20.0);  // minutes before the balanced conversion; well under 1 s now
}

std::string Scenario(const std::string& extra) {
  return "name: limits\ncluster: {datanodes: 2, frontends: 2}\ntable: \"" + kCreate + "\"\n" +
         extra + "expect: {reference: pass}\n";
}

TEST(LimitsCliTest, ScenarioSqlStepWithDeepNestingExits64) {
  const std::string path =
      Write("deep.yaml", Scenario("steps:\n  - at_ms: 2000\n    sql: \"" + kNested + "\"\n"));
  Outcome o = Cli("run " + path);
  EXPECT_EQ(o.exit_code, 64) << o.output.substr(0, 300);
  EXPECT_EQ(FirstLine(o.output), path + ":6:161: " + kNestedError + " (at steps[0].sql)");
}

TEST(LimitsCliTest, HugeTimeLimitExits64) {
  const std::string path = Write("time.yaml", Scenario("limits: {time_ms_max: 9999999999999}\n"));
  Outcome o = Cli("run " + path);
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(FirstLine(o.output), path +
                                     ":4:23: error: value 9999999999999 out of range [1000, "
                                     "3600000] (at limits.time_ms_max)");
}

TEST(LimitsCliTest, OversizedScenarioFileExits64) {
  std::string steps = "steps:\n";
  while (steps.size() <= (1u << 20)) steps += "  - {at_ms: 2000, sql: \"SELECT * FROM t\"}\n";
  const std::string path = Write("big.yaml", Scenario(steps));
  Outcome o = Cli("run " + path);
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(FirstLine(o.output).rfind(path + ": error: scenario file of ", 0), 0u) << o.output;
  EXPECT_NE(o.output.find("bytes exceeds the limit of 1048576 bytes"), std::string::npos);
}

TEST(LimitsCliTest, TooManyStepEntriesExits64) {
  std::string steps = "steps:\n";
  for (int i = 0; i <= 10000; ++i) steps += "  - {at_ms: 2000, crash: dn1}\n";
  const std::string path = Write("steps.yaml", Scenario(steps));
  Outcome o = Cli("run " + path);
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(FirstLine(o.output),
            path + ":5:3: error: too many entries: setup and steps hold at most 10000 (at steps)");
}

// Issue 54 (R9): a memory limit reached while reading an input was an abort (exit 134).
TEST(LimitsCliTest, OutOfMemoryIsReportedNotAnAbort) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "a sanitizer reserves more address space than the limit allows";
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer reserves more address space than the limit allows";
#endif
  Outcome o = repartsim::testing::RunShell("ulimit -v 400000 && " + std::string(REPARTSIM_BINARY) +
                                           " merge /dev/zero 2>&1");
  EXPECT_EQ(o.exit_code, 70) << o.output;
  EXPECT_EQ(FirstLine(o.output),
            "repartsim: error: out of memory (std::bad_alloc): the input needs more memory than "
            "this process may use");
}

// Skips under a sanitizer, which reserves more address space than the limits below allow.
bool UnderSanitizer() {
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return true;
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#endif
  return false;
}

// Issue 54 (R9): a report whose parsed tree does not fit the memory limit ran out of memory
// inside nlohmann's parser, and the noexcept destructor of the half-built tree allocated while
// unwinding: std::terminate, exit 134. Now the unwinding finds memory and the verb reports it.
TEST(LimitsCliTest, AReportTooBigForMemoryIsReportedNotAnAbort) {
  if (UnderSanitizer()) GTEST_SKIP() << "sanitizer address space";
  // 2,000,000 small run objects: 10 M values (within the bound), 44 MB of text, a tree of
  // about 500 MB.
  std::string text = "{\"runs\": [";
  for (int i = 0; i < 2'000'000; ++i)
    text += i == 0 ? "{\"path\":\"x\",\"seed\":1}" : ",{\"path\":\"x\",\"seed\":1}";
  text += "]}";
  const std::string path = Write("big_tree.json", text);
  text.clear();
  text.shrink_to_fit();
  Outcome o = repartsim::testing::RunShell("ulimit -v 400000 && " + std::string(REPARTSIM_BINARY) +
                                           " merge " + path + " 2>&1");
  EXPECT_EQ(o.exit_code, 70) << o.output;
  EXPECT_EQ(FirstLine(o.output),
            "repartsim: error: out of memory (std::bad_alloc): the input needs more memory than "
            "this process may use");
  std::filesystem::remove(path);
}

// Issue 54 (R9): the byte limit of a report does not bound its tree (a value of `[0,0,...]`
// is 2 bytes of text and 16 or more of tree), so the values and the nesting are counted
// before the parse: beyond them, a located error (exit 64) in a fraction of a second and
// without the memory, here under a limit the tree would not fit.
TEST(LimitsCliTest, AReportOfTooManyValuesIsRefusedBeforeItIsParsed) {
  if (UnderSanitizer()) GTEST_SKIP() << "sanitizer address space";
  std::string text = "[0";
  for (int i = 0; i < 4'500'000; ++i) text += ",0";
  text += "]";
  const std::string run_report = Write("tiny_values.json", text);
  Outcome o = repartsim::testing::RunShell("ulimit -v 100000 && " + std::string(REPARTSIM_BINARY) +
                                           " report " + run_report + " --html " + Scratch() +
                                           "/r.html 2>&1");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(FirstLine(o.output), run_report +
                                     ":1:9000000: error: run report holds more than 4500000 "
                                     "JSON values (keys included)");
  text.resize(1);
  for (int i = 0; i < 48'000'000; ++i) text += "0,";
  text += "0]";
  const std::string sweep_report = Write("tiny_values_sweep.json", text);
  text.clear();
  text.shrink_to_fit();
  o = repartsim::testing::RunShell("ulimit -v 400000 && " + std::string(REPARTSIM_BINARY) +
                                   " merge " + sweep_report + " 2>&1");
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(FirstLine(o.output), sweep_report +
                                     ":1:96000000: error: sweep report holds more than 48000000 "
                                     "JSON values (keys included)");
  std::filesystem::remove(sweep_report);
  o = Cli("merge " + Write("deep.json", Repeat("[", 33) + Repeat("]", 33)));
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_EQ(FirstLine(o.output), Scratch() +
                                     "/deep.json:1:33: error: sweep report nests objects and "
                                     "arrays deeper than 32 levels");
}

}  // namespace limits_cli_test
}  // namespace

namespace {
namespace limits_cli_test {

// A run's cost per step grows with the regions (1,000 regions: seconds per run, growing
// about n^2): the table and the targets of its ALTER steps are bounded.
TEST(LimitsCliTest, TooManyRegionsExits64) {
  std::string table =
      "CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h)) "
      "PARTITION ON COLUMNS (a) (a < 0";
  for (int i = 0; i < 256; ++i) table += ", a = " + std::to_string(i);
  table += ", a > 255)";
  const std::string path =
      Write("regions.yaml", "name: r\ntable: \"" + table + "\"\nexpect: {reference: pass}\n");
  Outcome o = Cli("run " + path);
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(FirstLine(o.output),
            path + ":2:8: error: the table has 258 regions, more than the limit of 256 (at table)");

  std::string steps = "steps:\n";
  for (int i = 0; i < 128; ++i) {
    steps +=
        "  - {at_ms: 2000, sql: \"ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 "
        "AND a < 10)\"}\n";
  }
  const std::string split = Write("splits.yaml", Scenario(steps));
  o = Cli("run " + split);
  EXPECT_EQ(o.exit_code, 64);
  EXPECT_EQ(FirstLine(o.output),
            split +
                ":132:25: error: the table may reach 258 regions by this step, more than the "
                "limit of 256 (counting every target of every ALTER) (at steps)");
}

}  // namespace limits_cli_test
}  // namespace
