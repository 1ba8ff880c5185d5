// Goal: the engine is deterministic end to end on the toy system: the same seed gives the
// same trace hash, a recorded choice list replays to the same trace line for line, different
// seeds give different traces, and both drivers run the same model.
// Method: 1,000 seeds run twice (hash only); a sample of seeds recorded, saved to a file,
// loaded and replayed with lines kept; counting distinct hashes against a fixed bound.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "sim/chooser.h"
#include "tools/demo/toy_demo.h"

namespace repartsim::demo {
namespace {
namespace toy_determinism_test {

constexpr uint64_t kSeedCount = 1000;

TEST(ToyDeterminismTest, SameSeedGivesSameHashFor1000Seeds) {
  std::set<uint64_t> distinct;
  uint64_t steps_total = 0;
  for (uint64_t seed = 1; seed <= kSeedCount; ++seed) {
    sim::RandomChooser a(seed);
    sim::RandomChooser b(seed);
    sim::Trace trace_a;
    sim::Trace trace_b;
    const ToyRunResult ra = RunToy(seed, a, trace_a);
    const ToyRunResult rb = RunToy(seed, b, trace_b);
    ASSERT_EQ(ra.run.summary, rb.run.summary) << ra.run.summary.ToString();
    ASSERT_EQ(ra.final_fingerprint, rb.final_fingerprint);
    distinct.insert(ra.run.summary.trace_hash);
    steps_total += ra.run.steps;
  }
  EXPECT_GE(distinct.size(), 990u);
  EXPECT_GT(steps_total, kSeedCount * 100);  // runs are not trivially short
}

TEST(ToyDeterminismTest, ReplayOfRecordedChoicesGivesTheSameTraceLines) {
  const std::string path = testing::TempDir() + "toy_replay_choices.txt";
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    sim::RandomChooser random(seed);
    sim::RecordingChooser recorder(random);
    sim::Trace original;
    original.KeepLines(true);
    const ToyRunResult ro = RunToy(seed, recorder, original);
    ASSERT_TRUE(recorder.list().Save(path).ok());
    sim::Result<sim::ChoiceList> loaded = sim::ChoiceList::Load(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
    sim::ReplayChooser replay(std::move(loaded).value());
    sim::Trace replayed;
    replayed.KeepLines(true);
    const ToyRunResult rr = RunToy(seed, replay, replayed);
    ASSERT_EQ(rr.run.outcome, ro.run.outcome);
    ASSERT_EQ(rr.run.summary, ro.run.summary);
    ASSERT_FALSE(sim::FirstDivergence(original.lines(), replayed.lines()).has_value());
    ASSERT_TRUE(replay.exhausted());
    ASSERT_EQ(original.lines().size(), original.line_count());
  }
  std::remove(path.c_str());
}

TEST(ToyDeterminismTest, ReplayUnderAChangedModelReportsNondeterminism) {
  sim::RandomChooser random(7);
  sim::RecordingChooser recorder(random);
  sim::Trace original;
  RunToy(7, recorder, original);
  ToyConfig changed;
  changed.faults.drop = sim::Ratio{1, 10};  // same labels, different ratio
  sim::ReplayChooser replay(recorder.list());
  sim::Trace replayed;
  const ToyRunResult r = RunToy(7, replay, replayed, sim::DriverKind::kTimed, changed);
  EXPECT_EQ(r.run.outcome, sim::RunOutcome::kNondeterminism);
  ASSERT_NE(replay.mismatch(), nullptr);
  EXPECT_EQ(r.run.nondeterminism, replay.mismatch()->message);
  EXPECT_EQ(r.run.nondeterminism.rfind("replay: choice #", 0), 0u);
  EXPECT_NE(r.run.nondeterminism.find("recorded 'chance net.drop 1/20', run asked "
                                      "'chance net.drop 1/10'"),
            std::string::npos)
      << r.run.nondeterminism;
}

TEST(ToyDeterminismTest, DifferentSeedsDivergeAndTheFirstDivergenceIsNamed) {
  sim::RandomChooser a(1);
  sim::RandomChooser b(2);
  sim::Trace ta;
  sim::Trace tb;
  ta.KeepLines(true);
  tb.KeepLines(true);
  RunToy(1, a, ta);
  RunToy(2, b, tb);
  const std::optional<sim::Divergence> d = sim::FirstDivergence(ta.lines(), tb.lines());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->line_a, ta.lines()[d->index]);
  EXPECT_NE(d->line_a, d->line_b);
  for (size_t i = 0; i < d->index; ++i) EXPECT_EQ(ta.lines()[i], tb.lines()[i]);
}

TEST(ToyDeterminismTest, UntimedDriverRunsTheSameModelDeterministically) {
  std::set<uint64_t> distinct;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    sim::RandomChooser a(seed);
    sim::RandomChooser b(seed);
    sim::Trace ta;
    sim::Trace tb;
    const ToyRunResult ra = RunToy(seed, a, ta, sim::DriverKind::kUntimed);
    const ToyRunResult rb = RunToy(seed, b, tb, sim::DriverKind::kUntimed);
    ASSERT_EQ(ra.run.summary, rb.run.summary);
    ASSERT_GT(ra.run.steps, 20u);
    distinct.insert(ra.run.summary.trace_hash);
  }
  EXPECT_GE(distinct.size(), 198u);
}

TEST(ToyDeterminismTest, UntimedRunReplaysFromItsChoiceList) {
  sim::RandomChooser random(3);
  sim::RecordingChooser recorder(random);
  sim::Trace original;
  original.KeepLines(true);
  const ToyRunResult ro = RunToy(3, recorder, original, sim::DriverKind::kUntimed);
  sim::ReplayChooser replay(recorder.list());
  sim::Trace replayed;
  replayed.KeepLines(true);
  const ToyRunResult rr = RunToy(3, replay, replayed, sim::DriverKind::kUntimed);
  EXPECT_EQ(rr.run.summary, ro.run.summary);
  EXPECT_EQ(replayed.lines(), original.lines());
}

}  // namespace toy_determinism_test
}  // namespace
}  // namespace repartsim::demo
