// Goal: the datanode side of region migration (docs/protocol.md section 13): a candidate opens as
// a Follower without replaying its node's WAL, serves reads and refuses writes with
// RegionNotReady; DowngradeRegion leaves staging without merging the staged data, flushes into
// the normal manifest, becomes a Follower and answers its last entry id; UpgradeRegion reopens a
// candidate whose manifest changed and makes it writable, so the moved region reads every row
// the old leader accepted.
// Method: two datanodes sharing one object store, driven handler by handler.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::model {
namespace {
namespace migration_handlers_test {

using namespace testing;  // NOLINT

class MigrationHandlersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(from_.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store_, no_crash_).ok());
  }
  Reply Write(Datanode& dn, std::vector<Row> rows) {
    return dn.HandleWrite(kR1, std::move(rows), V(Range(0, 100)), greptime_, no_crash_);
  }

  ObjectStore store_;
  Datanode from_{NodeId{1}};
  Datanode to_{NodeId{2}};
  NoCrashHook no_crash_;
  const Protocol greptime_ = Protocol::Greptime();
};

TEST_F(MigrationHandlersTest, CandidateOpensAsFollowerServesReadsAndRefusesWrites) {
  ASSERT_TRUE(Write(from_, {R(10, 1, 1)}).ok());
  ASSERT_TRUE(from_.HandleFlush(kR1, store_, no_crash_).ok());
  ASSERT_TRUE(to_.HandleOpenCandidate(kR1, store_).ok());
  ASSERT_TRUE(to_.HandleOpenCandidate(kR1, store_).ok());  // idempotent
  const Region* candidate = to_.FindRegion(kR1);
  ASSERT_NE(candidate, nullptr);
  EXPECT_EQ(candidate->state(), RegionState::kFollower);
  EXPECT_EQ(Scan(to_, kR1, store_), std::vector<Row>{R(10, 1, 1)});
  Reply refused = Write(to_, {R(11, 2, 2)});
  EXPECT_EQ(refused.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(refused.message,
            "Region 4398046511105(1024, 1) is in Follower state, expect: Leader(Writable)");
  EXPECT_EQ(to_.HandleOpenCandidate(kR3, store_).code, ReplyCode::kRegionNotFound);
}

TEST_F(MigrationHandlersTest, CandidateSkipsItsNodesWalReplay) {
  // The candidate's node once led the region and kept WAL entries past the flushed entry: a
  // migration candidate does not replay them (skip_wal_replay), a restart's open does.
  ASSERT_TRUE(to_.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store_, no_crash_).ok());
  ASSERT_TRUE(Write(to_, {R(20, 1, 1)}).ok());
  ASSERT_TRUE(to_.HandleCloseRegion(kR1).ok());
  ASSERT_TRUE(to_.HandleOpenCandidate(kR1, store_).ok());
  EXPECT_TRUE(to_.FindRegion(kR1)->memtable().empty());
}

TEST_F(MigrationHandlersTest, DowngradeFlushesBecomesFollowerAndAnswersTheLastEntryId) {
  ASSERT_TRUE(Write(from_, {R(10, 1, 1)}).ok());
  ASSERT_TRUE(Write(from_, {R(11, 2, 2)}).ok());
  const uint64_t version_before = store_.Manifest(kR1)->manifest_version;
  uint64_t last_entry_id = 0;
  ASSERT_TRUE(from_.HandleDowngradeRegion(kR1, store_, no_crash_, greptime_, last_entry_id).ok());
  EXPECT_EQ(last_entry_id, 2u);
  const Region* old = from_.FindRegion(kR1);
  EXPECT_EQ(old->state(), RegionState::kFollower);
  EXPECT_TRUE(old->memtable().empty());
  EXPECT_GT(store_.Manifest(kR1)->manifest_version, version_before);
  EXPECT_EQ(Write(from_, {R(12, 3, 3)}).code, ReplyCode::kRegionNotReady);
  // A Follower answers again as it is.
  last_entry_id = 0;
  ASSERT_TRUE(from_.HandleDowngradeRegion(kR1, store_, no_crash_, greptime_, last_entry_id).ok());
  EXPECT_EQ(last_entry_id, 2u);
  EXPECT_EQ(from_.HandleDowngradeRegion(kR3, store_, no_crash_, greptime_, last_entry_id).code,
            ReplyCode::kRegionNotFound);
}

TEST_F(MigrationHandlersTest, DowngradeOfAStagingLeaderDropsTheStagedDataWithoutMerging) {
  ASSERT_TRUE(from_
                  .HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_,
                                      no_crash_)
                  .ok());
  ASSERT_TRUE(from_.HandleWrite(kR1, {R(10, 1, 1)}, V(Range(0, 50)), greptime_, no_crash_).ok());
  ASSERT_TRUE(from_.HandleFlush(kR1, store_, no_crash_).ok());  // a staged flush
  const std::set<FileId> files_before = store_.Manifest(kR1)->files;
  uint64_t last_entry_id = 0;
  ASSERT_TRUE(from_.HandleDowngradeRegion(kR1, store_, no_crash_, greptime_, last_entry_id).ok());
  const Region* old = from_.FindRegion(kR1);
  EXPECT_EQ(old->state(), RegionState::kFollower);
  EXPECT_FALSE(old->staging().has_value());
  EXPECT_EQ(old->committed_expr_version(), V(Range(0, 100)));  // the change is not applied
  EXPECT_EQ(store_.Manifest(kR1)->files, files_before);        // the staged file is not merged
  EXPECT_TRUE(Scan(from_, kR1, store_).empty());               // the staged row is gone
}

TEST_F(MigrationHandlersTest, UpgradeReopensTheCandidateAndItReadsEveryAcceptedRow) {
  ASSERT_TRUE(Write(from_, {R(10, 1, 1)}).ok());
  ASSERT_TRUE(to_.HandleOpenCandidate(kR1, store_).ok());  // before the leader's flushes
  ASSERT_TRUE(Write(from_, {R(11, 2, 2)}).ok());
  uint64_t last_entry_id = 0;
  ASSERT_TRUE(from_.HandleDowngradeRegion(kR1, store_, no_crash_, greptime_, last_entry_id).ok());
  EXPECT_TRUE(Scan(to_, kR1, store_).empty());  // opened from the manifest before the flush
  ASSERT_TRUE(to_.HandleUpgradeRegion(kR1, store_, sim::AtMs(5000), greptime_).ok());
  const Region* moved = to_.FindRegion(kR1);
  EXPECT_EQ(moved->state(), RegionState::kWritable);
  EXPECT_EQ(moved->lease_deadline(), sim::AtMs(15000));
  EXPECT_EQ(Scan(to_, kR1, store_), (std::vector<Row>{R(10, 1, 1), R(11, 2, 2)}));
  ASSERT_TRUE(Write(to_, {R(12, 3, 3)}).ok());
  EXPECT_EQ(Scan(to_, kR1, store_).size(), 3u);
  ASSERT_TRUE(
      to_.HandleUpgradeRegion(kR1, store_, sim::AtMs(6000), greptime_).ok());  // already writable
  EXPECT_EQ(to_.FindRegion(kR1)->memtable().size(), 1u);  // not reopened: nothing lost
  EXPECT_EQ(from_.HandleUpgradeRegion(kR3, store_, sim::AtMs(6000), greptime_).code,
            ReplyCode::kRegionNotFound);
}

TEST_F(MigrationHandlersTest, UnderUpgradeAwaitsLeaseTheCandidateWritesOnceALeaderLeaseCame) {
  const Protocol reference = Protocol::Reference();
  ASSERT_TRUE(Write(from_, {R(10, 1, 1)}).ok());
  ASSERT_TRUE(to_.HandleOpenCandidate(kR1, store_).ok());
  uint64_t last_entry_id = 0;
  ASSERT_TRUE(from_.HandleDowngradeRegion(kR1, store_, no_crash_, reference, last_entry_id).ok());
  ASSERT_TRUE(to_.HandleUpgradeRegion(kR1, store_, sim::AtMs(5000), reference).ok());
  EXPECT_EQ(to_.FindRegion(kR1)->state(), RegionState::kWritable);
  Reply refused = Write(to_, {R(11, 2, 2)});
  EXPECT_EQ(refused.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(refused.message,
            "Region 4398046511105(1024, 1) is in Leader(Writable) awaiting its leader lease "
            "state, expect: Leader(Writable) named by the route");
  EXPECT_EQ(Scan(to_, kR1, store_), std::vector<Row>{R(10, 1, 1)});  // reads are served
  // A Follower lease (a rollback named the old leader again) leaves it refusing writes.
  ASSERT_TRUE(to_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(15000), reference));
  EXPECT_EQ(Write(to_, {R(11, 2, 2)}).code, ReplyCode::kRegionNotReady);
  ASSERT_TRUE(to_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(16000), reference));
  EXPECT_TRUE(Write(to_, {R(11, 2, 2)}).ok());
  EXPECT_EQ(Scan(to_, kR1, store_).size(), 2u);
}

}  // namespace migration_handlers_test
}  // namespace
}  // namespace repartsim::model
