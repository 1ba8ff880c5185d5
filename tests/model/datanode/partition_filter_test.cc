// Goal: the datanode-side row filter of docs/protocol.md section 6.2: files whose recorded
// expression differs from the region's committed one are filtered by the region's expression with
// filter-path (DataFusion) NULL semantics; files with an equal expression and memtable rows are
// not. Method: flush rows under one expression, open a region whose manifest references that file
// under another expression, and compare scans.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace partition_filter_test {

using namespace testing;  // NOLINT

class PartitionFilterTest : public ::testing::Test {
 protected:
  // Writes `rows` to an unpartitioned region R0 and flushes them into one file (expr "").
  void FlushUnpartitioned(std::vector<Row> rows) {
    ASSERT_TRUE(dn_.HandleCreateRegion(kR0, TestSchema(), std::nullopt, store_, no_crash_).ok());
    ASSERT_TRUE(
        dn_.HandleWrite(kR0, std::move(rows), std::nullopt, Protocol::Greptime(), no_crash_).ok());
    ASSERT_TRUE(dn_.HandleFlush(kR0, store_, no_crash_).ok());
  }
  // Opens `region` as a leader with R0's files and expression `expr`.
  void OpenSharing(RegionId region, std::optional<PartitionExpr> expr) {
    OpenSharingFilesOf(dn_, store_, kR0, region, std::move(expr));
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(PartitionFilterTest, FileWithDifferentExprIsFilteredByRegionExpr) {
  FlushUnpartitioned({R(10, 1, 1), R(60, 1, 2), R(99, 1, 3), R(150, 1, 4)});
  OpenSharing(kR3, Range(50, 100));
  EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(60, 1, 2), R(99, 1, 3)}));
  // The unpartitioned source region still sees everything (no expression, no filter).
  EXPECT_EQ(Scan(dn_, kR0, store_).size(), 4u);
}

TEST_F(PartitionFilterTest, MemtableRowsAndEqualExprFilesAreNotFiltered) {
  FlushUnpartitioned({R(60, 1, 2)});
  OpenSharing(kR3, Range(50, 100));
  // A row outside the region's expression, accepted under the matching version.
  ASSERT_TRUE(
      dn_.HandleWrite(kR3, {R(7, 2, 7)}, V(Range(50, 100)), Protocol::Greptime(), no_crash_).ok());
  EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(7, 2, 7), R(60, 1, 2)}));
  ASSERT_TRUE(dn_.HandleFlush(kR3, store_, no_crash_).ok());
  // Now in a file whose expression equals the region's: still visible.
  EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(7, 2, 7), R(60, 1, 2)}));
}

TEST_F(PartitionFilterTest, NullPartitionValueFollowsFilterPathSemantics) {
  FlushUnpartitioned({RNull(1, 0), R(5, 1, 5), R(10, 1, 10), R(20, 1, 20)});
  // a < 10 becomes (a < 10 OR a IS NULL): NULL kept.
  OpenSharing(kR1, Lt(10));
  EXPECT_EQ(Scan(dn_, kR1, store_), (std::vector<Row>{RNull(1, 0), R(5, 1, 5)}));
  // a >= 10 becomes (a >= 10 AND a IS NOT NULL): NULL dropped.
  OpenSharing(kR3, GtEq(10));
  EXPECT_EQ(Scan(dn_, kR3, store_), (std::vector<Row>{R(10, 1, 10), R(20, 1, 20)}));
  // a <> 5 on NULL is NULL, i.e. false: NULL dropped (the row path would keep it).
  const RegionId r4 = RegionId::Of(TableId{1024}, RegionNumber{4});
  OpenSharing(r4, PartitionExpr::Leaf("a", CompareOp::kNotEq, Value::Int(5)));
  EXPECT_EQ(Scan(dn_, r4, store_), (std::vector<Row>{R(10, 1, 10), R(20, 1, 20)}));
  // a = NULL becomes a IS NULL.
  const RegionId r5 = RegionId::Of(TableId{1024}, RegionNumber{5});
  OpenSharing(r5, PartitionExpr::Leaf("a", CompareOp::kEq, Value::Null()));
  EXPECT_EQ(Scan(dn_, r5, store_), (std::vector<Row>{RNull(1, 0)}));
}

TEST_F(PartitionFilterTest, MissingFileIsAnUnexpectedScanError) {
  FlushUnpartitioned({R(1, 1, 1)});
  const FileId file = *store_.Manifest(kR0)->files.begin();
  ASSERT_TRUE(store_.DeleteFile(file));
  ScanReply reply = dn_.HandleScan(kR0, std::nullopt, Protocol::Greptime(), store_);
  EXPECT_EQ(reply.code, ReplyCode::kUnexpected);
  EXPECT_EQ(reply.message, "Failed to read SST file 1 of region 4398046511104(1024, 0): not found");
}

TEST_F(PartitionFilterTest, FencedReadsRejectAPlanUnderAnotherVersion) {
  FlushUnpartitioned({R(60, 1, 2)});
  OpenSharing(kR3, Range(50, 100));
  Protocol fenced = Protocol::Greptime();
  testing::SetRule(fenced, "fenced-reads");
  EXPECT_TRUE(dn_.HandleScan(kR3, V(Range(50, 100)), fenced, store_).ok());
  EXPECT_TRUE(dn_.HandleScan(kR3, std::nullopt, fenced, store_).ok());
  EXPECT_TRUE(dn_.HandleScan(kR3, V(Range(0, 100)), Protocol::Greptime(), store_).ok());
  ScanReply stale = dn_.HandleScan(kR3, V(Range(0, 100)), fenced, store_);
  EXPECT_EQ(stale.code, ReplyCode::kPartitionExprVersionMismatch);
  EXPECT_EQ(stale.message,
            "Partition expr version mismatch for region 4398046511107(1024, 3): request " +
                std::to_string(V(Range(0, 100))) + ", expected " +
                std::to_string(V(Range(50, 100))));
}

TEST_F(PartitionFilterTest, FencedReadsServeTheCommittedVersionWhileStaging) {
  FlushUnpartitioned({R(60, 1, 2)});
  OpenSharing(kR3, Range(50, 100));
  ASSERT_TRUE(dn_.HandleEnterStaging(kR3, StagingInfo::UpdatePartitionExpr(Range(50, 75)), store_,
                                     no_crash_)
                  .ok());
  Protocol fenced = Protocol::Greptime();
  testing::SetRule(fenced, "fenced-reads");
  // A frontend that planned with the new route (the staging version) must re-plan: the region
  // still serves reads with its committed expression.
  ScanReply planned_new = dn_.HandleScan(kR3, V(Range(50, 75)), fenced, store_);
  EXPECT_EQ(planned_new.code, ReplyCode::kPartitionExprVersionMismatch);
  EXPECT_EQ(planned_new.message,
            "Partition expr version mismatch for region 4398046511107(1024, 3): request " +
                std::to_string(V(Range(50, 75))) + ", expected " +
                std::to_string(V(Range(50, 100))));
  ScanReply planned_old = dn_.HandleScan(kR3, V(Range(50, 100)), fenced, store_);
  ASSERT_TRUE(planned_old.ok());
  EXPECT_EQ(planned_old.rows, (std::vector<Row>{R(60, 1, 2)}));
  // greptime does not fence reads at all.
  EXPECT_TRUE(dn_.HandleScan(kR3, V(Range(50, 75)), Protocol::Greptime(), store_).ok());
}

}  // namespace partition_filter_test
}  // namespace
}  // namespace repartsim::model
