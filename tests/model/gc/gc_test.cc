// Goal: RunGc (model/gc/gc.h) under both profiles: greptime deletes a file when neither its
// writer's normal manifest nor those of the writer's table_repart destinations reference it;
// Rule::kGcPositiveProof deletes only files no normal manifest, staging manifest or remap blob
// references. Cases: a merge whose table_repart lacks B -> A (the group failed after
// ApplyStagingManifest and before ExitStaging) where greptime deletes a file A still reads;
// the recorded mapping keeping it; unreferenced files collected by both; staging-only files.
// Method: build the state with the datanode handlers, run one pass, compare the deleted ids,
// the remaining files and a scan of the kept region.
#include "model/gc/gc.h"

#include <gtest/gtest.h>

#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::model {
namespace {
namespace gc_test {

using namespace testing;  // NOLINT

const TableId kTable{1024};
const RegionId kA = kR0;
const RegionId kB = kR1;

Protocol Reference() { return Protocol::Reference(); }

std::vector<uint64_t> Ids(const std::vector<FileId>& files) {
  std::vector<uint64_t> out;
  for (FileId f : files) out.push_back(f.value);
  return out;
}

class GcTest : public ::testing::Test {
 protected:
  // A = [0, 50) with file 1 (row 10), B = [50, 100) with file 2 (row 60).
  void SetUp() override {
    ASSERT_TRUE(dn_.HandleCreateRegion(kA, TestSchema(), Range(0, 50), store_, no_crash_).ok());
    ASSERT_TRUE(dn_.HandleCreateRegion(kB, TestSchema(), Range(50, 100), store_, no_crash_).ok());
    WriteFlush(kA, R(10, 1, 1), Range(0, 50));
    WriteFlush(kB, R(60, 1, 6), Range(50, 100));
  }
  void WriteFlush(RegionId region, Row row, const PartitionExpr& expr) {
    ASSERT_TRUE(
        dn_.HandleWrite(region, {std::move(row)}, V(expr), Protocol::Greptime(), no_crash_).ok());
    ASSERT_TRUE(dn_.HandleFlush(region, store_, no_crash_).ok());
  }
  // Merges B into A up to ApplyStagingManifest on A (the central), then drops B, as the parent
  // does for a merged-away source; table_repart gets `repart`.
  void MergeAndDropB(std::optional<TableRepart> repart) {
    ASSERT_TRUE(dn_.HandleEnterStaging(kA, StagingInfo::UpdatePartitionExpr(Range(0, 100)), store_,
                                       no_crash_)
                    .ok());
    ASSERT_TRUE(dn_.HandleEnterStaging(kB, StagingInfo::RejectAllWrites(), store_, no_crash_).ok());
    std::map<RegionId, std::vector<RegionId>> mapping{{kA, {kA}}, {kB, {kA}}};
    std::map<RegionId, std::optional<PartitionExpr>> targets{{kA, Range(0, 100)}};
    ASSERT_TRUE(dn_.HandleRemapManifest(kA, {kA, kB}, mapping, targets, store_, no_crash_).ok());
    ASSERT_TRUE(dn_.HandleApplyStagingManifest(kA, Range(0, 100), kA, store_, no_crash_).ok());
    ASSERT_TRUE(dn_.HandleDropRegion(kB, store_, no_crash_).ok());
    if (repart) kv_.Put(TableRepartKey(kTable), EncodeTableRepart(*repart));
  }
  ScanReply ScanA() { return dn_.HandleScan(kA, std::nullopt, Protocol::Greptime(), store_); }

  ObjectStore store_;
  KvStore kv_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(GcTest, GreptimeDeletesAFileTheKeptRegionReadsWhenTheMergeMappingIsMissing) {
  MergeAndDropB(std::nullopt);
  ASSERT_EQ(store_.Manifest(kA)->files, (std::set<FileId>{FileId{1}, FileId{2}}));
  GcReport report = RunGc(store_, kv_, kTable, Protocol::Greptime());
  EXPECT_EQ(report.files_examined, 2u);
  EXPECT_EQ(Ids(report.deleted), std::vector<uint64_t>{2});
  EXPECT_EQ(store_.File(FileId{2}), nullptr);
  ScanReply scan = ScanA();
  EXPECT_EQ(scan.code, ReplyCode::kUnexpected);
  EXPECT_EQ(scan.message, "Failed to read SST file 2 of region 4398046511104(1024, 0): not found");
}

TEST_F(GcTest, PositiveProofKeepsTheFileWhenTheMergeMappingIsMissing) {
  MergeAndDropB(std::nullopt);
  GcReport report = RunGc(store_, kv_, kTable, Reference());
  EXPECT_EQ(report.files_examined, 2u);
  EXPECT_TRUE(report.deleted.empty());
  ScanReply scan = ScanA();
  ASSERT_TRUE(scan.ok()) << scan.message;
  EXPECT_EQ(scan.rows, (std::vector<Row>{R(10, 1, 1), R(60, 1, 6)}));
}

TEST_F(GcTest, GreptimeKeepsTheFileWhenTheMappingIsRecorded) {
  TableRepart repart;
  repart.src_to_dst[kA] = {kA};
  repart.src_to_dst[kB] = {kA};
  MergeAndDropB(repart);
  EXPECT_TRUE(RunGc(store_, kv_, kTable, Protocol::Greptime()).deleted.empty());
  EXPECT_EQ(ScanA().rows, (std::vector<Row>{R(10, 1, 1), R(60, 1, 6)}));
}

TEST_F(GcTest, BothProfilesCollectUnreferencedFiles) {
  for (const Protocol& p : {Protocol::Greptime(), Reference()}) {
    SCOPED_TRACE(p.base_name());
    ObjectStore store = store_;
    Datanode dn = dn_;
    // File 3: an SST orphaned by a crash before its manifest edit (the WAL keeps its rows).
    ASSERT_TRUE(
        dn.HandleWrite(kA, {R(20, 1, 2)}, V(Range(0, 50)), Protocol::Greptime(), no_crash_).ok());
    CrashAt crash("datanode.flush.after_sst");
    ASSERT_EQ(dn.HandleFlush(kA, store, crash).code, ReplyCode::kCrashed);
    // File 2: B is dropped and nothing shares its file.
    dn.Crash();
    dn.Reopen(store);
    ASSERT_TRUE(dn.HandleDropRegion(kB, store, no_crash_).ok());
    // A file of another table is never examined.
    store.AddFile(RegionId::Of(TableId{2048}, RegionNumber{0}), std::nullopt, {});
    GcReport report = RunGc(store, kv_, kTable, p);
    EXPECT_EQ(report.files_examined, 3u);
    EXPECT_EQ(Ids(report.deleted), (std::vector<uint64_t>{2, 3}));
    EXPECT_NE(store.File(FileId{1}), nullptr);
    EXPECT_NE(store.File(FileId{4}), nullptr);
    EXPECT_EQ(dn.HandleScan(kA, std::nullopt, p, store).rows,
              (std::vector<Row>{R(10, 1, 1), R(20, 1, 2)}));
  }
}

TEST_F(GcTest, StagingOnlyFilesAreDeletedByGreptimeAndKeptWithPositiveProof) {
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kA, StagingInfo::UpdatePartitionExpr(Range(0, 100)), store_, no_crash_)
          .ok());
  WriteFlush(kA, R(70, 2, 7), Range(0, 100));  // file 3, in A's staging manifest only
  ObjectStore store = store_;
  EXPECT_EQ(Ids(RunGc(store, kv_, kTable, Protocol::Greptime()).deleted), std::vector<uint64_t>{3});
  EXPECT_TRUE(RunGc(store_, kv_, kTable, Reference()).deleted.empty());
  // A remap blob is a reference too: only the blob refers to B's file once B is dropped.
  std::map<RegionId, std::vector<RegionId>> mapping{{kA, {kA}}, {kB, {kA}}};
  std::map<RegionId, std::optional<PartitionExpr>> targets{{kA, Range(0, 100)}};
  ASSERT_TRUE(dn_.HandleEnterStaging(kB, StagingInfo::RejectAllWrites(), store_, no_crash_).ok());
  ASSERT_TRUE(dn_.HandleRemapManifest(kA, {kA, kB}, mapping, targets, store_, no_crash_).ok());
  ASSERT_TRUE(dn_.HandleDropRegion(kB, store_, no_crash_).ok());
  EXPECT_TRUE(RunGc(store_, kv_, kTable, Reference()).deleted.empty());
  ASSERT_TRUE(dn_.HandleApplyStagingManifest(kA, Range(0, 100), kA, store_, no_crash_).ok());
  EXPECT_EQ(dn_.HandleScan(kA, std::nullopt, Protocol::Greptime(), store_).rows,
            (std::vector<Row>{R(10, 1, 1), R(60, 1, 6), R(70, 2, 7)}));
}

}  // namespace gc_test
}  // namespace
}  // namespace repartsim::model
