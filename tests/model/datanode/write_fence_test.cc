// Goal: the datanode's write acceptance table of docs/protocol.md section 5.2, row by row, with
// every reply code, status code and message pinned, in the greptime profile and with
// Rule::kVersionFenceUnversioned.
// Method: put one region in each state (absent, follower, downgrading, writable, staging with
// each directive) and send versioned and unversioned writes.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace write_fence_test {

using namespace testing;  // NOLINT

class WriteFenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dn_.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store_, no_crash_).ok());
  }
  Reply Write(std::optional<uint64_t> version, const Protocol& p = Protocol::Greptime()) {
    return dn_.HandleWrite(kR1, {R(1, 1, 1)}, version, p, no_crash_);
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
  const uint64_t v_old_ = V(Range(0, 100));
  const uint64_t v_new_ = V(Range(0, 50));
};

TEST_F(WriteFenceTest, AbsentRegionIsRegionNotFound) {
  Reply r = dn_.HandleWrite(kR3, {R(1, 1, 1)}, v_old_, Protocol::Greptime(), no_crash_);
  EXPECT_EQ(r.code, ReplyCode::kRegionNotFound);
  EXPECT_EQ(StatusCode(r.code), 4005u);
  EXPECT_FALSE(IsRetryable(r.code));
  EXPECT_EQ(r.message, "Region 4398046511107(1024, 3) not found");
}

TEST_F(WriteFenceTest, FollowerAndDowngradingAreRegionNotReady) {
  dn_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(10000), Protocol::Greptime());
  Reply r = Write(v_old_);
  EXPECT_EQ(r.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(StatusCode(r.code), 4008u);
  EXPECT_TRUE(IsRetryable(r.code));
  EXPECT_EQ(r.message,
            "Region 4398046511105(1024, 1) is in Follower state, expect: Leader(Writable)");
  dn_.ApplyLease(kR1, RegionRole::kDowngradingLeader, sim::AtMs(10000), Protocol::Greptime());
  Reply d = Write(std::nullopt);
  EXPECT_EQ(d.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(
      d.message,
      "Region 4398046511105(1024, 1) is in Leader(Downgrading) state, expect: Leader(Writable)");
}

TEST_F(WriteFenceTest, WritableAcceptsEqualVersionAndRejectsOtherVersions) {
  Reply ok = Write(v_old_);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.affected_rows, 1u);
  EXPECT_EQ(ok.message, "");
  Reply bad = Write(v_new_);
  EXPECT_EQ(bad.code, ReplyCode::kPartitionExprVersionMismatch);
  EXPECT_EQ(StatusCode(bad.code), 1004u);
  EXPECT_FALSE(IsRetryable(bad.code));
  EXPECT_EQ(bad.message,
            "Partition expr version mismatch for region 4398046511105(1024, 1): request " +
                std::to_string(v_new_) + ", expected " + std::to_string(v_old_));
}

TEST_F(WriteFenceTest, UnversionedWriteIsAcceptedInGreptimeAndFencedByRule) {
  EXPECT_TRUE(Write(std::nullopt).ok());
  Protocol fenced = Protocol::Greptime();
  testing::SetRule(fenced, "version-fence-unversioned");
  Reply r = Write(std::nullopt, fenced);
  EXPECT_EQ(r.code, ReplyCode::kPartitionExprVersionMismatch);
  EXPECT_EQ(
      r.message,
      "Partition expr version mismatch for region 4398046511105(1024, 1): request 0, expected " +
          std::to_string(v_old_));
  // A region without an expression (unpartitioned table) still takes unversioned writes.
  ASSERT_TRUE(dn_.HandleCreateRegion(kR0, TestSchema(), std::nullopt, store_, no_crash_).ok());
  EXPECT_TRUE(dn_.HandleWrite(kR0, {R(1, 1, 1)}, std::nullopt, fenced, no_crash_).ok());
  EXPECT_TRUE(dn_.HandleWrite(kR0, {R(1, 2, 1)}, 0, Protocol::Greptime(), no_crash_).ok());
}

TEST_F(WriteFenceTest, StagingUsesStagingVersionAndAcceptsUnversioned) {
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  EXPECT_TRUE(Write(v_new_).ok());
  EXPECT_TRUE(Write(std::nullopt).ok());
  Reply stale = Write(v_old_);
  EXPECT_EQ(stale.code, ReplyCode::kPartitionExprVersionMismatch);
  EXPECT_EQ(stale.message,
            "Partition expr version mismatch for region 4398046511105(1024, 1): request " +
                std::to_string(v_old_) + ", expected " + std::to_string(v_new_));
}

TEST_F(WriteFenceTest, StagingWithRejectAllWritesIsRejectWriteEvenUnversioned) {
  ASSERT_TRUE(dn_.HandleEnterStaging(kR1, StagingInfo::RejectAllWrites(), store_, no_crash_).ok());
  for (std::optional<uint64_t> version :
       {std::optional<uint64_t>(), std::optional<uint64_t>(v_old_), std::optional<uint64_t>(0)}) {
    Reply r = Write(version);
    EXPECT_EQ(r.code, ReplyCode::kRejectWrite);
    EXPECT_EQ(StatusCode(r.code), 5000u);
    EXPECT_TRUE(IsRetryable(r.code));
    EXPECT_EQ(
        r.message,
        "Engine write buffer is full, rejecting write requests of region 4398046511105(1024, 1)");
  }
}

TEST_F(WriteFenceTest, NewRegionCreatedWithTargetExprAcceptsItsVersionImmediately) {
  ASSERT_TRUE(dn_.HandleCreateRegion(kR3, TestSchema(), Range(50, 100), store_, no_crash_).ok());
  EXPECT_TRUE(
      dn_.HandleWrite(kR3, {R(60, 1, 1)}, V(Range(50, 100)), Protocol::Greptime(), no_crash_).ok());
}

}  // namespace write_fence_test
}  // namespace
}  // namespace repartsim::model
