// Goal: the liveness probe rows are exactly one per distinct partition-key tuple in
// first-seen order, capped, plus the first tuple of each final region the cap left out; the
// fresh time index is above every written one; the covering region follows the row path.
// Method: hand-written rows of t(host, ts, v) partitioned on host, a two-region route
// (host < 'm', host >= 'm'), caps 64, 2 and 1, NULL hosts, an unpartitioned table.
#include "checker/check/probe_rows.h"

#include <gtest/gtest.h>

#include "tests/checker/check/test_schema.h"

namespace repartsim::check {
namespace {
namespace probe_rows_test {

using model::CompareOp;
using model::PartitionExpr;
using model::Value;
using testing_schema::R;
using testing_schema::Schema;

const model::TableId kTable{1024};
const model::RegionId kLow = model::RegionId::Of(kTable, model::RegionNumber{0});
const model::RegionId kHigh = model::RegionId::Of(kTable, model::RegionNumber{1});

class ProbeRowsTest : public ::testing::Test {
 protected:
  PartitionExpr low_ = PartitionExpr::Leaf("host", CompareOp::kLt, Value::String("m"));
  PartitionExpr high_ = PartitionExpr::Leaf("host", CompareOp::kGtEq, Value::String("m"));
  std::vector<ProbeRegion> regions_{{kLow, &low_}, {kHigh, &high_}};
  std::vector<model::Row> rows_{R("a", 5, 1),     R("b", 9, 2), R("a", 7, 3),
                                R(nullptr, 2, 4), R("x", 3, 5), R("b", 1, 6)};

  std::vector<const model::Row*> Written() const {
    std::vector<const model::Row*> out;
    for (const model::Row& row : rows_) out.push_back(&row);
    return out;
  }
};

TEST_F(ProbeRowsTest, OneRowPerDistinctTupleInFirstSeenOrder) {
  std::vector<model::Row> got = ChooseProbeRows(Schema(), {"host"}, Written(), regions_, 64);
  EXPECT_EQ(got,
            (std::vector<model::Row>{R("a", 5, 1), R("b", 9, 2), R(nullptr, 2, 4), R("x", 3, 5)}));
}

TEST_F(ProbeRowsTest, FirstRowsByTupleKeepsTheFirstRowOfEachTupleAddedOneByOne) {
  FirstRowsByTuple firsts(Schema(), {"host", "no_such_column"});
  for (const model::Row& row : rows_) firsts.Add(row);
  EXPECT_EQ(firsts.rows(),
            (std::vector<model::Row>{R("a", 5, 1), R("b", 9, 2), R(nullptr, 2, 4), R("x", 3, 5)}));
  FirstRowsByTuple one(Schema(), {});  // no partition column: one tuple
  for (const model::Row& row : rows_) one.Add(row);
  EXPECT_EQ(one.rows(), (std::vector<model::Row>{R("a", 5, 1)}));
}

TEST_F(ProbeRowsTest, CapKeepsFirstTuplesAndAddsOneForEachUncoveredRegion) {
  // Cap 2 keeps a and b (both in host < 'm'); x is the first tuple of host >= 'm'.
  std::vector<model::Row> got = ChooseProbeRows(Schema(), {"host"}, Written(), regions_, 2);
  EXPECT_EQ(got, (std::vector<model::Row>{R("a", 5, 1), R("b", 9, 2), R("x", 3, 5)}));
  got = ChooseProbeRows(Schema(), {"host"}, Written(), regions_, 1);
  EXPECT_EQ(got, (std::vector<model::Row>{R("a", 5, 1), R("x", 3, 5)}));
}

TEST_F(ProbeRowsTest, UnpartitionedTableGetsOneProbe) {
  std::vector<ProbeRegion> single{{kLow, nullptr}};
  std::vector<model::Row> got = ChooseProbeRows(Schema(), {}, Written(), single, 64);
  EXPECT_EQ(got, (std::vector<model::Row>{R("a", 5, 1)}));
}

TEST_F(ProbeRowsTest, NoWrittenRowsGiveNoProbe) {
  EXPECT_TRUE(ChooseProbeRows(Schema(), {"host"}, {}, regions_, 64).empty());
}

TEST_F(ProbeRowsTest, RegionCoveringFollowsTheRowPath) {
  // Row path: NULL sorts first, so a NULL host is covered by host < 'm'.
  EXPECT_EQ(RegionCovering(regions_, Schema(), R(nullptr, 1, 1))->region, kLow);
  EXPECT_EQ(RegionCovering(regions_, Schema(), R("z", 1, 1))->region, kHigh);
  std::vector<ProbeRegion> gap{{kLow, &low_}};
  EXPECT_EQ(RegionCovering(gap, Schema(), R("z", 1, 1)), nullptr);
}

TEST_F(ProbeRowsTest, FreshTimeIndexIsAboveEveryWrittenOne) {
  EXPECT_EQ(FreshTimeIndex(Schema(), Written()), 10);
  EXPECT_EQ(FreshTimeIndex(Schema(), {}), 0);
  EXPECT_EQ(WithTimeIndex(Schema(), R("a", 5, 1), 10), R("a", 10, 1));
  EXPECT_EQ(TimeIndexOf(Value::Timestamp(10)), 10);
  EXPECT_EQ(TimeIndexOf(Value::Null()), std::nullopt);
}

}  // namespace probe_rows_test
}  // namespace
}  // namespace repartsim::check
