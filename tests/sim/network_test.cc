// Goal: Network fault decisions happen per message in the documented order through the
// Chooser, partitions (symmetric and one-way) cut at send and at delivery, DropNode loses
// in-flight messages, streams stay FIFO per direction under delays (head of line), a reset
// loses everything in flight on the stream both ways until it is reopened, and counters add
// up. Method: force decisions with ReplayChooser lists,
// record decision labels with RecordingChooser, and check pending entries exactly.
#include "sim/network.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {
namespace network_test {

FaultProfile AllFaults() {
  return FaultProfile{Ratio{1, 2}, Ratio{1, 3}, Ratio{1, 4}, Duration{10}, Duration{2}};
}

TEST(NetworkTest, CleanProfileDeliversAfterLatencyWithoutChoices) {
  Network<int> net(3);
  RandomChooser chooser(1);
  net.Send(AtMs(5), 0, 1, 42, chooser, FaultProfile{});
  EXPECT_EQ(chooser.choice_count(), 0u);
  ASSERT_EQ(net.Pending().size(), 1u);
  EXPECT_EQ(net.Pending().At(0).at.ms, 6);
  auto d = net.Take(0);
  EXPECT_TRUE(d.delivered);
  EXPECT_EQ(d.envelope.from, 0u);
  EXPECT_EQ(d.envelope.to, 1u);
  EXPECT_EQ(d.envelope.msg, 42);
  EXPECT_EQ(net.counters().ToString(),
            "sent=1 delivered=1 dropped_fault=0 dropped_partition=0 dropped_down=0 "
            "duplicated=0 delayed=0 resets=0 dropped_reset=0");
}

TEST(NetworkTest, DecisionsComeInTheDocumentedOrder) {
  ChoiceList list;
  list.AddChance("net.drop", Ratio{1, 2}, false);
  list.AddChance("net.duplicate", Ratio{1, 3}, true);
  list.AddChance("net.delay", Ratio{1, 4}, true);  // first copy: delayed by 1 + 6
  list.AddChoose("net.delay_ms", 10, 6);
  list.AddChance("net.delay", Ratio{1, 4}, false);  // second copy: on time
  ReplayChooser replay(list);
  Network<int> net(2);
  net.Send(AtMs(100), 0, 1, 7, replay, AllFaults());
  EXPECT_EQ(replay.mismatch(), nullptr);
  EXPECT_TRUE(replay.exhausted());
  ASSERT_EQ(net.Pending().size(), 2u);
  EXPECT_EQ(net.Pending().At(0).at.ms, 102);
  EXPECT_EQ(net.Pending().At(1).at.ms, 109);
  EXPECT_EQ(net.Pending().At(0).payload.id, net.Pending().At(1).payload.id);
  EXPECT_EQ(net.counters().duplicated, 1u);
  EXPECT_EQ(net.counters().delayed, 1u);
}

TEST(NetworkTest, DropDecisionStopsFurtherDecisions) {
  ChoiceList list;
  list.AddChance("net.drop", Ratio{1, 2}, true);
  ReplayChooser replay(list);
  Network<int> net(2);
  net.Send(AtMs(0), 0, 1, 7, replay, AllFaults());
  EXPECT_TRUE(net.Pending().empty());
  EXPECT_TRUE(replay.exhausted());
  EXPECT_EQ(net.counters().dropped_fault, 1u);
}

TEST(NetworkTest, SymmetricAndOneWayPartitions) {
  Network<int> net(4);
  net.Partition({0}, {1, 2}, /*symmetric=*/true);
  net.Partition({3}, {0}, /*symmetric=*/false);
  EXPECT_TRUE(net.IsCut(0, 1));
  EXPECT_TRUE(net.IsCut(1, 0));
  EXPECT_TRUE(net.IsCut(2, 0));
  EXPECT_TRUE(net.IsCut(3, 0));
  EXPECT_FALSE(net.IsCut(0, 3));
  EXPECT_FALSE(net.IsCut(1, 2));
  RandomChooser chooser(1);
  net.Send(AtMs(0), 3, 0, 1, chooser, AllFaults());
  EXPECT_EQ(chooser.choice_count(), 0u);  // cut links decide nothing
  EXPECT_EQ(net.counters().dropped_partition, 1u);
  net.Heal();
  EXPECT_FALSE(net.AnyCut());
  EXPECT_FALSE(net.IsCut(0, 1));
}

TEST(NetworkTest, CutAtDeliveryTimeDropsTheMessage) {
  Network<int> net(2);
  RandomChooser chooser(1);
  net.Send(AtMs(0), 0, 1, 9, chooser, FaultProfile{});
  net.Partition({0}, {1}, false);
  auto d = net.Take(0);
  EXPECT_FALSE(d.delivered);
  EXPECT_EQ(net.counters().dropped_partition, 1u);
  EXPECT_EQ(net.counters().delivered, 0u);
}

TEST(NetworkTest, DropNodeLosesInFlightMessagesBothWaysUntilRestored) {
  Network<int> net(3);
  RandomChooser chooser(1);
  net.Send(AtMs(0), 0, 1, 1, chooser, FaultProfile{});
  net.Send(AtMs(0), 1, 2, 2, chooser, FaultProfile{});
  net.Send(AtMs(0), 2, 0, 3, chooser, FaultProfile{});
  EXPECT_EQ(net.DropNode(1), 2u);
  ASSERT_EQ(net.Pending().size(), 1u);
  EXPECT_EQ(net.Pending().At(0).payload.msg, 3);
  net.Send(AtMs(1), 0, 1, 4, chooser, FaultProfile{});
  EXPECT_EQ(net.Pending().size(), 1u);
  EXPECT_EQ(net.counters().dropped_down, 3u);
  EXPECT_TRUE(net.IsDown(1));
  net.RestoreNode(1);
  net.Send(AtMs(1), 0, 1, 5, chooser, FaultProfile{});
  EXPECT_EQ(net.Pending().size(), 2u);
}

TEST(NetworkTest, FingerprintCoversPendingCutsAndDownNodes) {
  auto fp = [](const Network<int>& n) {
    Hasher h;
    n.Fingerprint(h, [](Hasher& hh, int m) { hh.Add(int64_t{m}); });
    return h.Finish();
  };
  Network<int> a(2);
  const uint64_t empty = fp(a);
  Network<int> b = a;
  RandomChooser chooser(1);
  b.Send(AtMs(0), 0, 1, 1, chooser, FaultProfile{});
  EXPECT_NE(fp(b), empty);
  Network<int> c = a;
  c.Partition({0}, {1}, false);
  EXPECT_NE(fp(c), empty);
  Network<int> d = a;
  d.DropNode(0);
  EXPECT_NE(fp(d), empty);
  EXPECT_EQ(fp(a), empty);
}

FaultProfile StreamFaults() {
  FaultProfile p;
  p.delay = Ratio{1, 2};
  p.delay_ms_max = Duration{1000};
  p.reset = Ratio{1, 3};
  return p;
}

TEST(NetworkTest, StreamDecisionsAreResetThenDelayAndNeverDropOrDuplicate) {
  ChoiceList list;
  list.AddChance("net.reset", Ratio{1, 3}, false);
  list.AddChance("net.delay", Ratio{1, 2}, true);
  list.AddChoose("net.delay_ms", 1000, 499);
  ReplayChooser replay(list);
  Network<int> net(2);
  FaultProfile faults = StreamFaults();
  faults.drop = Ratio{1, 2};       // ignored on streams
  faults.duplicate = Ratio{1, 2};  // ignored on streams
  EXPECT_EQ(net.Send(AtMs(100), 0, 1, 7, replay, faults, Channel::kStream), SendResult::kQueued);
  EXPECT_EQ(replay.mismatch(), nullptr);
  EXPECT_TRUE(replay.exhausted());
  ASSERT_EQ(net.Pending().size(), 1u);
  EXPECT_EQ(net.Pending().At(0).at.ms, 100 + 1 + 500);
  EXPECT_EQ(net.Pending().At(0).payload.channel, Channel::kStream);
}

TEST(NetworkTest, ADelayedStreamMessageHoldsTheLineBehindIt) {
  ChoiceList list;
  list.AddChance("net.delay", Ratio{1, 2}, true);
  list.AddChoose("net.delay_ms", 1000, 999);  // first: +1000 ms
  list.AddChance("net.delay", Ratio{1, 2}, false);
  list.AddChance("net.delay", Ratio{1, 2}, false);
  ReplayChooser replay(list);
  Network<int> net(3);
  FaultProfile faults = StreamFaults();
  faults.reset = Ratio::Never();
  net.Send(AtMs(0), 0, 1, 1, replay, faults, Channel::kStream);
  net.Send(AtMs(5), 0, 1, 2, replay, faults, Channel::kStream);  // behind 1 on 0->1
  net.Send(AtMs(5), 0, 2, 3, replay, faults, Channel::kStream);  // another stream: on time
  EXPECT_TRUE(replay.exhausted());
  ASSERT_EQ(net.Pending().size(), 3u);
  EXPECT_EQ(net.Pending().At(0).payload.msg, 3);
  EXPECT_EQ(net.Pending().At(0).at.ms, 6);
  EXPECT_EQ(net.Pending().At(1).payload.msg, 1);
  EXPECT_EQ(net.Pending().At(1).at.ms, 1001);
  EXPECT_EQ(net.Pending().At(2).payload.msg, 2);
  EXPECT_EQ(net.Pending().At(2).at.ms, 1001);
  EXPECT_TRUE(net.Deliverable(0));
  EXPECT_TRUE(net.Deliverable(1));
  EXPECT_FALSE(net.Deliverable(2));  // not the head of 0->1
  std::vector<size_t> deliverable;
  net.ForEachDeliverable([&](size_t i, const auto&) { deliverable.push_back(i); });
  EXPECT_EQ(deliverable, (std::vector<size_t>{0, 1}));
  net.Take(1);
  EXPECT_TRUE(net.Deliverable(1));
}

TEST(NetworkTest, CallsOvertakeEachOther) {
  ChoiceList list;
  list.AddChance("net.delay", Ratio{1, 2}, true);
  list.AddChoose("net.delay_ms", 1000, 999);
  list.AddChance("net.delay", Ratio{1, 2}, false);
  ReplayChooser replay(list);
  Network<int> net(2);
  FaultProfile faults = StreamFaults();
  net.Send(AtMs(0), 0, 1, 1, replay, faults);
  net.Send(AtMs(5), 0, 1, 2, replay, faults);
  ASSERT_EQ(net.Pending().size(), 2u);
  EXPECT_EQ(net.Pending().At(0).payload.msg, 2);
  EXPECT_EQ(net.Pending().At(0).at.ms, 6);
  EXPECT_TRUE(net.Deliverable(0));
  EXPECT_TRUE(net.Deliverable(1));
}

TEST(NetworkTest, AResetLosesTheStreamBothWaysAndClosesItUntilReopened) {
  Network<int> net(3);
  RandomChooser chooser(1);
  net.Send(AtMs(0), 0, 1, 1, chooser, FaultProfile{}, Channel::kStream);
  net.Send(AtMs(0), 1, 0, 2, chooser, FaultProfile{}, Channel::kStream);
  net.Send(AtMs(0), 0, 1, 3, chooser, FaultProfile{});  // a call: survives
  net.Send(AtMs(0), 0, 2, 4, chooser, FaultProfile{}, Channel::kStream);
  EXPECT_EQ(net.ResetStream(1, 0), 2u);
  ASSERT_EQ(net.Pending().size(), 2u);
  EXPECT_EQ(net.Pending().At(0).payload.msg, 3);
  EXPECT_EQ(net.Pending().At(1).payload.msg, 4);
  EXPECT_FALSE(net.IsStreamOpen(0, 1));
  EXPECT_FALSE(net.IsStreamOpen(1, 0));
  EXPECT_EQ(net.Send(AtMs(1), 0, 1, 5, chooser, FaultProfile{}, Channel::kStream),
            SendResult::kDropped);
  net.OpenStream(1, 0);
  EXPECT_EQ(net.Send(AtMs(1), 0, 1, 6, chooser, FaultProfile{}, Channel::kStream),
            SendResult::kQueued);
  EXPECT_EQ(net.counters().resets, 1u);
  EXPECT_EQ(net.counters().dropped_reset, 3u);
}

TEST(NetworkTest, ResetDecisionLosesTheMessageAndTheStream) {
  ChoiceList list;
  list.AddChance("net.reset", Ratio{1, 3}, true);
  ReplayChooser replay(list);
  Network<int> net(2);
  RandomChooser chooser(1);
  net.Send(AtMs(0), 1, 0, 1, chooser, FaultProfile{}, Channel::kStream);
  EXPECT_EQ(net.Send(AtMs(0), 0, 1, 2, replay, StreamFaults(), Channel::kStream),
            SendResult::kReset);
  EXPECT_TRUE(replay.exhausted());
  EXPECT_TRUE(net.Pending().empty());
  EXPECT_FALSE(net.IsStreamOpen(0, 1));
}

TEST(NetworkTest, ACutStreamResetsAtSendAndAtDelivery) {
  Network<int> net(2);
  RandomChooser chooser(1);
  net.Partition({0}, {1}, /*symmetric=*/false);
  EXPECT_EQ(net.Send(AtMs(0), 0, 1, 1, chooser, FaultProfile{}, Channel::kStream),
            SendResult::kReset);
  EXPECT_FALSE(net.IsStreamOpen(0, 1));
  net.Heal();
  net.OpenStream(0, 1);
  net.Send(AtMs(0), 0, 1, 2, chooser, FaultProfile{}, Channel::kStream);
  net.Send(AtMs(0), 1, 0, 3, chooser, FaultProfile{}, Channel::kStream);
  net.Partition({0}, {1}, /*symmetric=*/false);
  auto d = net.Take(0);
  EXPECT_FALSE(d.delivered);
  EXPECT_TRUE(net.Pending().empty());  // 1->0 went down with the stream
  EXPECT_EQ(net.counters().resets, 2u);
}

TEST(NetworkTest, DropNodeClosesItsStreams) {
  Network<int> net(3);
  RandomChooser chooser(1);
  net.DropNode(1);
  net.RestoreNode(1);
  EXPECT_FALSE(net.IsStreamOpen(0, 1));
  EXPECT_FALSE(net.IsStreamOpen(2, 1));
  EXPECT_TRUE(net.IsStreamOpen(0, 2));
  EXPECT_EQ(net.Send(AtMs(0), 0, 1, 1, chooser, FaultProfile{}), SendResult::kQueued);
}

}  // namespace network_test
}  // namespace
}  // namespace repartsim::sim

// The trace notes of Send (issue 18 item 6): the message id (the caller's or a fresh one),
// why a message was lost, the duplicate and each copy's extra delay; RecordLost keeps what a
// reset or a crash took out of flight.
namespace repartsim::sim {
namespace {
namespace network_test {

TEST(NetworkTraceNotesTest, SendNotesTheIdTheLossAndTheDelays) {
  ChoiceList list;
  list.AddChance("net.drop", Ratio{1, 2}, false);
  list.AddChance("net.duplicate", Ratio{1, 3}, true);
  list.AddChance("net.delay", Ratio{1, 4}, true);  // first copy: 1 + 6 ms extra
  list.AddChoose("net.delay_ms", 10, 6);
  list.AddChance("net.delay", Ratio{1, 4}, false);
  list.AddChance("net.drop", Ratio{1, 2}, true);  // the second send is dropped
  ReplayChooser replay(list);
  Network<int> net(2);
  net.Send(AtMs(100), 0, 1, 7, replay, AllFaults(), Channel::kCall, 41);
  SendNote note = net.last_send();
  EXPECT_EQ(note.id, 41u);
  EXPECT_EQ(note.loss, SendLoss::kNone);
  EXPECT_TRUE(note.duplicated);
  ASSERT_EQ(note.copies, 2u);
  EXPECT_EQ(note.extra_delay[0].ms, 7);  // the duplicate's copy is scheduled first
  EXPECT_EQ(note.deliver_at[0].ms, 109);
  EXPECT_EQ(note.extra_delay[1].ms, 0);
  EXPECT_EQ(note.deliver_at[1].ms, 102);
  EXPECT_EQ(net.Pending().At(0).payload.id, 41u);
  net.Send(AtMs(100), 0, 1, 8, replay, AllFaults());
  note = net.last_send();
  EXPECT_EQ(note.id, 0u);  // no id given: the network's own counter
  EXPECT_EQ(note.loss, SendLoss::kFault);
  EXPECT_EQ(note.copies, 0u);
  EXPECT_STREQ(SendLossName(note.loss), "fault");
  EXPECT_EQ(replay.mismatch(), nullptr);
}

TEST(NetworkTraceNotesTest, SendNotesDownCutAndClosedLosses) {
  RandomChooser chooser(1);
  Network<int> net(3);
  net.DropNode(2);
  net.Send(AtMs(0), 0, 2, 1, chooser, FaultProfile{});
  EXPECT_EQ(net.last_send().loss, SendLoss::kDown);
  net.Partition({0}, {1}, true);
  net.Send(AtMs(0), 0, 1, 2, chooser, FaultProfile{}, Channel::kStream);
  EXPECT_EQ(net.last_send().loss, SendLoss::kCut);
  net.Heal();
  net.Send(AtMs(0), 0, 1, 3, chooser, FaultProfile{}, Channel::kStream);
  EXPECT_EQ(net.last_send().loss, SendLoss::kClosed);
  net.OpenStream(0, 1);
  net.Send(AtMs(0), 0, 1, 4, chooser, FaultProfile{}, Channel::kStream);
  EXPECT_EQ(net.last_send().loss, SendLoss::kNone);
  EXPECT_EQ(net.last_send().copies, 1u);
}

TEST(NetworkTraceNotesTest, RecordLostKeepsWhatResetsAndCrashesRemoved) {
  RandomChooser chooser(1);
  Network<int> net(3);
  net.Send(AtMs(0), 0, 1, 10, chooser, FaultProfile{}, Channel::kStream, 1);
  net.Send(AtMs(0), 1, 0, 11, chooser, FaultProfile{}, Channel::kStream, 2);
  net.Send(AtMs(0), 0, 2, 12, chooser, FaultProfile{}, Channel::kCall, 3);
  net.ResetStream(0, 1);
  EXPECT_TRUE(net.TakeLost().empty());  // off by default
  net.RecordLost(true);
  net.Send(AtMs(0), 0, 1, 13, chooser, FaultProfile{}, Channel::kCall, 4);
  net.OpenStream(0, 1);
  net.Send(AtMs(0), 1, 0, 14, chooser, FaultProfile{}, Channel::kStream, 5);
  net.ResetStream(0, 1);  // loses 5, not the call 4
  std::vector<Envelope<int>> lost = net.TakeLost();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].id, 5u);
  EXPECT_EQ(lost[0].msg, 14);
  net.DropNode(2);  // loses the call 3 to node 2
  lost = net.TakeLost();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].id, 3u);
  EXPECT_TRUE(net.TakeLost().empty());
  EXPECT_EQ(net.Pending().size(), 1u);  // the call 4
}

}  // namespace network_test
}  // namespace
}  // namespace repartsim::sim
