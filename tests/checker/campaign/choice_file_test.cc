// Goal: a choice file (checker/campaign/choice_file.h) names its run completely: the text of a
// real run's choices reads back as the same scenario, seed, profile, rules, trace hash and
// choice list; header words that are missing leave their fields empty; an unreadable header
// word and a broken choice list are located errors.
// Method: one bundled scenario run with a rule override, its ChoicesText parsed again.
#include "checker/campaign/choice_file.h"

#include <gtest/gtest.h>

#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::campaign {
namespace {
namespace choice_file_test {

TEST(ChoiceFileTest, ARunsChoicesReadBackWhole) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/stale_cache/raced_route_fill_kept.yaml");
  ASSERT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.seed = 3;
  config.rules = {{"fenced-reads", true}};
  auto run = run::RunScenario(s.value(), config);
  ASSERT_TRUE(run.ok());
  const std::string text = ChoicesText(run.value());
  EXPECT_EQ(text.rfind("# repartsim choices\n# scenario=" + s.value().path + " seed=3 profile=", 0),
            0u);
  auto file = ParseChoicesFile(text, "x.choices");
  ASSERT_TRUE(file.ok()) << file.error().Format();
  EXPECT_EQ(file.value().scenario, s.value().path);
  EXPECT_EQ(file.value().seed, 3u);
  EXPECT_EQ(file.value().profile, run.value().profile);
  EXPECT_EQ(file.value().trace_hash, run.value().summary.trace_hash);
  EXPECT_EQ(file.value().choices.ToText(), run.value().choices.ToText());
  EXPECT_EQ(run.value().rules, "fenced-reads=on");
  EXPECT_EQ(file.value().rules,
            (std::vector<std::pair<std::string, bool>>{{"fenced-reads", true}}));
}

TEST(ChoiceFileTest, MissingHeaderWordsLeaveFieldsEmpty) {
  auto file =
      ParseChoicesFile("# scenario=a.yaml rules=-\n" + sim::ChoiceList().ToText(), "x.choices");
  ASSERT_TRUE(file.ok()) << file.error().Format();
  EXPECT_EQ(file.value().scenario, "a.yaml");
  EXPECT_FALSE(file.value().seed.has_value());
  EXPECT_FALSE(file.value().trace_hash.has_value());
  EXPECT_FALSE(file.value().profile.has_value());
  EXPECT_TRUE(file.value().rules.empty());
  EXPECT_TRUE(file.value().choices.empty());

  auto broken = ParseChoicesFile("# scenario=a.yaml\nnot a choice list\n", "x.choices");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().location.file, "x.choices");
  EXPECT_EQ(broken.error().location.line, 2u);
}

// Issue 54 (R17): a choice file without a scenario in its header was refused at the command
// line, as a run "of scenario ''", with `replay '' --choices ...` as the suggested command.
TEST(ChoiceFileTest, AFileThatNamesNoScenarioIsALocatedError) {
  const std::string list = sim::ChoiceList().ToText();
  auto none = ParseChoicesFile("# repartsim choices\n# seed=1\n" + list, "x.choices");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().Format(),
            "x.choices:1:1: error: no header line '# scenario=PATH seed=N profile=P rules=R': a "
            "choice file names the run it records (run --choices writes one)");
  auto empty = ParseChoicesFile("# repartsim choices\n# scenario= seed=1\n" + list, "x.choices");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().Format(), "x.choices:2:12: error: the header's scenario= names no file");
  auto quoted = ParseChoicesFile("# scenario=\"\" seed=1\n" + list, "x.choices");
  ASSERT_FALSE(quoted.ok());
  EXPECT_EQ(quoted.error().Format(), "x.choices:1:12: error: the header's scenario= names no file");
}

TEST(ChoiceFileTest, UnreadableHeaderWordsAreLocatedErrors) {
  const std::string list = sim::ChoiceList().ToText();
  const auto error = [&](const std::string& header) {
    auto file = ParseChoicesFile("# repartsim choices\n" + header + "\n" + list, "x.choices");
    return file.ok() ? std::string("ok") : file.error().Format();
  };
  EXPECT_EQ(error("# scenario=a.yaml seed=-3"),
            "x.choices:2:24: error: seed must be an unsigned integer, got '-3'");
  EXPECT_EQ(error("# scenario=a.yaml seed=abc"),
            "x.choices:2:24: error: seed must be an unsigned integer, got 'abc'");
  EXPECT_EQ(error("# scenario=a.yaml trace_hash=0x12"),
            "x.choices:2:30: error: trace_hash must be 0x and 16 hex digits, got '0x12'");
  EXPECT_EQ(error("# scenario=a.yaml trace_hash=00112233445566778"),
            "x.choices:2:30: error: trace_hash must be 0x and 16 hex digits, got "
            "'00112233445566778'");
  EXPECT_EQ(error("# scenario=a.yaml rules=fenced-reads"),
            "x.choices:2:25: error: rules must be - or NAME=on|off,..., got 'fenced-reads'");
  EXPECT_EQ(error("# scenario=a.yaml rules=a=on,b=maybe"),
            "x.choices:2:25: error: rules must be - or NAME=on|off,..., got 'a=on,b=maybe'");
  EXPECT_EQ(error("# scenario=a.yaml seed=18446744073709551615 trace_hash=0x00000000000000ff"),
            "ok");
  // Issue 54 (R17): a file saved with CRLF line ends read its trace hash with the '\r'.
  auto crlf = ParseChoicesFile(
      "# repartsim choices\r\n# scenario=a.yaml seed=1 trace_hash=0x00000000000000ff\r\n" + list,
      "x.choices");
  ASSERT_TRUE(crlf.ok()) << crlf.error().Format();
  EXPECT_EQ(crlf.value().trace_hash, 0xffu);
  EXPECT_EQ(crlf.value().scenario, "a.yaml");
}

TEST(ChoiceFileTest, AScenarioPathWithSpacesQuotesOrNewlinesReadsBack) {
  const std::string list = sim::ChoiceList().ToText();
  for (const std::string path :
       {"a b/r f.yaml", "q\"uote\\d.yaml", "new\nline\t\x01.yaml", "caf\xe9 seed=9.yaml", "\"x"}) {
    const std::string header = "# scenario=" + HeaderValue(path) + " seed=7 rules=-\n";
    EXPECT_EQ(header.find('\n'), header.size() - 1) << path;
    auto file = ParseChoicesFile(header + list, "x.choices");
    ASSERT_TRUE(file.ok()) << file.error().Format();
    EXPECT_EQ(file.value().scenario, path);
    EXPECT_EQ(file.value().seed, 7u) << path;
  }
  EXPECT_EQ(HeaderValue("a/b.yaml"), "a/b.yaml");
  EXPECT_EQ(HeaderValue("a b.yaml"), "\"a b.yaml\"");
  EXPECT_EQ(HeaderValue("a\nb"), "\"a\\nb\"");
  auto open = ParseChoicesFile("# scenario=\"a b seed=1\n" + list, "x.choices");
  ASSERT_FALSE(open.ok());
  EXPECT_EQ(open.error().Format(),
            "x.choices:1:12: error: a quoted header value must end in '\"' before a space or the "
            "line's end, with escapes \\\" \\\\ \\n \\t \\xHH only");
}

TEST(ChoiceFileTest, ReadingRefusesADirectoryAndAnEndlessDevice) {
  auto dir = ReadChoicesFile(REPARTSIM_SOURCE_DIR);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().Format(),
            std::string(REPARTSIM_SOURCE_DIR) + ": error: is a directory, not a choice file");
  auto endless = ReadChoicesFile("/dev/zero");
  ASSERT_FALSE(endless.ok());
  EXPECT_EQ(endless.error().Format(),
            "/dev/zero: error: choice file is longer than the limit of 67108864 bytes");
}

TEST(ChoiceFileTest, AFileReplaysOnlyTheRunItRecorded) {
  ChoicesFile file;
  file.scenario = "a.yaml";
  file.profile = "greptime";
  file.rules = {{"fenced-reads", true}};
  EXPECT_FALSE(CheckChoicesFor(file, "c.choices", "shrink", "a.yaml", "", {}).has_value());
  EXPECT_FALSE(
      CheckChoicesFor(file, "c.choices", "shrink", "a.yaml", "greptime", {{"fenced-reads", true}})
          .has_value());
  auto scenario = CheckChoicesFor(file, "c.choices", "shrink", "b.yaml", "", {});
  ASSERT_TRUE(scenario.has_value());
  EXPECT_EQ(scenario->field, ChoicesMismatch::Field::kScenario);
  EXPECT_EQ(scenario->message,
            "c.choices records a run of scenario 'a.yaml', not 'b.yaml' (shrink: repartsim "
            "shrink a.yaml --choices c.choices)");
  file.scenario = "a b.yaml";  // the suggested command quotes what a shell would split
  EXPECT_EQ(CheckChoicesFor(file, "c d.choices", "replay", "b.yaml", "", {})->message,
            "c d.choices records a run of scenario 'a b.yaml', not 'b.yaml' (replay: repartsim "
            "replay 'a b.yaml' --choices 'c d.choices')");
  file.scenario = "a.yaml";
  auto profile = CheckChoicesFor(file, "c.choices", "replay", "a.yaml", "reference", {});
  ASSERT_TRUE(profile.has_value());
  EXPECT_EQ(profile->field, ChoicesMismatch::Field::kProfile);
  auto rules =
      CheckChoicesFor(file, "c.choices", "replay", "a.yaml", "", {{"fenced-reads", false}});
  ASSERT_TRUE(rules.has_value());
  EXPECT_EQ(rules->message, "c.choices records its own rule overrides; drop --rule");
  file.scenario.clear();  // a header without a scenario replays nothing
  EXPECT_TRUE(CheckChoicesFor(file, "c.choices", "replay", "a.yaml", "", {}).has_value());
}

TEST(ChoiceFileTest, ANameBecomesASafeFileNamePart) {
  EXPECT_EQ(FileNamePart("split-small_v1.2"), "split-small_v1.2");
  EXPECT_EQ(FileNamePart("../../etc/x"), "_.._.._etc_x");
  EXPECT_EQ(FileNamePart(".hidden"), "_.hidden");
  EXPECT_EQ(FileNamePart("a\nb\x1b[31mc d/"), "a_b__31mc_d_");
  EXPECT_EQ(FileNamePart(""), "_");
  EXPECT_EQ(FileNamePart(std::string(100, 'x')), std::string(64, 'x'));
  EXPECT_EQ(ChoicesPath("", "", "../n", "greptime", 1), "repartsim-_.._n-greptime-1.choices");
}

TEST(ChoiceFileTest, ThePathFollowsChoicesThenJsonThenTheRun) {
  EXPECT_EQ(ChoicesPath("c.txt", "r.json", "n", "greptime", 3), "c.txt");
  EXPECT_EQ(ChoicesPath("", "out/r.json", "n", "greptime", 3), "out/r.choices");
  EXPECT_EQ(ChoicesPath("", "r.report", "n", "greptime", 3), "r.report.choices");
  EXPECT_EQ(ChoicesPath("", "", "split", "reference", 18446744073709551615u),
            "repartsim-split-reference-18446744073709551615.choices");
}

}  // namespace choice_file_test
}  // namespace
}  // namespace repartsim::campaign
