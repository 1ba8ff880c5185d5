// Goal: the trace line format, the documented hash chain, the summary string and
// FirstDivergence. Method: record known events and compare exact lines and hashes, the hash
// chain recomputed from the documented formula and pinned as a literal.
#include "sim/trace.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "sim/fingerprint.h"

namespace repartsim::sim {
namespace {
namespace trace_test {

TEST(TraceTest, LinesFollowTheDocumentedFormat) {
  Trace trace;
  trace.KeepLines(true);
  trace.SetClock(0, AtMs(0));
  trace.Record(3, "recv", Detail().Add("from", uint64_t{1}).Add("msg", "ping").view());
  trace.SetClock(7, AtMs(125));
  trace.Record(kNoNode, "heal");
  ASSERT_EQ(trace.lines().size(), 2u);
  EXPECT_EQ(trace.lines()[0], "0 0 n3 recv from=1 msg=ping");
  EXPECT_EQ(trace.lines()[1], "7 125 - heal");
  EXPECT_EQ(trace.line_count(), 2u);
  EXPECT_EQ(trace.last_line(), "7 125 - heal");
}

TEST(TraceTest, HashChainIsTheDocumentedFormulaAndIndependentOfTheSink) {
  Trace kept;
  kept.KeepLines(true);
  Trace bare;
  for (Trace* t : {&kept, &bare}) {
    t->SetClock(1, AtMs(5));
    t->Record(0, "tick");
    t->Record(1, "crash", "site=x");
  }
  uint64_t h = 0;
  h = Hasher().Add(h).Add("1 5 n0 tick").Finish();
  h = Hasher().Add(h).Add("1 5 n1 crash site=x").Finish();
  EXPECT_EQ(kept.hash(), h);
  EXPECT_EQ(bare.hash(), h);
  EXPECT_EQ(h, 0x2ec877f516f8d086ULL);
  EXPECT_TRUE(bare.lines().empty());
}

TEST(TraceTest, WriteToFileWritesNewlineTerminatedLines) {
  const std::string path = testing::TempDir() + "trace_test_out.txt";
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  Trace trace;
  trace.WriteTo(f);
  trace.Record(2, "a", "x=1");
  trace.Record(2, "b");
  std::fclose(f);
  f = std::fopen(path.c_str(), "r");
  char buf[64] = {};
  const size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
  std::fclose(f);
  std::remove(path.c_str());
  EXPECT_EQ(std::string(buf, n), "0 0 n2 a x=1\n0 0 n2 b\n");
}

TEST(TraceTest, DetailTruncatesInsteadOfOverflowing) {
  Detail d;
  const std::string long_value(500, 'v');
  d.Add("k", long_value);
  EXPECT_EQ(d.view().size(), 240u);
  EXPECT_EQ(d.view().back(), '~');
  d.Add("more", int64_t{1});
  EXPECT_EQ(d.view().size(), 240u);
  EXPECT_EQ(Detail().Add("a", int64_t{-5}).Word("w").Add("n\nl", "x").view(), "a=-5 w n l=x");
}

TEST(RunSummaryTest, ToStringIsTheDocumentedShape) {
  const RunSummary s{42, 1000, 2500, 0xabcULL};
  EXPECT_EQ(s.ToString(), "seed=42 steps=1000 prng_draws=2500 trace_hash=0x0000000000000abc");
}

TEST(FirstDivergenceTest, NamesTheFirstDifferingEvent) {
  EXPECT_FALSE(FirstDivergence({"a", "b"}, {"a", "b"}).has_value());
  const auto d = FirstDivergence({"a", "b", "c"}, {"a", "x", "c"});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->index, 1u);
  EXPECT_EQ(d->ToString(), "first divergence at event #1:\n  a: b\n  b: x");
  const auto shorter = FirstDivergence({"a"}, {"a", "z"});
  ASSERT_TRUE(shorter.has_value());
  EXPECT_EQ(shorter->index, 1u);
  EXPECT_EQ(shorter->line_a, "<end of trace>");
  EXPECT_EQ(shorter->line_b, "z");
}

}  // namespace trace_test
}  // namespace
}  // namespace repartsim::sim
