// Goal: HeldMessages (model/cluster/held_messages.h) decides exactly as it states: the head of
// a directed stream's held line, a held lease reply, a reorder partner taken once, the line
// released with its head (same stream, same release time, held order), the messages a passed
// state frees now or later, Take and TakeIf in held order, and a hash that sees every field.
// Method: hand-built messages between nodes 0 (metasrv), 1 and 2 (datanodes).
#include "model/cluster/held_messages.h"

#include <gtest/gtest.h>

#include <vector>

namespace repartsim::model {
namespace {
namespace held_messages_test {

HeldMessage Held(uint32_t from, uint32_t to, uint64_t id, MessageBody body = Heartbeat{}) {
  HeldMessage m;
  m.from = NodeId{from};
  m.out.to = NodeId{to};
  m.out.message.body = std::move(body);
  m.out.id = id;
  return m;
}

std::vector<uint64_t> Ids(const std::vector<HeldMessage>& messages) {
  std::vector<uint64_t> ids;
  for (const HeldMessage& m : messages) ids.push_back(m.out.id);
  return ids;
}

uint64_t HashOf(const HeldMessages& held) {
  sim::Hasher h;
  held.Hash(h);
  return h.Finish();
}

TEST(HeldMessagesTest, TheLatestHeadOfLineHoldsItsStreamOnly) {
  HeldMessages held;
  EXPECT_EQ(held.LineHead(NodeId{1}, NodeId{0}), nullptr);
  HeldMessage first = Held(1, 0, 7);
  first.head_of_line = true;
  held.Add(first);
  HeldMessage second = Held(1, 0, 8);
  second.head_of_line = true;
  held.Add(second);
  held.Add(Held(1, 0, 9));  // kept back by the sender: no line
  ASSERT_NE(held.LineHead(NodeId{1}, NodeId{0}), nullptr);
  EXPECT_EQ(held.LineHead(NodeId{1}, NodeId{0})->out.id, 8u);
  EXPECT_EQ(held.LineHead(NodeId{0}, NodeId{1}), nullptr);  // the other direction
  EXPECT_EQ(held.LineHead(NodeId{2}, NodeId{0}), nullptr);
}

TEST(HeldMessagesTest, AHeldLeaseReplyKeepsItsSessionBusy) {
  HeldMessages held;
  held.Add(Held(0, 1, 1));  // a Heartbeat, not a reply
  EXPECT_FALSE(held.ReplyHeld(NodeId{0}, NodeId{1}));
  held.Add(Held(0, 1, 2, HeartbeatReply{}));
  EXPECT_TRUE(held.ReplyHeld(NodeId{0}, NodeId{1}));
  EXPECT_FALSE(held.ReplyHeld(NodeId{0}, NodeId{2}));
}

TEST(HeldMessagesTest, AReorderPartnerIsTakenOnceAndOnlyForItsRule) {
  HeldMessages held;
  HeldMessage waiting = Held(1, 0, 3);
  waiting.rule = 4;
  HeldMessage until = Held(1, 0, 5);
  until.rule = 4;
  until.until_state = "Repartition.Prepare";  // a hold of the same rule index is no partner
  held.Add(until);
  held.Add(waiting);
  EXPECT_FALSE(held.TakeReorderPartner(2).has_value());
  const std::optional<HeldMessage> partner = held.TakeReorderPartner(4);
  ASSERT_TRUE(partner.has_value());
  EXPECT_EQ(partner->out.id, 3u);
  EXPECT_FALSE(held.TakeReorderPartner(4).has_value());
  EXPECT_EQ(held.size(), 1u);
}

TEST(HeldMessagesTest, ALineIsReleasedWithItsHeadAndAPassedStateFreesItsMessages) {
  HeldMessages held;
  for (uint64_t id : {1, 2, 3, 4}) {
    HeldMessage m = Held(id == 3 ? 2 : 1, 0, id);
    m.head_of_line = true;
    m.until_state = id == 4 ? "Other.State" : "Repartition.Prepare";
    if (id == 2) m.release_delay = sim::Ms(30);
    held.Add(m);
  }
  // Ids 1 and 3 are due now; id 2 is due 30 ms after the state passed; id 4 still waits.
  EXPECT_EQ(held.PassState("Repartition.Prepare", sim::AtMs(100)), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(held[0].until_state, "");
  EXPECT_EQ(held[1].release_at, sim::AtMs(130));
  EXPECT_EQ(held[3].until_state, "Other.State");
  std::vector<std::pair<size_t, int64_t>> due;
  held.ForEachRelease([&](size_t i, sim::SimTime at, NodeId from) {
    EXPECT_EQ(from, NodeId{1});
    due.push_back({i, at.ms});
  });
  EXPECT_EQ(due, (std::vector<std::pair<size_t, int64_t>>{{1, 130}}));
  EXPECT_EQ(held.ReleaseBatch(1), (std::vector<size_t>{1}));
  EXPECT_EQ(Ids(held.Take({2, 0})), (std::vector<uint64_t>{1, 3}));  // in held order
  EXPECT_EQ(held.All(), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(held[0].out.id, 2u);
}

TEST(HeldMessagesTest, TheLineBehindAHeadMovesWithItOnlyAtTheSameTime) {
  HeldMessages held;
  for (uint64_t id : {1, 2, 3}) {
    HeldMessage m = Held(1, 0, id);
    m.head_of_line = true;
    m.release_at = sim::AtMs(id == 3 ? 90 : 50);
    held.Add(m);
  }
  held.Add(Held(1, 0, 4));  // no line
  EXPECT_EQ(held.ReleaseBatch(0), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(held.ReleaseBatch(2), (std::vector<size_t>{2}));
}

TEST(HeldMessagesTest, TakeIfTakesTheLostInHeldOrderAndTheHashSeesEveryField) {
  HeldMessages held;
  held.Add(Held(1, 0, 1));
  held.Add(Held(2, 0, 2));
  held.Add(Held(0, 1, 3));
  const uint64_t before = HashOf(held);
  const std::vector<HeldMessage> lost = held.TakeIf(
      [](const HeldMessage& m) { return m.from == NodeId{1} || m.out.to == NodeId{1}; });
  EXPECT_EQ(Ids(lost), (std::vector<uint64_t>{1, 3}));
  EXPECT_EQ(held.size(), 1u);
  EXPECT_NE(HashOf(held), before);

  HeldMessages a, b;
  a.Add(Held(1, 0, 1));
  b.Add(Held(1, 0, 99));  // the trace id is not state
  EXPECT_EQ(HashOf(a), HashOf(b));
  HeldMessage delayed = Held(1, 0, 1);
  delayed.release_delay = sim::Ms(1);
  HeldMessages c;
  c.Add(delayed);
  EXPECT_NE(HashOf(a), HashOf(c));
}

}  // namespace held_messages_test
}  // namespace
}  // namespace repartsim::model
