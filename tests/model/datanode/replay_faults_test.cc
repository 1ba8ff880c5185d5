// Goal: a WAL entry that fails to apply while a datanode reopens its regions (ReplayFaults,
// GreptimeDB #8809) does exactly what datanode.h states: off fail-closed-replay (greptime) the
// entry is skipped, the region opens without its rows, and a flush truncates it from the WAL
// so a later reopen cannot bring it back; under fail-closed-replay (reference) the region stays
// closed with its WAL intact, RetryFailedOpens opens it with every row, and a crash forgets the
// failed open (the next reopen replays again). Each failure is reported in replay order.
// Method: one region (kR1) on one datanode with two unflushed WAL entries; the fault fails a
// chosen entry by its position in replay order.
#include <gtest/gtest.h>

#include <vector>

#include "model/protocol/rules.h"
#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::model {
namespace {
namespace replay_faults_test {

using namespace testing;  // NOLINT

class ReplayFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dn_.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store_, no_crash_).ok());
    Write({R(1, 10, 100)});  // WAL entry 1
    Write({R(2, 10, 200)});  // WAL entry 2
  }
  void Write(std::vector<Row> rows) {
    ASSERT_TRUE(dn_.HandleWrite(kR1, std::move(rows), v_, Protocol::Greptime(), no_crash_).ok());
  }
  // Crashes the datanode and reopens it under `protocol`, failing the entry replayed
  // `fail_at`-th (1-based; 0: none).
  ReplayFaults CrashAndReopen(const Protocol& protocol, int fail_at) {
    dn_.Crash();
    ReplayFaults faults;
    int asked = 0;
    faults.entry_fails = [&asked, fail_at] { return ++asked == fail_at; };
    dn_.Reopen(store_, protocol, &faults);
    faults.entry_fails = nullptr;
    return faults;
  }
  std::vector<Row> LeaderScan() {
    EXPECT_TRUE(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), Protocol::Greptime()));
    return Scan(dn_, kR1, store_);
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
  const uint64_t v_ = V(Range(0, 100));
};

Protocol FailClosed(bool on) {
  Protocol p = Protocol::Greptime();
  p.Set(Rule::kFailClosedReplay, on);
  return p;
}

TEST_F(ReplayFaultsTest, GreptimeSkipsTheEntryAndAFlushMakesTheLossPermanent) {
  const ReplayFaults faults = CrashAndReopen(FailClosed(false), 1);
  ASSERT_EQ(faults.failures.size(), 1u);
  EXPECT_EQ(faults.failures[0].region, kR1);
  EXPECT_EQ(faults.failures[0].entry_id, 1u);
  EXPECT_EQ(faults.failures[0].rows, 1u);
  EXPECT_FALSE(faults.failures[0].open_failed);
  EXPECT_TRUE(dn_.failed_opens().empty());
  EXPECT_EQ(LeaderScan(), (std::vector<Row>{R(2, 10, 200)}));
  ASSERT_TRUE(dn_.HandleFlush(kR1, store_, no_crash_).ok());
  EXPECT_TRUE(dn_.Wal(kR1)->entries().empty());  // the skipped entry went with the flush
  EXPECT_TRUE(CrashAndReopen(FailClosed(false), 0).failures.empty());
  EXPECT_EQ(LeaderScan(), (std::vector<Row>{R(2, 10, 200)}));
}

// Issue 54 (R2): the write after a skipped last entry took that entry's sequence, and the
// reopen that applied both asserted in Region::AppendMemtable (exit 70). mito2 publishes the
// skipped entry's sequences, so the next write's come after them.
TEST_F(ReplayFaultsTest, AWriteAfterASkippedLastEntryTakesALaterSequence) {
  CrashAndReopen(FailClosed(false), 2);
  ASSERT_NE(dn_.FindRegion(kR1), nullptr);
  EXPECT_EQ(dn_.FindRegion(kR1)->last_sequence(), dn_.Wal(kR1)->entries()[1]->sequence_last());
  LeaderScan();            // the reopened region is a follower until its lease
  Write({R(3, 10, 300)});  // WAL entry 3, after the skipped entry 2
  EXPECT_GT(dn_.Wal(kR1)->entries()[2]->sequence_first,
            dn_.Wal(kR1)->entries()[1]->sequence_last());
  CrashAndReopen(FailClosed(false), 0);
  EXPECT_EQ(LeaderScan(), (std::vector<Row>{R(1, 10, 100), R(2, 10, 200), R(3, 10, 300)}));
}

TEST_F(ReplayFaultsTest, WithoutAFlushTheNextReopenReplaysTheSkippedEntryAgain) {
  CrashAndReopen(FailClosed(false), 2);
  EXPECT_EQ(LeaderScan(), (std::vector<Row>{R(1, 10, 100)}));
  CrashAndReopen(FailClosed(false), 0);
  EXPECT_EQ(LeaderScan(), (std::vector<Row>{R(1, 10, 100), R(2, 10, 200)}));
}

TEST_F(ReplayFaultsTest, FailClosedKeepsTheRegionClosedUntilARetryOpensItWhole) {
  const ReplayFaults faults = CrashAndReopen(FailClosed(true), 2);
  ASSERT_EQ(faults.failures.size(), 1u);
  EXPECT_EQ(faults.failures[0].entry_id, 2u);
  EXPECT_TRUE(faults.failures[0].open_failed);
  EXPECT_EQ(dn_.FindRegion(kR1), nullptr);
  EXPECT_EQ(dn_.failed_opens(), (std::set<RegionId>{kR1}));
  EXPECT_EQ(dn_.Wal(kR1)->entries().size(), 2u);
  EXPECT_EQ(dn_.HandleScan(kR1, std::nullopt, Protocol::Greptime(), store_).code,
            ReplyCode::kRegionNotFound);

  ReplayFaults again;
  again.entry_fails = [] { return true; };  // fails again: stays closed
  EXPECT_TRUE(dn_.RetryFailedOpens(store_, FailClosed(true), &again).empty());
  EXPECT_EQ(again.failures.size(), 1u);
  EXPECT_EQ(dn_.failed_opens(), (std::set<RegionId>{kR1}));

  ReplayFaults clean;
  clean.entry_fails = [] { return false; };
  EXPECT_EQ(dn_.RetryFailedOpens(store_, FailClosed(true), &clean), (std::vector<RegionId>{kR1}));
  EXPECT_TRUE(dn_.failed_opens().empty());
  EXPECT_EQ(LeaderScan(), (std::vector<Row>{R(1, 10, 100), R(2, 10, 200)}));
}

TEST_F(ReplayFaultsTest, ACrashForgetsAFailedOpenAndTheHashSeesIt) {
  const uint64_t clean = [&] {
    Datanode copy = dn_;
    copy.Crash();
    copy.Reopen(store_, FailClosed(true));
    return copy.Fingerprint();
  }();
  CrashAndReopen(FailClosed(true), 1);
  EXPECT_NE(dn_.Fingerprint(), clean);
  CrashAndReopen(FailClosed(true), 0);
  EXPECT_TRUE(dn_.failed_opens().empty());
  EXPECT_EQ(dn_.Fingerprint(), clean);
}

}  // namespace replay_faults_test
}  // namespace
}  // namespace repartsim::model
