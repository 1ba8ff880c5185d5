// Goal: the Chooser contract (forced decisions cost nothing), the random/recording/replay
// drivers, and the ChoiceList text format with every load error pinned (file:line:col).
// Method: record a random sequence, save/load it through a temp file, replay it and compare
// answers; then replay mismatching requests and malformed files and check exact messages.
#include "sim/chooser.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <vector>

namespace repartsim::sim {
namespace {
namespace chooser_test {

// Issues a fixed mix of decisions and returns the answers.
std::vector<uint32_t> Ask(Chooser& c) {
  std::vector<uint32_t> out;
  for (int i = 0; i < 50; ++i) {
    out.push_back(c.Choose("sched.next", 5));
    out.push_back(c.Chance("net.drop", Ratio{1, 3}) ? 1 : 0);
    out.push_back(c.Choose("forced", 1));
    out.push_back(c.Chance("never", Ratio::Never()) ? 1 : 0);
  }
  return out;
}

TEST(ChooserTest, ForcedDecisionsConsumeNoChoiceAndNoDraw) {
  RandomChooser c(1);
  EXPECT_EQ(c.Choose("x", 1), 0u);
  EXPECT_FALSE(c.Chance("x", Ratio::Never()));
  EXPECT_TRUE(c.Chance("x", Ratio::Always()));
  EXPECT_EQ(c.choice_count(), 0u);
  EXPECT_EQ(c.draw_count(), 0u);
  c.Choose("x", 2);
  EXPECT_EQ(c.choice_count(), 1u);
  EXPECT_EQ(c.draw_count(), 1u);
}

TEST(ChooserTest, RandomChooserIsReproducibleFromItsSeed) {
  RandomChooser a(77);
  RandomChooser b(77);
  RandomChooser other(78);
  EXPECT_EQ(Ask(a), Ask(b));
  EXPECT_NE(Ask(a), Ask(other));
}

TEST(ChooserTest, RandomChooserDrawsFromOneDocumentedStreamPerDomain) {
  RandomChooser chooser(99);
  Prng net(99 ^ RandomChooser::DomainKey("net"));
  Prng sched(99 ^ RandomChooser::DomainKey("sched.next"));
  EXPECT_EQ(RandomChooser::DomainKey("net.drop"), RandomChooser::DomainKey("net"));
  EXPECT_NE(RandomChooser::DomainKey("net.drop"), RandomChooser::DomainKey("sched.next"));
  EXPECT_EQ(chooser.Choose("net.delay_ms", 1000), net.Below(1000));
  EXPECT_EQ(chooser.Choose("sched.next", 1000), sched.Below(1000));
  EXPECT_EQ(chooser.Chance("net.drop", Ratio{1, 2}), net.Below(2) < 1);
  EXPECT_EQ(chooser.draw_count(), 3u);
}

TEST(ChooserTest, ExtraDrawsInOneDomainDoNotReshuffleAnother) {
  RandomChooser plain(4);
  RandomChooser noisy(4);
  for (int i = 0; i < 100; ++i) {
    noisy.Choose("cache.stale", 3);  // a subsystem that only the noisy run has
    ASSERT_EQ(plain.Choose("net.delay_ms", 50), noisy.Choose("net.delay_ms", 50));
  }
  EXPECT_EQ(noisy.draw_count(), 200u);
}

TEST(ChooserTest, RecordSaveLoadReplayGivesTheSameAnswers) {
  RandomChooser random(5);
  RecordingChooser recorder(random);
  const std::vector<uint32_t> answers = Ask(recorder);
  EXPECT_EQ(recorder.list().size(), 100u);
  EXPECT_EQ(recorder.choice_count(), 100u);
  const std::string path = testing::TempDir() + "chooser_test_choices.txt";
  ASSERT_TRUE(recorder.list().Save(path).ok());
  Result<ChoiceList> loaded = ChoiceList::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
  EXPECT_EQ(loaded.value(), recorder.list());
  ReplayChooser replay(std::move(loaded).value());
  EXPECT_EQ(Ask(replay), answers);
  EXPECT_EQ(replay.mismatch(), nullptr);
  EXPECT_TRUE(replay.exhausted());
  EXPECT_EQ(replay.draw_count(), random.draw_count());
  std::remove(path.c_str());
}

TEST(ChooserTest, TextFormatIsDocumentedShape) {
  ChoiceList list;
  list.AddChoose("sched.next", 3, 2);
  list.AddChance("net.drop", Ratio{1, 20}, true);
  EXPECT_EQ(list.ToText(), "repartsim-choices 1\nchoose sched.next 3 2\nchance net.drop 1/20 1\n");
  Result<ChoiceList> parsed = ChoiceList::Parse(
      "# comment\n\nrepartsim-choices 1\r\n  choose sched.next 3 2\n"
      "chance net.drop 1/20 1",
      "f");
  ASSERT_TRUE(parsed.ok()) << parsed.error().Format();
  EXPECT_EQ(parsed.value(), list);
}

TEST(ChooserTest, ReplayReportsMismatchNamingTheChoiceIndex) {
  ChoiceList list;
  list.AddChoose("a", 3, 2);
  list.AddChance("b", Ratio{1, 2}, true);
  ReplayChooser replay(list);
  EXPECT_EQ(replay.Choose("a", 3), 2u);
  EXPECT_FALSE(replay.Chance("b", Ratio{1, 3}));
  ASSERT_NE(replay.mismatch(), nullptr);
  EXPECT_EQ(replay.mismatch()->choice_index, 1u);
  EXPECT_EQ(replay.mismatch()->message,
            "replay: choice #1 differs: recorded 'chance b 1/2', run asked 'chance b 1/3'");
  // Later answers are neutral and the first mismatch is kept.
  EXPECT_EQ(replay.Choose("zzz", 4), 0u);
  EXPECT_EQ(replay.mismatch()->choice_index, 1u);
}

TEST(ChooserTest, ReplayReportsListEnd) {
  ChoiceList list;
  list.AddChoose("a", 3, 1);
  ReplayChooser replay(list);
  EXPECT_EQ(replay.Choose("a", 3), 1u);
  EXPECT_EQ(replay.Choose("a", 4), 0u);
  ASSERT_NE(replay.mismatch(), nullptr);
  EXPECT_EQ(replay.mismatch()->message,
            "replay: choice #1 (choose a 4) requested after the recorded list ended at 1 choices");
  ChoiceList other;
  other.AddChoose("a", 3, 1);
  ReplayChooser wrong_label(other);
  wrong_label.Choose("b", 3);
  EXPECT_EQ(wrong_label.mismatch()->message,
            "replay: choice #0 differs: recorded 'choose a 3', run asked 'choose b 3'");
}

TEST(ChooserTest, RecordingForwardsReplayMismatch) {
  ReplayChooser replay{ChoiceList{}};
  RecordingChooser recorder(replay);
  recorder.Choose("a", 2);
  ASSERT_NE(recorder.mismatch(), nullptr);
  EXPECT_EQ(recorder.mismatch()->choice_index, 0u);
}

TEST(ChoiceListTest, LoadErrorsArePinnedWithLineAndColumn) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "c.txt:1:1: error: choices: expected header 'repartsim-choices 1'"},
      {"repartsim-choices 2\n", "c.txt:1:1: error: choices: expected header 'repartsim-choices 1'"},
      {"repartsim-choices 1\npick a 2 1\n",
       "c.txt:2:1: error: choices: unknown entry kind 'pick' (expected choose or chance)"},
      {"repartsim-choices 1\nchoose a 2\n", "c.txt:2:11: error: choices: expected 4 fields, got 3"},
      {"repartsim-choices 1\nchoose a 2 1 x\n", "c.txt:2:14: error: choices: unexpected text 'x'"},
      {"repartsim-choices 1\nchoose a#b 2 1\n", "c.txt:2:8: error: choices: invalid label 'a#b'"},
      {"repartsim-choices 1\nchoose a 2 -1\n",
       "c.txt:2:12: error: choices: expected a value, got '-1'"},
      {"repartsim-choices 1\nchoose a 1 0\n",
       "c.txt:2:10: error: choices: expected an option count >= 2, got '1'"},
      {"repartsim-choices 1\n\nchoose a 3 3\n",
       "c.txt:3:12: error: choices: value 3 out of range for 3 options"},
      {"repartsim-choices 1\nchance a 1/0 1\n",
       "c.txt:2:12: error: choices: ratio: denominator must be positive in '1/0'"},
      {"repartsim-choices 1\nchance a 1 1\n",
       "c.txt:2:10: error: choices: chance ratio must be strictly between 0 and 1, got '1'"},
      {"repartsim-choices 1\nchance a 1/2 2\n",
       "c.txt:2:14: error: choices: chance value must be 0 or 1, got 2"},
  };
  for (const auto& [text, message] : cases) {
    Result<ChoiceList> r = ChoiceList::Parse(text, "c.txt");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().Format(), message) << text;
  }
}

TEST(ChoiceListTest, LoadOfMissingFileIsAnError) {
  Result<ChoiceList> r = ChoiceList::Load("/nonexistent/choices.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Format(),
            "/nonexistent/choices.txt: error: cannot read choice file: No such file or directory");
}

TEST(ChoiceListTest, TruncateKeepsAPrefix) {
  ChoiceList list;
  list.AddChoose("a", 2, 0);
  list.AddChoose("a", 2, 1);
  list.Truncate(1);
  EXPECT_EQ(list.size(), 1u);
  EXPECT_EQ(list.at(0).value, 0u);
}

}  // namespace chooser_test
}  // namespace
}  // namespace repartsim::sim
