// Goal: Rule::kDurableStaging on the datanode (datanode.h "Durable staging"), pinned against
// the greptime behaviour step by step: a Leader lease ending staging merges the staged flushes
// (and the memtable) under the staging expression, so rows inside the committed expression stay
// visible and rows outside it are hidden but kept (and reappear after a covering apply);
// Follower leases and lease expiry suspend staging; a StagingLeader lease resumes it only with
// Rule::kLeasePromotesStaging; reopen restores staging (both directives) and replays only the
// WAL entries after the staged flushes; scans read staged flushes while staging; a staged
// flush records the staging expression only under Rule::kStagingFlushExpr and removes the
// flushed memtable only under Rule::kStagingFlushDropsMemtable; a staging exit applies its
// edits in memory only under Rule::kExitStagingAppliesEdits.
// Method: drive one datanode and one object store through the handlers under both profiles and
// compare region states, manifests, staging directories, WALs and scans.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace durable_staging_test {

using namespace testing;  // NOLINT

Protocol Durable(bool promotes = false) {
  Protocol p = Protocol::Greptime();
  testing::SetRule(p, "durable-staging");
  testing::SetRule(p, "lease-promotes-staging", promotes);
  return p;
}

class DurableStagingTest : public ::testing::Test {
 protected:
  void Create(const PartitionExpr& expr, bool append_mode = false) {
    ASSERT_TRUE(dn_.HandleCreateRegion(kR1, TestSchema(append_mode), expr, store_, no_crash_).ok());
  }
  void Enter(const StagingInfo& info, const Protocol& p) {
    ASSERT_TRUE(dn_.HandleEnterStaging(kR1, info, p, store_, no_crash_).ok());
  }
  void Write(std::vector<Row> rows, uint64_t version) {
    ASSERT_TRUE(
        dn_.HandleWrite(kR1, std::move(rows), version, Protocol::Greptime(), no_crash_).ok());
  }
  void Flush() { ASSERT_TRUE(dn_.HandleFlush(kR1, store_, no_crash_).ok()); }
  std::vector<Row> ScanWith(const Protocol& p) {
    ScanReply reply = dn_.HandleScan(kR1, std::nullopt, p, store_);
    EXPECT_TRUE(reply.ok()) << reply.message;
    return reply.rows;
  }
  // Remaps R1 onto itself with `expr` (central R1) and applies it.
  void RemapAndApply(const PartitionExpr& expr) {
    std::map<RegionId, std::vector<RegionId>> mapping{{kR1, {kR1}}};
    std::map<RegionId, std::optional<PartitionExpr>> targets{{kR1, expr}};
    ASSERT_TRUE(dn_.HandleRemapManifest(kR1, {kR1}, mapping, targets, store_, no_crash_).ok());
    ASSERT_TRUE(dn_.HandleApplyStagingManifest(kR1, expr, kR1, store_, no_crash_).ok());
  }
  const Region& R1() { return *dn_.FindRegion(kR1); }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

// A merge target's staged flush records the staging expression (its rows were accepted under
// it); with staging-flush-expr off (before GreptimeDB #7461) the committed, narrower one.
TEST_F(DurableStagingTest, StagedFlushRecordsTheStagingExpressionUnlessStagingFlushExprIsOff) {
  for (bool on : {true, false}) {
    ObjectStore store;
    Datanode dn{NodeId{1}};
    Protocol p = Protocol::Greptime();
    testing::SetRule(p, "staging-flush-expr", on);
    ASSERT_TRUE(dn.HandleCreateRegion(kR1, TestSchema(), Range(0, 50), store, no_crash_).ok());
    ASSERT_TRUE(dn.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 100)), p,
                                      store, no_crash_)
                    .ok());
    ASSERT_TRUE(dn.HandleWrite(kR1, {R(70, 1, 1)}, V(Range(0, 100)), p, no_crash_).ok());
    ASSERT_TRUE(dn.HandleFlush(kR1, store, no_crash_, p).ok());
    const std::vector<StagingAction>* actions = store.Staging(kR1);
    ASSERT_NE(actions, nullptr);
    ASSERT_EQ(actions->size(), 2u);  // the directive's expression change, then the flush
    ASSERT_EQ(actions->back().files_to_add.size(), 1u);
    const FileId file = actions->back().files_to_add.front();
    EXPECT_EQ(store.File(file)->expr_text, (on ? Range(0, 100) : Range(0, 50)).CanonicalText());
    EXPECT_TRUE(store.Manifest(kR1)->files.empty());  // staged only, in both
  }
}

// A staging flush removes the memtable it flushed; before GreptimeDB #6962 the rows stayed in
// memory (staging-flush-drops-memtable off), though the WAL was obsoleted all the same.
TEST_F(DurableStagingTest, StagingFlushKeepsTheMemtableOnlyWithoutStagingFlushDropsMemtable) {
  for (bool on : {true, false}) {
    ObjectStore store;
    Datanode dn{NodeId{1}};
    Protocol p = Protocol::Greptime();
    testing::SetRule(p, "staging-flush-drops-memtable", on);
    ASSERT_TRUE(dn.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store, no_crash_).ok());
    ASSERT_TRUE(dn.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), p, store,
                                      no_crash_)
                    .ok());
    ASSERT_TRUE(dn.HandleWrite(kR1, {R(10, 1, 1)}, V(Range(0, 50)), p, no_crash_).ok());
    ASSERT_TRUE(dn.HandleFlush(kR1, store, no_crash_, p).ok());
    EXPECT_EQ(dn.FindRegion(kR1)->memtable_rows(), on ? 0u : 1u);
    EXPECT_TRUE(dn.Wal(kR1)->entries().empty());
    ASSERT_NE(store.Staging(kR1), nullptr);
    EXPECT_EQ(store.Staging(kR1)->back().files_to_add.size(), 1u);
  }
}

// ApplyStagingManifest's staging exit puts the remapped files in memory and on disk; before
// GreptimeDB #6962 (exit-staging-applies-edits off) only on disk: the region reads them once
// reopened, and a later flush keeps them on disk (the edit goes to the stored manifest too).
TEST_F(DurableStagingTest, StagingExitAppliesEditsInMemoryOnlyUnderExitStagingAppliesEdits) {
  for (bool on : {true, false}) {
    ObjectStore store;
    Datanode dn{NodeId{1}};
    Protocol p = Protocol::Greptime();
    testing::SetRule(p, "exit-staging-applies-edits", on);
    ASSERT_TRUE(dn.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store, no_crash_).ok());
    ASSERT_TRUE(dn.HandleWrite(kR1, {R(10, 1, 1)}, V(Range(0, 100)), p, no_crash_).ok());
    ASSERT_TRUE(dn.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), p, store,
                                      no_crash_)
                    .ok());  // flushes R(10) first, into the visible version
    ASSERT_TRUE(dn.HandleWrite(kR1, {R(20, 1, 2)}, V(Range(0, 50)), p, no_crash_).ok());
    ASSERT_TRUE(dn.HandleFlush(kR1, store, no_crash_, p).ok());  // a staged file
    std::map<RegionId, std::vector<RegionId>> mapping{{kR1, {kR1}}};
    std::map<RegionId, std::optional<PartitionExpr>> targets{{kR1, Range(0, 50)}};
    ASSERT_TRUE(dn.HandleRemapManifest(kR1, {kR1}, mapping, targets, store, no_crash_).ok());
    ASSERT_TRUE(dn.HandleApplyStagingManifest(kR1, Range(0, 50), kR1, p, store, no_crash_).ok());
    const RegionManifest& stored = *store.Manifest(kR1);
    EXPECT_EQ(stored.files.size(), 2u);
    EXPECT_EQ(dn.FindRegion(kR1)->version().files.size(), on ? 2u : 1u);
    EXPECT_EQ(dn.FindRegion(kR1)->committed_expr_version(), V(Range(0, 50)));
    auto scan = [&] { return dn.HandleScan(kR1, std::nullopt, p, store).rows; };
    EXPECT_EQ(scan(),
              on ? (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}) : (std::vector<Row>{R(10, 1, 1)}));
    ASSERT_TRUE(dn.HandleWrite(kR1, {R(30, 1, 3)}, V(Range(0, 50)), p, no_crash_).ok());
    ASSERT_TRUE(dn.HandleFlush(kR1, store, no_crash_, p).ok());
    EXPECT_EQ(store.Manifest(kR1)->files.size(), 3u);  // on disk in both
    EXPECT_EQ(store.Manifest(kR1)->manifest_version,
              dn.FindRegion(kR1)->version().manifest_version);
    dn.Crash();
    dn.Reopen(store, p);
    EXPECT_EQ(dn.FindRegion(kR1)->version().files.size(), 3u);
    EXPECT_EQ(scan(), (std::vector<Row>{R(10, 1, 1), R(20, 1, 2), R(30, 1, 3)}));
  }
}

// Split source: the staging expression is narrower, so every staged row stays visible.
TEST_F(DurableStagingTest, LeaderLeaseMergesStagedFlushAndMemtableOfASplitSource) {
  const Protocol durable = Durable();
  Create(Range(0, 100));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable);
  Write({R(10, 1, 1)}, V(Range(0, 50)));
  Flush();
  Write({R(20, 1, 2)}, V(Range(0, 50)));
  // While staging the staged flush is read (no transient omission), the greptime scan hides it.
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}));
  EXPECT_EQ(ScanWith(Protocol::Greptime()), (std::vector<Row>{R(20, 1, 2)}));
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), durable, store_));
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  EXPECT_FALSE(R1().staging().has_value());
  EXPECT_EQ(R1().committed_expr_version(), V(Range(0, 100)));  // the change is not applied
  EXPECT_EQ(store_.Staging(kR1), nullptr);
  const RegionManifest& m = *store_.Manifest(kR1);
  ASSERT_EQ(m.files.size(), 2u);  // the staged flush and the memtable flush
  for (FileId f : m.files) EXPECT_EQ(store_.File(f)->expr_text, Range(0, 50).CanonicalText());
  EXPECT_EQ(m.flushed_entry_id, 2u);
  EXPECT_EQ(m.flushed_sequence, 2u);
  EXPECT_EQ(m.manifest_version, 2u);
  EXPECT_TRUE(R1().memtable().empty());
  EXPECT_TRUE(dn_.Wal(kR1)->entries().empty());
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}));
  EXPECT_EQ(ScanWith(Protocol::Greptime()), (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}));
}

TEST_F(DurableStagingTest, GreptimeLeaderLeaseLosesTheStagedFlushOfASplitSource) {
  const Protocol greptime = Protocol::Greptime();
  Create(Range(0, 100));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), greptime);
  Write({R(10, 1, 1)}, V(Range(0, 50)));
  Flush();
  Write({R(20, 1, 2)}, V(Range(0, 50)));
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), greptime, store_));
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  EXPECT_TRUE(store_.Manifest(kR1)->files.empty());
  ASSERT_NE(store_.Staging(kR1), nullptr);  // left behind, hidden
  EXPECT_EQ(store_.Staging(kR1)->size(), 2u);
  EXPECT_EQ(R1().memtable_rows(), 1u);
  EXPECT_EQ(ScanWith(greptime), (std::vector<Row>{R(20, 1, 2)}));
}

// Merge target: rows outside the committed expression are hidden by the file filter (never
// exposed next to the region that owns them under the old rule) and reappear after an apply.
TEST_F(DurableStagingTest, LeaderLeaseHidesRowsOutsideTheCommittedExprUntilACoveringApply) {
  const Protocol durable = Durable();
  Create(Range(0, 50));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 100)), durable);
  Write({R(10, 1, 1), R(60, 1, 6)}, V(Range(0, 100)));
  Flush();
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1)}));  // served with [0, 50)
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), durable, store_));
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1)}));
  ASSERT_EQ(store_.Manifest(kR1)->files.size(), 1u);
  // The re-dispatched group enters staging again (a normal flush of nothing), remaps, applies.
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 100)), durable);
  RemapAndApply(Range(0, 100));
  EXPECT_EQ(R1().committed_expr_version(), V(Range(0, 100)));
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1), R(60, 1, 6)}));
}

TEST_F(DurableStagingTest, GreptimeLeaderLeaseLosesEveryStagedRowOfAMergeTarget) {
  const Protocol greptime = Protocol::Greptime();
  Create(Range(0, 50));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 100)), greptime);
  Write({R(10, 1, 1), R(60, 1, 6)}, V(Range(0, 100)));
  Flush();
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), greptime, store_));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 100)), greptime);  // clears the old dir
  RemapAndApply(Range(0, 100));
  EXPECT_TRUE(ScanWith(greptime).empty());
}

TEST_F(DurableStagingTest, FollowerLeaseAndExpirySuspendStagingAndStagingLeaderResumesIt) {
  const Protocol durable = Durable();
  const Protocol promotes = Durable(/*promotes=*/true);
  Create(Range(0, 100));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable);
  Write({R(10, 1, 1)}, V(Range(0, 50)));
  Flush();
  Write({R(20, 1, 2)}, V(Range(0, 50)));
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(100), durable, store_));
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  EXPECT_TRUE(R1().staging_suspended());
  EXPECT_EQ(R1().memtable_rows(), 1u);
  Reply refused =
      dn_.HandleWrite(kR1, {R(30, 1, 3)}, V(Range(0, 50)), Protocol::Greptime(), no_crash_);
  EXPECT_EQ(refused.code, ReplyCode::kRegionNotReady);
  Reply enter = dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable,
                                       store_, no_crash_);
  EXPECT_EQ(enter.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}));
  // Without P11 the StagingLeader lease is ignored, as in greptime.
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(200), durable, store_));
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(300), promotes, store_));
  EXPECT_EQ(R1().state(), RegionState::kStaging);
  EXPECT_EQ(R1().ExpectedVersion(), V(Range(0, 50)));
  EXPECT_TRUE(dn_.HandleEnterStaging(kR1, StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable,
                                     store_, no_crash_)
                  .ok());
  // Lease expiry suspends again; the downgrading role too, and its flush stays staged.
  EXPECT_EQ(dn_.ExpireLeases(sim::AtMs(300), durable), std::vector<RegionId>{kR1});
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  EXPECT_TRUE(R1().staging_suspended());
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kDowngradingLeader, sim::AtMs(400), durable, store_));
  EXPECT_EQ(R1().state(), RegionState::kDowngrading);
  Flush();
  EXPECT_TRUE(store_.Manifest(kR1)->files.empty());
  EXPECT_EQ(store_.Staging(kR1)->size(), 3u);  // change, two staged edits
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(500), durable, store_));
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(600), promotes, store_));
  RemapAndApply(Range(0, 50));
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}));
}

TEST_F(DurableStagingTest, GreptimeFollowerLeaseDropsStagingAndP11PromotesToWritable) {
  Protocol p11 = Protocol::Greptime();
  testing::SetRule(p11, "lease-promotes-staging");
  Create(Range(0, 100));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), p11);
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(100), p11, store_));
  EXPECT_FALSE(R1().staging().has_value());
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(200), p11, store_));
  EXPECT_EQ(R1().state(), RegionState::kWritable);
  EXPECT_EQ(R1().ExpectedVersion(), V(Range(0, 100)));
}

TEST_F(DurableStagingTest, ReopenRestoresStagingAndReplaysOnlyEntriesAfterStagedFlushes) {
  const Protocol durable = Durable();
  Create(Range(0, 100), /*append_mode=*/true);  // append mode: a double replay would show
  Write({R(1, 1, 1)}, V(Range(0, 100)));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable);
  Write({R(2, 1, 2)}, V(Range(0, 50)));
  Flush();
  Write({R(3, 1, 3)}, V(Range(0, 50)));
  dn_.Crash();
  dn_.Reopen(store_, durable);
  EXPECT_EQ(R1().state(), RegionState::kFollower);
  ASSERT_TRUE(R1().staging().has_value());
  EXPECT_EQ(*R1().staging(), StagingInfo::UpdatePartitionExpr(Range(0, 50)));
  EXPECT_EQ(R1().memtable_rows(), 1u);  // entry 3 only: entry 2 is in the staged file
  EXPECT_EQ(R1().last_entry_id(), 3u);
  EXPECT_EQ(R1().last_sequence(), 3u);
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(1, 1, 1), R(2, 1, 2), R(3, 1, 3)}));
  ASSERT_TRUE(
      dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(10), Durable(true), store_));
  EXPECT_EQ(R1().state(), RegionState::kStaging);
  Write({R(4, 1, 4)}, V(Range(0, 50)));
  EXPECT_EQ(R1().last_entry_id(), 4u);
  RemapAndApply(Range(0, 50));
  EXPECT_EQ(ScanWith(durable), (std::vector<Row>{R(1, 1, 1), R(2, 1, 2), R(3, 1, 3), R(4, 1, 4)}));
  // The same crash in greptime: staging forgotten, entry 2 lost (LeaseStagingTest pins it).
}

TEST_F(DurableStagingTest, ReopenRestoresRejectAllWritesOnlyUnderTheRule) {
  Create(Range(0, 100));
  Enter(StagingInfo::RejectAllWrites(), Protocol::Greptime());
  EXPECT_EQ(store_.Staging(kR1), nullptr);  // mito writes no action for this directive
  ASSERT_TRUE(
      dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10), Protocol::Greptime(), store_));
  const Protocol durable = Durable(/*promotes=*/true);
  Enter(StagingInfo::RejectAllWrites(), durable);
  ASSERT_NE(store_.Staging(kR1), nullptr);
  ASSERT_EQ(store_.Staging(kR1)->size(), 1u);
  EXPECT_EQ((*store_.Staging(kR1))[0].kind, StagingAction::Kind::kRejectAllWrites);
  dn_.Crash();
  dn_.Reopen(store_, durable);
  EXPECT_EQ(R1().staging(), StagingInfo::RejectAllWrites());
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kStagingLeader, sim::AtMs(20), durable, store_));
  Reply r = dn_.HandleWrite(kR1, {R(1, 1, 1)}, V(Range(0, 100)), Protocol::Greptime(), no_crash_);
  EXPECT_EQ(r.code, ReplyCode::kRejectWrite);
  // A Leader lease ends it and clears the marker.
  ASSERT_TRUE(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(30), durable, store_));
  EXPECT_EQ(store_.Staging(kR1), nullptr);
  EXPECT_EQ(store_.Manifest(kR1)->manifest_version, 1u);  // nothing staged: no edit
  dn_.Crash();
  dn_.Reopen(store_, durable);
  EXPECT_FALSE(R1().staging().has_value());
}

TEST_F(DurableStagingTest, CrashAfterStagedFlushEditNeitherLosesNorDuplicatesRows) {
  for (bool durable_on : {false, true}) {
    SCOPED_TRACE(durable_on ? "durable" : "greptime");
    store_ = ObjectStore();
    dn_ = Datanode(NodeId{1});
    const Protocol p = durable_on ? Durable() : Protocol::Greptime();
    Create(Range(0, 100), /*append_mode=*/true);
    Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), p);
    Write({R(2, 1, 2)}, V(Range(0, 50)));
    CrashAt crash("datanode.flush.after_manifest");
    ASSERT_EQ(dn_.HandleFlush(kR1, store_, crash).code, ReplyCode::kCrashed);
    dn_.Crash();
    dn_.Reopen(store_, p);
    EXPECT_EQ(dn_.Wal(kR1)->entries().size(), 1u);  // not truncated before the crash
    // greptime replays the entry (its staged file stays hidden); durable skips it (staged).
    EXPECT_EQ(R1().memtable_rows(), durable_on ? 0u : 1u);
    EXPECT_EQ(ScanWith(p), (std::vector<Row>{R(2, 1, 2)}));
  }
}

TEST_F(DurableStagingTest, OpenOnAnotherNodeRestoresStaging) {
  const Protocol durable = Durable();
  Create(Range(0, 100));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable);
  Write({R(10, 1, 1)}, V(Range(0, 50)));
  Flush();
  Datanode other(NodeId{2});
  ASSERT_TRUE(other.HandleOpenRegion(kR1, store_, durable).ok());
  EXPECT_TRUE(other.FindRegion(kR1)->staging_suspended());
  EXPECT_EQ(other.HandleScan(kR1, std::nullopt, durable, store_).rows,
            (std::vector<Row>{R(10, 1, 1)}));
  Datanode plain(NodeId{3});
  ASSERT_TRUE(plain.HandleOpenRegion(kR1, store_).ok());
  EXPECT_FALSE(plain.FindRegion(kR1)->staging().has_value());
  EXPECT_TRUE(plain.HandleScan(kR1, std::nullopt, durable, store_).rows.empty());
}

TEST_F(DurableStagingTest, LeaderLeaseWithoutTheStoreAssertsUnderDurableStaging) {
  const Protocol durable = Durable();
  Create(Range(0, 100));
  Enter(StagingInfo::UpdatePartitionExpr(Range(0, 50)), durable);
  EXPECT_EXIT(dn_.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(1), durable),
              ::testing::ExitedWithCode(70), "call ApplyLease with the object store");
}

}  // namespace durable_staging_test
}  // namespace
}  // namespace repartsim::model
