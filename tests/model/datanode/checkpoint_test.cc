// Goal: manifest checkpoints as docs/protocol.md section 10.10 describes them: a normal
// manifest edit starts one when the version is the checkpoint distance past the last
// checkpoint and none runs; fence-checkpoints (GreptimeDB #8847) makes EnterStaging wait for
// it; a RemapManifest whose read of a source lost a delta to it fails with NotFound (#8625).
// Method: an object store and a datanode driven by hand.
#include <gtest/gtest.h>

#include "model/node/refusal.h"
#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace checkpoint_test {

using namespace testing;  // NOLINT

TEST(CheckpointTest, OneRunsAtATimeEveryDistanceVersions) {
  ObjectStore store;
  EXPECT_FALSE(store.MaybeStartCheckpoint(kR0, 5, 0));  // distance 0: never
  EXPECT_FALSE(store.MaybeStartCheckpoint(kR0, 2, 3));
  EXPECT_TRUE(store.MaybeStartCheckpoint(kR0, 3, 3));
  EXPECT_TRUE(store.CheckpointInFlight(kR0));
  EXPECT_FALSE(store.CheckpointInFlight(kR1));
  EXPECT_FALSE(store.MaybeStartCheckpoint(kR0, 9, 3));  // one runs already
  EXPECT_TRUE(store.FinishCheckpoint(kR0));
  EXPECT_FALSE(store.FinishCheckpoint(kR0));
  EXPECT_EQ(store.checkpoints().at(kR0).last_version, 3u);
  EXPECT_FALSE(store.MaybeStartCheckpoint(kR0, 5, 3));
  EXPECT_TRUE(store.MaybeStartCheckpoint(kR0, 6, 3));
  Datanode dn(NodeId{1});
  NoCrashHook no_crash;
  ASSERT_TRUE(dn.HandleCreateRegion(kR0, TestSchema(), std::nullopt, store, no_crash).ok());
  EXPECT_TRUE(store.DeleteManifest(kR0));
  EXPECT_TRUE(store.checkpoints().empty());
}

class DatanodeCheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dn_.ConfigureCheckpoints(3, sim::Ratio::Never());
    ASSERT_TRUE(dn_.HandleCreateRegion(kR0, TestSchema(), Range(0, 100), store_, no_crash_).ok());
  }
  void WriteAndFlush(int64_t v) {
    ASSERT_TRUE(
        dn_.HandleWrite(kR0, {R(1, v, v)}, V(Range(0, 100)), Protocol::Greptime(), no_crash_).ok());
    ASSERT_TRUE(dn_.HandleFlush(kR0, store_, no_crash_).ok());
  }
  // Flushes until a checkpoint runs; the number of flushes it took.
  int FlushUntilCheckpoint() {
    int flushes = 0;
    while (!store_.CheckpointInFlight(kR0) && flushes < 10) WriteAndFlush(++flushes);
    return flushes;
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(DatanodeCheckpointTest, AFlushAtTheDistanceStartsOne) {
  const uint64_t created = store_.Manifest(kR0)->manifest_version;
  const int flushes = FlushUntilCheckpoint();
  EXPECT_EQ(created + static_cast<uint64_t>(flushes), 3u);
  EXPECT_EQ(store_.checkpoints().at(kR0).last_version, 3u);
}

TEST_F(DatanodeCheckpointTest, FencedEnterStagingWaitsForTheRunningCheckpoint) {
  FlushUntilCheckpoint();
  Protocol fenced = Protocol::Greptime();
  SetRule(fenced, "fence-checkpoints");
  ASSERT_TRUE(dn_.HandleEnterStaging(kR0, StagingInfo::UpdatePartitionExpr(Range(0, 50)), fenced,
                                     store_, no_crash_)
                  .ok());
  EXPECT_FALSE(store_.CheckpointInFlight(kR0));
}

TEST_F(DatanodeCheckpointTest, UnfencedEnterStagingLeavesItRunning) {
  FlushUntilCheckpoint();
  ASSERT_TRUE(dn_.HandleEnterStaging(kR0, StagingInfo::UpdatePartitionExpr(Range(0, 50)),
                                     Protocol::Greptime(), store_, no_crash_)
                  .ok());
  EXPECT_TRUE(store_.CheckpointInFlight(kR0));
}

TEST_F(DatanodeCheckpointTest, ARemapThatLostADeltaFailsWithNotFound) {
  FlushUntilCheckpoint();
  ASSERT_TRUE(dn_.HandleEnterStaging(kR0, StagingInfo::UpdatePartitionExpr(Range(0, 50)),
                                     Protocol::Greptime(), store_, no_crash_)
                  .ok());
  const std::map<RegionId, std::vector<RegionId>> mapping = {{kR0, {kR0, kR3}}};
  const std::map<RegionId, std::optional<PartitionExpr>> targets = {{kR0, Range(0, 50)},
                                                                    {kR3, Range(50, 100)}};
  const Reply lost = dn_.HandleRemapManifest(kR0, {kR0}, mapping, targets, store_, no_crash_, kR0);
  EXPECT_EQ(lost.code, ReplyCode::kUnexpected);
  EXPECT_EQ(lost.message,
            std::string(kVanishedDeltaError) + kR0.ToString() +
                ": a delta listed before a running checkpoint deleted it is NotFound");
  EXPECT_TRUE(IsUnjustifiedRefusal(lost.message));
  EXPECT_EQ(store_.RemapBlob(kR0, kR3), nullptr);
  EXPECT_TRUE(dn_.HandleRemapManifest(kR0, {kR0}, mapping, targets, store_, no_crash_).ok());
  EXPECT_NE(store_.RemapBlob(kR0, kR3), nullptr);
}

}  // namespace checkpoint_test
}  // namespace
}  // namespace repartsim::model
