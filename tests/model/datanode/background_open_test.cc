// Goal: a background reopen (GreptimeDB's init_regions_in_background) does what datanode.h
// states: the datanode is up with no region open, every hosted region waits in region-id
// order, a waiting region answers RegionNotFound, OpenNextPending opens one region (WAL
// replayed) and schedules the next, a request that opens or drops a waiting region takes it
// out of the queue, and a crash forgets the queue.
// Method: two regions (kR1, kR3) on one datanode, each with one unflushed WAL entry.
#include <gtest/gtest.h>

#include <optional>
#include <set>

#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::model {
namespace {
namespace background_open_test {

using namespace testing;  // NOLINT

class BackgroundOpenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (RegionId r : {kR1, kR3}) {
      ASSERT_TRUE(dn_.HandleCreateRegion(r, TestSchema(), Range(0, 100), store_, no_crash_).ok());
      ASSERT_TRUE(
          dn_.HandleWrite(r, {R(r == kR1 ? 1 : 3, 10, 100)}, v_, Protocol::Greptime(), no_crash_)
              .ok());
    }
    dn_.Crash();
    dn_.ReopenInBackground(sim::AtMs(5000));
  }
  std::optional<RegionId> OpenNext(int64_t next_ms) {
    return dn_.OpenNextPending(store_, Protocol::Greptime(), nullptr, sim::AtMs(next_ms));
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
  const uint64_t v_ = V(Range(0, 100));
};

TEST_F(BackgroundOpenTest, TheDatanodeServesWithEveryHostedRegionWaiting) {
  EXPECT_TRUE(dn_.is_up());
  EXPECT_TRUE(dn_.regions().empty());
  EXPECT_EQ(dn_.pending_opens(), (std::set<RegionId>{kR1, kR3}));
  EXPECT_EQ(dn_.NextPendingOpen(), sim::AtMs(5000));
  const ScanReply scan = dn_.HandleScan(kR1, std::nullopt, Protocol::Greptime(), store_);
  EXPECT_EQ(scan.code, ReplyCode::kRegionNotFound);
}

TEST_F(BackgroundOpenTest, RegionsOpenOneAtATimeInRegionIdOrderWithTheirWal) {
  EXPECT_EQ(OpenNext(5500), kR1);
  ASSERT_NE(dn_.FindRegion(kR1), nullptr);
  EXPECT_EQ(dn_.FindRegion(kR1)->state(), RegionState::kFollower);
  EXPECT_EQ(dn_.FindRegion(kR1)->memtable().size(), 1u);
  EXPECT_EQ(dn_.FindRegion(kR3), nullptr);
  EXPECT_EQ(dn_.NextPendingOpen(), sim::AtMs(5500));
  EXPECT_EQ(OpenNext(6000), kR3);
  EXPECT_EQ(dn_.FindRegion(kR3)->memtable().size(), 1u);
  EXPECT_EQ(dn_.NextPendingOpen(), std::nullopt);
}

TEST_F(BackgroundOpenTest, ARequestThatOpensOrDropsAWaitingRegionTakesItOutOfTheQueue) {
  ASSERT_TRUE(dn_.HandleOpenRegion(kR3, store_).ok());
  EXPECT_EQ(dn_.pending_opens(), (std::set<RegionId>{kR1}));
  ASSERT_TRUE(dn_.HandleDropRegion(kR1, store_, no_crash_, Protocol::Greptime(), 1).ok());
  EXPECT_TRUE(dn_.pending_opens().empty());
  EXPECT_EQ(dn_.NextPendingOpen(), std::nullopt);
  EXPECT_EQ(dn_.FindRegion(kR1), nullptr);
}

TEST_F(BackgroundOpenTest, AfterARequestOpenedTheFirstWaitingRegionTheSecondOpensNext) {
  ASSERT_TRUE(dn_.HandleOpenRegion(kR1, store_).ok());
  EXPECT_EQ(dn_.pending_opens(), (std::set<RegionId>{kR3}));
  EXPECT_EQ(OpenNext(5500), kR3);
  EXPECT_EQ(dn_.regions().size(), 2u);
}

TEST_F(BackgroundOpenTest, ACrashForgetsTheQueue) {
  dn_.Crash();
  EXPECT_TRUE(dn_.pending_opens().empty());
  EXPECT_EQ(dn_.NextPendingOpen(), std::nullopt);
  dn_.Reopen(store_);
  EXPECT_EQ(dn_.regions().size(), 2u);
}

}  // namespace background_open_test
}  // namespace
}  // namespace repartsim::model
