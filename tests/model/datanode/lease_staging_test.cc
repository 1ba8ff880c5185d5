// Goal: lease-driven roles and datanode staging (docs/protocol.md sections 7, 10.5): EnterStaging
// (flush first, directives, idempotence, mismatch), writes and flushes while staging (staging
// manifest, transient omission, WAL truncation), RemapManifest + ApplyStagingManifest on the split
// timeline of docs/protocol.md 10.8 (with its transient duplicate), leaving staging through a lease
// (staged data discarded), lease expiry, and reopen not restoring staging (greptime).
// Method: drive datanodes and one object store step by step and compare states and scans.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace lease_staging_test {

using namespace testing;  // NOLINT

class LeaseStagingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dn_.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store_, no_crash_).ok());
  }
  Reply Write(RegionId region, std::vector<Row> rows, std::optional<uint64_t> version) {
    return dn_.HandleWrite(region, std::move(rows), version, Protocol::Greptime(), no_crash_);
  }
  const Region& R1() { return *dn_.FindRegion(kR1); }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
  const Protocol greptime_ = Protocol::Greptime();
};

TEST_F(LeaseStagingTest, LeaseRolesSetStateAndStagingLeaderIsIgnored) {
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  dn_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(100), greptime_);
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(200), greptime_);
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  EXPECT_EQ(R1().lease_deadline(), sim::AtMs(200));
  Protocol p11 = Protocol::Greptime();
  testing::SetRule(p11, "lease-promotes-staging");
  dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(300), p11);
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  dn_.ApplyLease(kR1, RegionRole::kDowngradingLeader, sim::AtMs(300), greptime_);
  EXPECT_EQ(R1().state(), RegionState::kDowngrading);
  dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(300), greptime_);
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  EXPECT_FALSE(dn_.ApplyLease(kR3, RegionRole::kLeader, sim::AtMs(300), greptime_));
}

TEST_F(LeaseStagingTest, LeaseExpiryDemotesToFollowerAndLeavesStaging) {
  dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), greptime_);
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  EXPECT_EQ(dn_.NextLeaseDeadline(), sim::AtMs(10000));
  EXPECT_TRUE(dn_.ExpireLeases(sim::AtMs(9999)).empty());
  EXPECT_EQ(dn_.ExpireLeases(sim::AtMs(10000)), std::vector<RegionId>{kR1});
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  EXPECT_FALSE(R1().staging().has_value());
  EXPECT_EQ(dn_.NextLeaseDeadline(), std::nullopt);
}

TEST_F(LeaseStagingTest, EnterStagingFlushesFirstAndRecordsExprChange) {
  ASSERT_TRUE(Write(kR1, {R(10, 1, 1)}, V(Range(0, 100))).ok());
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  EXPECT_EQ(R1().state(), RegionState::kStaging);
  EXPECT_EQ(R1().ExpectedVersion(), V(Range(0, 50)));
  EXPECT_EQ(R1().committed_expr_version(), V(Range(0, 100)));
  ASSERT_EQ(store_.Manifest(kR1)->files.size(), 1u);
  EXPECT_EQ(store_.File(*store_.Manifest(kR1)->files.begin())->expr_text,
            Range(0, 100).CanonicalText());
  const std::vector<StagingAction>* staged = store_.Staging(kR1);
  ASSERT_NE(staged, nullptr);
  ASSERT_EQ(staged->size(), 1u);
  EXPECT_EQ((*staged)[0].kind, StagingAction::Kind::kPartitionExprChange);
  // Same directive again: Ok. Another directive: StagingPartitionExprMismatch.
  EXPECT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  Reply other = dn_.HandleEnterStaging(kR1, StagingInfo::RejectAllWrites(), store_, no_crash_);
  EXPECT_EQ(other.code, ReplyCode::kStagingPartitionExprMismatch);
  EXPECT_EQ(StatusCode(other.code), 1002u);
  EXPECT_EQ(other.message,
            "Staging partition expr mismatch for region 4398046511105(1024, 1), current: "
            "UpdatePartitionExpr(" +
                Range(0, 50).CanonicalText() + "), request: RejectAllWrites");
}

TEST_F(LeaseStagingTest, EnterStagingOnFollowerIsRegionNotReady) {
  dn_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(1), greptime_);
  Reply r = dn_.HandleEnterStaging(kR1, StagingInfo::RejectAllWrites(), store_, no_crash_);
  EXPECT_EQ(r.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(r.message,
            "Region 4398046511105(1024, 1) is in Follower state, expect: Leader(Writable)");
}

TEST_F(LeaseStagingTest, StagingFlushHidesRowsTruncatesWalAndLeaderLeaseDiscardsThem) {
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  ASSERT_TRUE(Write(kR1, {R(10, 1, 1)}, V(Range(0, 50))).ok());
  EXPECT_EQ(Scan(dn_, kR1, store_), (std::vector<Row>{R(10, 1, 1)}));
  ASSERT_TRUE(dn_.HandleFlush(kR1, store_, no_crash_).ok());
  EXPECT_TRUE(Scan(dn_, kR1, store_).empty());  // transient omission
  EXPECT_TRUE(dn_.Wal(kR1)->entries().empty());
  EXPECT_TRUE(store_.Manifest(kR1)->files.empty());
  ASSERT_EQ(store_.Staging(kR1)->size(), 2u);
  const FileId staged_file = (*store_.Staging(kR1))[1].files_to_add.at(0);
  EXPECT_EQ(store_.File(staged_file)->expr_text, Range(0, 50).CanonicalText());
  // A Leader lease leaves staging without merging: the row stays hidden for good.
  dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), greptime_);
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  EXPECT_EQ(R1().ExpectedVersion(), V(Range(0, 100)));
  EXPECT_TRUE(Scan(dn_, kR1, store_).empty());
  EXPECT_NE(store_.Staging(kR1), nullptr);
}

TEST_F(LeaseStagingTest, ReopenDoesNotRestoreStagingAndLosesStagedFlushes) {
  ASSERT_TRUE(Write(kR1, {R(1, 1, 1)}, V(Range(0, 100))).ok());
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  ASSERT_TRUE(Write(kR1, {R(2, 1, 2)}, V(Range(0, 50))).ok());
  ASSERT_TRUE(dn_.HandleFlush(kR1, store_, no_crash_).ok());
  ASSERT_TRUE(Write(kR1, {R(3, 1, 3)}, V(Range(0, 50))).ok());
  dn_.Crash();
  dn_.Reopen(store_);
  dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), greptime_);
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  EXPECT_EQ(R1().committed_expr_version(), V(Range(0, 100)));
  // Row 2 went to a staged file and its WAL entry was truncated: lost. Row 3 is replayed.
  EXPECT_EQ(Scan(dn_, kR1, store_), (std::vector<Row>{R(1, 1, 1), R(3, 1, 3)}));
}

TEST_F(LeaseStagingTest, SplitTimelineRemapsAppliesAndShowsTransientDuplicate) {
  ASSERT_TRUE(Write(kR1, {R(10, 1, 1), R(60, 1, 6)}, V(Range(0, 100))).ok());
  ASSERT_TRUE(dn_.HandleCreateRegion(kR3, TestSchema(), Range(50, 100), store_, no_crash_).ok());
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  ASSERT_TRUE(dn_.HandleEnterStaging(kR3, StagingInfo::UpdatePartitionExpr(Range(50, 100)), store_,
                                     no_crash_)
                  .ok());
  ASSERT_TRUE(Write(kR3, {R(70, 2, 7)}, V(Range(50, 100))).ok());
  std::map<RegionId, std::vector<RegionId>> mapping{{kR1, {kR1, kR3}}};
  std::map<RegionId, std::optional<PartitionExpr>> targets{{kR1, Range(0, 50)},
                                                           {kR3, Range(50, 100)}};
  ASSERT_TRUE(dn_.HandleRemapManifest(kR1, {kR1}, mapping, targets, store_, no_crash_).ok());
  ASSERT_NE(store_.RemapBlob(kR1, kR3), nullptr);
  EXPECT_EQ(store_.RemapBlob(kR1, kR3)->files, store_.Manifest(kR1)->files);
  // Non-central target first.
  ASSERT_TRUE(dn_.HandleApplyStagingManifest(kR3, Range(50, 100), kR1, store_, no_crash_).ok());
  EXPECT_EQ(dn_.FindRegion(kR3)->state(), RegionState::kWritable);
  EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(60, 1, 6), R(70, 2, 7)}));
  // Until the central applies, R1 shows row 60 too: a transient duplicate (docs/protocol.md 6.3).
  EXPECT_EQ(Scan(dn_, kR1, store_), (std::vector<Row>{R(10, 1, 1), R(60, 1, 6)}));
  ASSERT_TRUE(dn_.HandleApplyStagingManifest(kR1, Range(0, 50), kR1, store_, no_crash_).ok());
  EXPECT_EQ(Scan(dn_, kR1, store_), (std::vector<Row>{R(10, 1, 1)}));
  EXPECT_EQ(R1().committed_expr_version(), V(Range(0, 50)));
  EXPECT_EQ(store_.Manifest(kR1)->ExprText(), Range(0, 50).CanonicalText());
  EXPECT_EQ(store_.Staging(kR1), nullptr);
  EXPECT_EQ(store_.RemapBlob(kR1, kR3), nullptr);  // the central's staging dir is cleared
  // Idempotent replay, and a different expression on a non-staging region.
  EXPECT_TRUE(dn_.HandleApplyStagingManifest(kR1, Range(0, 50), kR1, store_, no_crash_).ok());
  Reply wrong = dn_.HandleApplyStagingManifest(kR1, Range(0, 60), kR1, store_, no_crash_);
  EXPECT_EQ(wrong.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(wrong.message,
            "Region 4398046511105(1024, 1) is in Leader(Writable) state, expect: Leader(Staging)");
}

TEST_F(LeaseStagingTest, ApplyStagingManifestWithOtherExprIsMismatch) {
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  Reply r = dn_.HandleApplyStagingManifest(kR1, Range(0, 40), kR1, store_, no_crash_);
  EXPECT_EQ(r.code, ReplyCode::kStagingPartitionExprMismatch);
  Reply missing = dn_.HandleApplyStagingManifest(kR1, Range(0, 50), kR1, store_, no_crash_);
  EXPECT_EQ(missing.code, ReplyCode::kUnexpected);
  EXPECT_EQ(missing.message,
            "Remapped manifest of region 4398046511105(1024, 1) not found in central region "
            "4398046511105(1024, 1)");
}

}  // namespace lease_staging_test
}  // namespace
}  // namespace repartsim::model
