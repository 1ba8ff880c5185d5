// Goal: RunGc (model/gc/gc.h) as the modelled commit's GC decides: a dropped region that
// __table_repart lists offers its files at once, a collected region offers the files a
// compaction removed from its manifest once the lingering time has passed, and an offered
// file that a normal manifest of the table route lists is kept; Rule::kGcPositiveProof keeps
// one that a staging manifest, a remap blob or a region outside the route lists too. Cases: a
// merge's adopted files kept, a dropped region's unshared file deleted, removed files and the
// lingering time, a region that is not collected, crash orphans left alone, a merged-away region
// dropped while only the central region's remap blob names its file, and a route region left unread
// (its leader had not opened it). Method: build the state with the datanode handlers, run one pass,
// compare the deleted ids, the remaining files and a scan.
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
  static GcScope Scope(std::vector<RegionId> route, std::set<RegionId> collectable, int64_t now) {
    return GcScope{kTable, std::move(route), std::move(collectable), sim::AtMs(now), 3'600'000, {}};
  }

  ObjectStore store_;
  KvStore kv_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TableRepart BIntoA() {
  TableRepart repart;
  repart.src_to_dst[kA] = {kA};
  repart.src_to_dst[kB] = {kA};
  return repart;
}

TEST_F(GcTest, AMergeTargetKeepsTheFilesItAdoptedFromTheDroppedSource) {
  MergeAndDropB(BIntoA());
  ASSERT_EQ(store_.Manifest(kA)->files, (std::set<FileId>{FileId{1}, FileId{2}}));
  for (const Protocol& p : {Protocol::Greptime(), Reference()}) {
    const GcReport report = RunGc(store_, kv_, Scope({kA}, {kA}, 0), p);
    EXPECT_EQ(report.files_examined, 2u);
    EXPECT_EQ(report.regions_collected, 2u);  // A, and B as a dropped source
    EXPECT_TRUE(report.deleted.empty());
  }
  EXPECT_EQ(ScanA().rows, (std::vector<Row>{R(10, 1, 1), R(60, 1, 6)}));
}

TEST_F(GcTest, ADroppedRegionsUnsharedFilesGoAtOnceWhenTableRepartListsIt) {
  ASSERT_TRUE(dn_.HandleDropRegion(kB, store_, no_crash_).ok());
  EXPECT_TRUE(RunGc(store_, kv_, Scope({kA}, {kA}, 0), Protocol::Greptime()).deleted.empty());
  kv_.Put(TableRepartKey(kTable), EncodeTableRepart(BIntoA()));
  EXPECT_EQ(Ids(RunGc(store_, kv_, Scope({kA}, {kA}, 0), Protocol::Greptime()).deleted),
            std::vector<uint64_t>{2});
  EXPECT_EQ(store_.File(FileId{2}), nullptr);
  EXPECT_NE(store_.File(FileId{1}), nullptr);
}

TEST_F(GcTest, RemovedFilesWaitForTheLingeringTimeAndASharerKeepsThem) {
  WriteFlush(kA, R(11, 1, 2), Range(0, 50));  // file 3
  // B takes a reference to A's file 1, as a split target would.
  RegionManifest b = *store_.Manifest(kB);
  b.files.insert(FileId{1});
  store_.PutManifest(b);
  ASSERT_TRUE(dn_.HandleCompact(kA, store_, no_crash_, Protocol::Greptime(), sim::AtMs(1000)).ok());
  EXPECT_EQ(store_.Manifest(kA)->removed_files,
            (std::map<FileId, int64_t>{{FileId{1}, 1000}, {FileId{3}, 1000}}));
  GcScope early = Scope({kA, kB}, {kA, kB}, 1999);
  early.lingering_ms = 1000;
  EXPECT_TRUE(RunGc(store_, kv_, early, Protocol::Greptime()).deleted.empty());
  GcScope due = Scope({kA, kB}, {kA, kB}, 2000);
  due.lingering_ms = 1000;
  EXPECT_EQ(Ids(RunGc(store_, kv_, due, Protocol::Greptime()).deleted), std::vector<uint64_t>{3});
  EXPECT_EQ(Scan(dn_, kA, store_), (std::vector<Row>{R(10, 1, 1), R(11, 1, 2)}));
}

TEST_F(GcTest, ARegionThatIsNotCollectedOffersNothing) {
  WriteFlush(kA, R(11, 1, 2), Range(0, 50));
  ASSERT_TRUE(dn_.HandleCompact(kA, store_, no_crash_, Protocol::Greptime(), sim::AtMs(0)).ok());
  const GcReport report =
      RunGc(store_, kv_, Scope({kA, kB}, {kB}, 3'600'000), Protocol::Greptime());
  EXPECT_EQ(report.regions_collected, 1u);
  EXPECT_TRUE(report.deleted.empty());
  EXPECT_EQ(
      Ids(RunGc(store_, kv_, Scope({kA, kB}, {kA, kB}, 3'600'000), Protocol::Greptime()).deleted),
      (std::vector<uint64_t>{1, 3}));
}

TEST_F(GcTest, OrphansOfACrashAndOtherTablesAreLeftAlone) {
  // File 3: an SST orphaned by a crash before its manifest edit (the WAL keeps its rows): an
  // unknown file of an open region lingers for a day.
  ASSERT_TRUE(
      dn_.HandleWrite(kA, {R(20, 1, 2)}, V(Range(0, 50)), Protocol::Greptime(), no_crash_).ok());
  CrashAt crash("datanode.flush.after_sst");
  ASSERT_EQ(dn_.HandleFlush(kA, store_, crash).code, ReplyCode::kCrashed);
  store_.AddFile(RegionId::Of(TableId{2048}, RegionNumber{0}), std::nullopt, {});
  for (const Protocol& p : {Protocol::Greptime(), Reference()}) {
    const GcReport report = RunGc(store_, kv_, Scope({kA, kB}, {kA, kB}, 86'400'000), p);
    EXPECT_EQ(report.files_examined, 3u);
    EXPECT_TRUE(report.deleted.empty());
  }
}

TEST_F(GcTest, ARemapBlobKeepsTheDroppedSourcesFileOnlyWithPositiveProof) {
  ASSERT_TRUE(
      dn_.HandleEnterStaging(kA, StagingInfo::UpdatePartitionExpr(Range(0, 100)), store_, no_crash_)
          .ok());
  ASSERT_TRUE(dn_.HandleEnterStaging(kB, StagingInfo::RejectAllWrites(), store_, no_crash_).ok());
  std::map<RegionId, std::vector<RegionId>> mapping{{kA, {kA}}, {kB, {kA}}};
  std::map<RegionId, std::optional<PartitionExpr>> targets{{kA, Range(0, 100)}};
  ASSERT_TRUE(dn_.HandleRemapManifest(kA, {kA, kB}, mapping, targets, store_, no_crash_).ok());
  // B is dropped before A applies: only A's remap blob names file 2.
  ASSERT_TRUE(dn_.HandleDropRegion(kB, store_, no_crash_).ok());
  kv_.Put(TableRepartKey(kTable), EncodeTableRepart(BIntoA()));
  ObjectStore store = store_;
  EXPECT_TRUE(RunGc(store_, kv_, Scope({kA}, {}, 0), Reference()).deleted.empty());
  EXPECT_EQ(Ids(RunGc(store, kv_, Scope({kA}, {}, 0), Protocol::Greptime()).deleted),
            std::vector<uint64_t>{2});
  ASSERT_TRUE(dn_.HandleApplyStagingManifest(kA, Range(0, 100), kA, store_, no_crash_).ok());
  EXPECT_EQ(ScanA().rows, (std::vector<Row>{R(10, 1, 1), R(60, 1, 6)}));
}

TEST_F(GcTest, AnUnreadRouteRegionProtectsNothingEvenWithPositiveProof) {
  // A adopted B's file 2 and B was dropped; A's leader had not opened A (GreptimeDB before
  // #8445 skipped it). Positive proof reads what GetFileRefs cannot show, not route regions.
  MergeAndDropB(BIntoA());
  for (const Protocol& p : {Protocol::Greptime(), Reference()}) {
    ObjectStore store = store_;
    GcScope scope = Scope({kA}, {}, 0);
    scope.unread = {kA};
    EXPECT_EQ(Ids(RunGc(store, kv_, scope, p).deleted), std::vector<uint64_t>{2});
  }
  // A region outside the route that lists the file keeps it under positive proof only.
  RegionManifest other = *store_.Manifest(kA);
  other.region_id = kR3;
  store_.PutManifest(other);
  GcScope scope = Scope({kA}, {}, 0);
  scope.unread = {kA};
  ObjectStore store = store_;
  EXPECT_TRUE(RunGc(store_, kv_, scope, Reference()).deleted.empty());
  EXPECT_EQ(Ids(RunGc(store, kv_, scope, Protocol::Greptime()).deleted), std::vector<uint64_t>{2});
}

}  // namespace gc_test
}  // namespace
}  // namespace repartsim::model
