// Goal: an unfiltered count(*) (a count-only scan) of an append-mode region is answered from
// its files' row counts plus its memtable rows, as GreptimeDB's region scan statistics do, so
// a file shared with another region after a split counts rows outside the region (#9149);
// with exact-count-statistics (#9154) a region whose files need the partition filter counts
// its filtered scan instead. Regions that deduplicate always count their scan.
// Method: flush rows under one expression, open two regions sharing the file under the two
// halves of a split, and compare count-only scans with the rows a plain scan returns.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace count_statistics_test {

using namespace testing;  // NOLINT

const RegionId kR2 = RegionId::Of(TableId{1024}, RegionNumber{2});

class CountStatisticsTest : public ::testing::Test {
 protected:
  // R0 (a < 10) flushes four rows into one file; R0 and R2 then take the split halves of
  // a < 10 and share that file.
  void SplitSharingOneFile(bool append_mode) {
    ASSERT_TRUE(
        dn_.HandleCreateRegion(kR0, TestSchema(append_mode), Lt(10), store_, no_crash_).ok());
    ASSERT_TRUE(dn_.HandleWrite(kR0, {R(1, 1, 1), R(3, 2, 2), R(6, 3, 3), R(8, 4, 4)}, V(Lt(10)),
                                Protocol::Greptime(), no_crash_)
                    .ok());
    ASSERT_TRUE(dn_.HandleFlush(kR0, store_, no_crash_).ok());
    ASSERT_TRUE(dn_.HandleCloseRegion(kR0).ok());
    Share(kR0, Lt(5));
    Share(kR2, Range(5, 10));
  }
  void Share(RegionId region, std::optional<PartitionExpr> expr) {
    OpenSharingFilesOf(dn_, store_, kR0, region, std::move(expr));
  }
  uint64_t Count(RegionId region, const Protocol& protocol) {
    ScanReply reply = dn_.HandleScan(region, std::nullopt, protocol, store_,
                                     Datanode::kUnplannedScan, /*count_only=*/true);
    EXPECT_TRUE(reply.ok()) << reply.message;
    EXPECT_TRUE(reply.rows.empty());
    return reply.count;
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(CountStatisticsTest, GreptimeCountsTheWholeSharedFileInEachRegion) {
  SplitSharingOneFile(/*append_mode=*/true);
  // Each half holds two of the four rows...
  EXPECT_EQ(Scan(dn_, kR0, store_), (std::vector<Row>{R(1, 1, 1), R(3, 2, 2)}));
  EXPECT_EQ(Scan(dn_, kR2, store_), (std::vector<Row>{R(6, 3, 3), R(8, 4, 4)}));
  // ...but its statistics report all four: count(*) is 8.
  EXPECT_EQ(Count(kR0, Protocol::Greptime()), 4u);
  EXPECT_EQ(Count(kR2, Protocol::Greptime()), 4u);
  Protocol exact = Protocol::Greptime();
  testing::SetRule(exact, "exact-count-statistics");
  EXPECT_EQ(Count(kR0, exact), 2u);
  EXPECT_EQ(Count(kR2, exact), 2u);
  EXPECT_EQ(Count(kR0, Protocol::Reference()), 2u);
}

TEST_F(CountStatisticsTest, MemtableRowsAndMatchingFilesKeepTheStatistics) {
  SplitSharingOneFile(/*append_mode=*/true);
  Protocol exact = Protocol::Greptime();
  testing::SetRule(exact, "exact-count-statistics");
  // A new write to R2 and a flush under its own expression: R2 still has the shared file, so
  // the exact rule still scans (3 rows), greptime counts 4 + 1.
  ASSERT_TRUE(
      dn_.HandleWrite(kR2, {R(7, 5, 5)}, V(Range(5, 10)), Protocol::Greptime(), no_crash_).ok());
  EXPECT_EQ(Count(kR2, Protocol::Greptime()), 5u);
  EXPECT_EQ(Count(kR2, exact), 3u);
  // The unsplit region 1 of an untouched table keeps its statistics under the rule.
  const RegionId r1 = kR1;
  ASSERT_TRUE(dn_.HandleCreateRegion(r1, TestSchema(true), GtEq(10), store_, no_crash_).ok());
  ASSERT_TRUE(
      dn_.HandleWrite(r1, {R(11, 1, 1), R(12, 1, 1)}, V(GtEq(10)), Protocol::Greptime(), no_crash_)
          .ok());
  ASSERT_TRUE(dn_.HandleFlush(r1, store_, no_crash_).ok());
  ASSERT_TRUE(
      dn_.HandleWrite(r1, {R(13, 1, 1)}, V(GtEq(10)), Protocol::Greptime(), no_crash_).ok());
  EXPECT_EQ(Count(r1, exact), 3u);
}

TEST_F(CountStatisticsTest, RegionsThatDeduplicateCountTheirScan) {
  SplitSharingOneFile(/*append_mode=*/false);
  EXPECT_EQ(Count(kR0, Protocol::Greptime()), 2u);
  EXPECT_EQ(Count(kR2, Protocol::Greptime()), 2u);
}

}  // namespace count_statistics_test
}  // namespace
}  // namespace repartsim::model
