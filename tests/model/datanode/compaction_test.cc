// Goal: Datanode::HandleCompact as docs/protocol.md section 10.9 describes it: the files of a
// writable leader become one, read as a scan reads them (deduplicated, foreign files filtered
// by the region's expression), written under the region's expression, the inputs replaced in
// one manifest edit and left in the object store; and compaction-effective-sequences
// (GreptimeDB #9146, PR #9147): without it every output row takes the largest input file
// sequence, so an old value compacted with a file adopted from a busier region outranks the
// region's newer write still in the memtable. Method: a datanode and an object store driven by
// hand, with manifests written as a repartition would leave them.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace compaction_test {

using namespace testing;  // NOLINT

class CompactionTest : public ::testing::Test {
 protected:
  void Create(RegionId region, std::optional<PartitionExpr> expr = std::nullopt) {
    ASSERT_TRUE(
        dn_.HandleCreateRegion(region, TestSchema(), std::move(expr), store_, no_crash_).ok());
  }
  void WriteAndFlush(RegionId region, std::vector<Row> rows) {
    const std::optional<PartitionExpr>& expr = dn_.FindRegion(region)->version().partition_expr;
    const std::optional<uint64_t> version = expr ? std::optional<uint64_t>(V(*expr)) : std::nullopt;
    ASSERT_TRUE(
        dn_.HandleWrite(region, std::move(rows), version, Protocol::Greptime(), no_crash_).ok());
    ASSERT_TRUE(dn_.HandleFlush(region, store_, no_crash_).ok());
  }
  const std::set<FileId>& Files(RegionId region) { return dn_.FindRegion(region)->version().files; }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(CompactionTest, FilesBecomeOneDeduplicatedFileAndTheInputsStayInTheStore) {
  Create(kR0);
  WriteAndFlush(kR0, {R(1, 1, 10), R(2, 1, 20)});
  WriteAndFlush(kR0, {R(1, 1, 11), R(3, 1, 30)});
  const std::set<FileId> inputs = Files(kR0);
  ASSERT_EQ(inputs.size(), 2u);
  const uint64_t manifest_version = store_.Manifest(kR0)->manifest_version;

  const Reply reply = dn_.HandleCompact(kR0, store_, no_crash_, Protocol::Greptime());
  ASSERT_TRUE(reply.ok()) << reply.message;
  EXPECT_EQ(reply.affected_rows, 3u);  // key 1 once, at its newer value
  ASSERT_EQ(Files(kR0).size(), 1u);
  const FileId output = *Files(kR0).begin();
  EXPECT_EQ(inputs.count(output), 0u);
  EXPECT_EQ(store_.Manifest(kR0)->files, Files(kR0));
  EXPECT_EQ(store_.Manifest(kR0)->manifest_version, manifest_version + 1);
  EXPECT_EQ(Scan(dn_, kR0, store_), (std::vector<Row>{R(1, 1, 11), R(2, 1, 20), R(3, 1, 30)}));
  for (FileId f : inputs) EXPECT_NE(store_.File(f), nullptr) << f.value;
  EXPECT_EQ(store_.File(output)->rows.size(), 3u);
}

TEST_F(CompactionTest, FewerThanTwoFilesIsANoOp) {
  Create(kR0);
  EXPECT_EQ(dn_.HandleCompact(kR0, store_, no_crash_, Protocol::Greptime()).affected_rows, 0u);
  WriteAndFlush(kR0, {R(1, 1, 10)});
  const std::set<FileId> before = Files(kR0);
  const uint64_t files_in_store = store_.files().size();
  const Reply reply = dn_.HandleCompact(kR0, store_, no_crash_, Protocol::Greptime());
  EXPECT_TRUE(reply.ok());
  EXPECT_EQ(reply.affected_rows, 0u);
  EXPECT_EQ(Files(kR0), before);
  EXPECT_EQ(store_.files().size(), files_in_store);
}

TEST_F(CompactionTest, AStagingRegionIsNotCompacted) {
  Create(kR0, Range(0, 100));
  WriteAndFlush(kR0, {R(1, 1, 10)});
  WriteAndFlush(kR0, {R(2, 1, 20)});
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kR0, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_, no_crash_)
          .ok());
  const Reply reply = dn_.HandleCompact(kR0, store_, no_crash_, Protocol::Greptime());
  EXPECT_EQ(reply.code, ReplyCode::kRegionNotReady);
  EXPECT_EQ(Files(kR0).size(), 2u);
  const RegionId missing = RegionId::Of(TableId{1024}, RegionNumber{9});
  EXPECT_EQ(dn_.HandleCompact(missing, store_, no_crash_, Protocol::Greptime()).code,
            ReplyCode::kRegionNotFound);
}

TEST_F(CompactionTest, AForeignFileIsFilteredAndTheOutputIsWrittenUnderTheRegionExpression) {
  Create(kR0);
  WriteAndFlush(kR0, {R(10, 1, 1), R(60, 1, 2), R(150, 1, 3)});
  OpenSharingFilesOf(dn_, store_, kR0, kR3, Range(50, 100));
  WriteAndFlush(kR3, {R(70, 1, 7)});
  ASSERT_EQ(Files(kR3).size(), 2u);
  const Reply reply = dn_.HandleCompact(kR3, store_, no_crash_, Protocol::Greptime());
  ASSERT_TRUE(reply.ok()) << reply.message;
  EXPECT_EQ(reply.affected_rows, 2u);
  const SstFile* output = store_.File(*Files(kR3).begin());
  ASSERT_NE(output, nullptr);
  EXPECT_EQ(output->expr_text, dn_.FindRegion(kR3)->committed_expr_text());
  EXPECT_EQ(output->writer, kR3);
  EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(60, 1, 2), R(70, 1, 7)}));
  // The source region still reads its own file, which the compaction did not touch.
  EXPECT_EQ(Scan(dn_, kR0, store_).size(), 3u);
}

// R0 writes key 60 five times (source sequences 1..5) and flushes; R3 adopts that file, writes
// key 70 (sequence 1) and flushes it, then writes key 70 again (sequence 2, in the memtable).
class AdoptedSequenceTest : public CompactionTest {
 protected:
  void SetUp() override {
    Create(kR0);
    for (int64_t v = 1; v <= 5; ++v) {
      ASSERT_TRUE(
          dn_.HandleWrite(kR0, {R(60, 1, v)}, std::nullopt, Protocol::Greptime(), no_crash_).ok());
    }
    ASSERT_TRUE(dn_.HandleFlush(kR0, store_, no_crash_).ok());
  }
  // Opens R3 with R0's file, at admission sequence `admission` (0: none), and writes key 70.
  void OpenTarget(uint64_t admission) {
    RegionManifest m = *store_.Manifest(kR0);
    m.region_id = kR3;
    m.partition_expr = Range(50, 100);
    m.flushed_sequence = 0;  // a region of its own: its sequences start after its admissions
    if (admission != 0) m.file_sequences.emplace(*m.files.begin(), admission);
    store_.PutManifest(m);
    ASSERT_TRUE(dn_.HandleOpenRegion(kR3, store_).ok());
    ASSERT_TRUE(dn_.ApplyLease(kR3, RegionRole::kLeader, sim::AtMs(10000), Protocol::Greptime()));
    WriteAndFlush(kR3, {R(70, 1, 1)});
    ASSERT_TRUE(
        dn_.HandleWrite(kR3, {R(70, 1, 2)}, V(Range(50, 100)), Protocol::Greptime(), no_crash_)
            .ok());
    ASSERT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(60, 1, 5), R(70, 1, 2)}));
  }
  std::vector<Row> CompactAndScan(bool effective_sequences, bool admissions) {
    Protocol protocol = Protocol::Greptime();
    testing::SetRule(protocol, "target-sequence-foreign-files", admissions);
    testing::SetRule(protocol, "compaction-effective-sequences", effective_sequences);
    const Reply reply = dn_.HandleCompact(kR3, store_, no_crash_, protocol);
    EXPECT_TRUE(reply.ok()) << reply.message;
    EXPECT_EQ(reply.affected_rows, 2u);
    EXPECT_EQ(Files(kR3).size(), 1u);
    EXPECT_TRUE(dn_.FindRegion(kR3)->version().file_sequences.empty());
    return Scan(dn_, kR3, store_);
  }
  const SstFile& Output() { return *store_.File(*Files(kR3).begin()); }
};

TEST_F(AdoptedSequenceTest, TheLargestInputSequenceLiftsAnOldValueAboveTheMemtable) {
  OpenTarget(/*admission=*/0);
  // Both output rows at sequence 5, the adopted file's: key 70's old value outranks the
  // memtable's newer one (sequence 2).
  EXPECT_EQ(CompactAndScan(false, false), (std::vector<Row>{R(60, 1, 5), R(70, 1, 1)}));
  EXPECT_EQ(Output().rows[0].sequence, 5u);
  EXPECT_EQ(Output().rows[1].sequence, 5u);
}

TEST_F(AdoptedSequenceTest, EffectiveSequencesKeepEachRowsOwn) {
  OpenTarget(/*admission=*/0);
  EXPECT_EQ(CompactAndScan(true, false), (std::vector<Row>{R(60, 1, 5), R(70, 1, 2)}));
  EXPECT_EQ(Output().rows[0].sequence, 5u);
  EXPECT_EQ(Output().rows[1].sequence, 1u);
}

TEST_F(AdoptedSequenceTest, AnAdmissionSequenceIsTheAdoptedFilesSequence) {
  // Adopted at sequence 1, the target's first write to key 70 takes 2 and the flush makes a
  // file whose sequence is 2; the memtable's write takes 3: the largest input sequence is 2.
  OpenTarget(/*admission=*/1);
  EXPECT_EQ(CompactAndScan(false, true), (std::vector<Row>{R(60, 1, 5), R(70, 1, 2)}));
  EXPECT_EQ(Output().rows[0].sequence, 2u);
  EXPECT_EQ(Output().rows[1].sequence, 2u);
}

TEST_F(AdoptedSequenceTest, EffectiveSequencesKeepTheAdmissionSequence) {
  OpenTarget(/*admission=*/1);
  EXPECT_EQ(CompactAndScan(true, true), (std::vector<Row>{R(60, 1, 5), R(70, 1, 2)}));
  EXPECT_EQ(Output().rows[0].sequence, 1u);  // key 60 at its admission sequence
  EXPECT_EQ(Output().rows[1].sequence, 2u);
}

TEST_F(CompactionTest, ACrashAfterTheOutputLeavesItOutsideEveryManifest) {
  Create(kR0);
  WriteAndFlush(kR0, {R(1, 1, 10)});
  WriteAndFlush(kR0, {R(2, 1, 20)});
  const std::set<FileId> inputs = Files(kR0);
  const uint64_t files_in_store = store_.files().size();
  CrashAt crash("datanode.compact.after_sst");
  EXPECT_EQ(dn_.HandleCompact(kR0, store_, crash, Protocol::Greptime()).code, ReplyCode::kCrashed);
  EXPECT_TRUE(crash.fired());
  EXPECT_EQ(store_.Manifest(kR0)->files, inputs);
  EXPECT_EQ(store_.files().size(), files_in_store + 1);
}

// A split target applies, compacts what it adopted, then stages and applies again (its group
// dispatched again): apply-skips-removed-files keeps the adopted files out the second time.
class ReappliedTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dn_.HandleCreateRegion(kR0, TestSchema(/*append_mode=*/true), Range(0, 100), store_,
                                       no_crash_)
                    .ok());
    for (int64_t v : {1, 2}) {
      ASSERT_TRUE(
          dn_.HandleWrite(kR0, {R(60, v, v)}, V(Range(0, 100)), Protocol::Greptime(), no_crash_)
              .ok());
      ASSERT_TRUE(dn_.HandleFlush(kR0, store_, no_crash_).ok());
    }
    ASSERT_TRUE(
        dn_.HandleCreateRegion(kR3, TestSchema(true), Range(50, 100), store_, no_crash_).ok());
    ASSERT_TRUE(dn_.ApplyLease(kR3, RegionRole::kLeader, sim::AtMs(100000), Protocol::Greptime()));
    ASSERT_TRUE(dn_.HandleEnterStaging(kR0, StagingInfo::UpdatePartitionExpr(Range(0, 50)), store_,
                                       no_crash_)
                    .ok());
  }
  void StageRemapApply(const Protocol& protocol) {
    ASSERT_TRUE(dn_.HandleEnterStaging(kR3, StagingInfo::UpdatePartitionExpr(Range(50, 100)),
                                       protocol, store_, no_crash_)
                    .ok());
    const std::map<RegionId, std::vector<RegionId>> mapping = {{kR0, {kR0, kR3}}};
    const std::map<RegionId, std::optional<PartitionExpr>> targets = {{kR0, Range(0, 50)},
                                                                      {kR3, Range(50, 100)}};
    ASSERT_TRUE(dn_.HandleRemapManifest(kR0, {kR0}, mapping, targets, store_, no_crash_).ok());
    ASSERT_TRUE(
        dn_.HandleApplyStagingManifest(kR3, Range(50, 100), kR0, protocol, store_, no_crash_).ok());
  }
  std::vector<Row> RunWith(bool skip_removed) {
    Protocol protocol = Protocol::Greptime();
    SetRule(protocol, "apply-skips-removed-files", skip_removed);
    StageRemapApply(protocol);
    EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(60, 1, 1), R(60, 2, 2)}));
    EXPECT_TRUE(dn_.HandleCompact(kR3, store_, no_crash_, protocol).ok());
    EXPECT_EQ(dn_.FindRegion(kR3)->version().removed_files.size(), 2u);
    StageRemapApply(protocol);
    return Scan(dn_, kR3, store_);
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(ReappliedTargetTest, RemovedFilesStayOut) {
  EXPECT_EQ(RunWith(true), (std::vector<Row>{R(60, 1, 1), R(60, 2, 2)}));
  EXPECT_EQ(dn_.FindRegion(kR3)->version().files.size(), 1u);
}

TEST_F(ReappliedTargetTest, WithoutTheSwitchTheirRowsComeBackTwice) {
  EXPECT_EQ(RunWith(false), (std::vector<Row>{R(60, 1, 1), R(60, 1, 1), R(60, 2, 2), R(60, 2, 2)}));
  EXPECT_EQ(dn_.FindRegion(kR3)->version().files.size(), 3u);
}

}  // namespace compaction_test
}  // namespace
}  // namespace repartsim::model
