// Goal: EventQueue orders by (time, seq), exposes pending entries in that order for untimed
// drivers, and behaves as a value (copies are independent snapshots).
// Method: push in scrambled order, check Pop/At/PopAt/RemoveIf results exactly, then stress
// against a reference sort over many pushes and pops (exercises head compaction).
#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/prng.h"

namespace repartsim::sim {
namespace {
namespace event_queue_test {

std::vector<int> Drain(EventQueue<int>& q) {
  std::vector<int> out;
  while (!q.empty()) out.push_back(q.Pop().payload);
  return out;
}

TEST(EventQueueTest, PopsByTimeThenInsertionOrder) {
  EventQueue<int> q;
  EXPECT_EQ(q.Push(AtMs(30), 1), 0u);
  EXPECT_EQ(q.Push(AtMs(10), 2), 1u);
  EXPECT_EQ(q.Push(AtMs(30), 3), 2u);
  EXPECT_EQ(q.Push(AtMs(10), 4), 3u);
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(q.Top().payload, 2);
  EXPECT_EQ(q.Top().at.ms, 10);
  EXPECT_EQ(Drain(q), (std::vector<int>{2, 4, 1, 3}));
}

TEST(EventQueueTest, AtAndPopAtIndexInTimeSeqOrder) {
  EventQueue<int> q;
  q.Push(AtMs(5), 50);
  q.Push(AtMs(1), 10);
  q.Push(AtMs(3), 30);
  EXPECT_EQ(q.At(0).payload, 10);
  EXPECT_EQ(q.At(1).payload, 30);
  EXPECT_EQ(q.At(2).payload, 50);
  EXPECT_EQ(q.PopAt(1).payload, 30);
  EXPECT_EQ(q.PopAt(0).payload, 10);
  EXPECT_EQ(q.At(0).payload, 50);
  EXPECT_EQ(q.At(0).seq, 0u);
}

TEST(EventQueueTest, AReservedSeqKeepsThePlaceOfItsReservation) {
  EventQueue<int> q;
  EXPECT_EQ(q.Push(AtMs(10), 1), 0u);
  EXPECT_EQ(q.Reserve(2), 1u);  // seqs 1 and 2
  EXPECT_EQ(q.Push(AtMs(10), 4), 3u);
  EXPECT_EQ(q.Push(AtMs(20), 5), 4u);
  // Pushed after seq 3 and 4, seq 2 and 1 still run before them at equal times and after seq 0.
  q.PushReserved(AtMs(10), 2, 3);
  q.PushReserved(AtMs(10), 1, 2);
  EXPECT_EQ(q.At(1).seq, 1u);
  EXPECT_EQ(Drain(q), (std::vector<int>{1, 2, 3, 4, 5}));
  // A reserved seq pushed at a later time goes by its time; new pushes still count on.
  EXPECT_EQ(q.Reserve(1), 5u);
  EXPECT_EQ(q.Push(AtMs(30), 7), 6u);
  q.PushReserved(AtMs(40), 5, 8);
  q.PushReserved(AtMs(30), 5, 6);
  EXPECT_EQ(Drain(q), (std::vector<int>{6, 7, 8}));
}

TEST(EventQueueTest, RemoveIfDropsMatchingPayloadsAndKeepsOrder) {
  EventQueue<int> q;
  for (int i = 0; i < 10; ++i) q.Push(AtMs(10 - i), i);
  q.Pop();  // removes payload 9 (time 1), so head_ > 0 before RemoveIf
  EXPECT_EQ(q.RemoveIf([](int p) { return p % 2 == 0; }), 5u);
  EXPECT_EQ(Drain(q), (std::vector<int>{7, 5, 3, 1}));
}

TEST(EventQueueTest, CopyIsAnIndependentSnapshot) {
  EventQueue<int> q;
  q.Push(AtMs(1), 1);
  q.Push(AtMs(2), 2);
  EventQueue<int> copy = q;
  q.Pop();
  q.Push(AtMs(0), 9);
  EXPECT_EQ(Drain(copy), (std::vector<int>{1, 2}));
  EXPECT_EQ(copy.next_seq(), 2u);
  EXPECT_EQ(q.next_seq(), 3u);
}

TEST(EventQueueTest, FingerprintIgnoresSeqButNotTimesOrPayloads) {
  EventQueue<int> a;
  EventQueue<int> b;
  a.Push(AtMs(1), 7);
  b.Push(AtMs(1), 99);
  b.Pop();
  b.Push(AtMs(1), 7);
  auto hash = [](const EventQueue<int>& q) {
    Hasher h;
    q.Fingerprint(h, [](Hasher& hh, int p) { hh.Add(static_cast<int64_t>(p)); });
    return h.Finish();
  };
  EXPECT_EQ(hash(a), hash(b));
  EventQueue<int> c;
  c.Push(AtMs(2), 7);
  EXPECT_NE(hash(a), hash(c));
}

TEST(EventQueueTest, MatchesReferenceSortUnderRandomPushPop) {
  EventQueue<int> q;
  std::vector<std::tuple<int64_t, uint64_t, int>> ref;
  Prng prng(1);
  int next = 0;
  for (int round = 0; round < 5000; ++round) {
    if (prng.Below(3) != 0 || ref.empty()) {
      const int64_t t = static_cast<int64_t>(prng.Below(50)) + round / 10;
      const uint64_t seq = q.Push(AtMs(t), next);
      ref.emplace_back(t, seq, next++);
    } else {
      std::sort(ref.begin(), ref.end());
      const auto e = q.Pop();
      ASSERT_EQ(e.at.ms, std::get<0>(ref.front()));
      ASSERT_EQ(e.seq, std::get<1>(ref.front()));
      ASSERT_EQ(e.payload, std::get<2>(ref.front()));
      ref.erase(ref.begin());
    }
    ASSERT_EQ(q.size(), ref.size());
  }
}

}  // namespace event_queue_test
}  // namespace
}  // namespace repartsim::sim
