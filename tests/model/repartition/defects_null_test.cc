// Goal: reproduce suspected defect P7 of docs/findings.md in `greptime`: a NULL partition value
// under a `<>` expression goes to the `<>` region on the row path but to region 0 on the bulk
// path (so one row identity lands in two regions and is read twice), and NULL rows are dropped
// by the datanode file filter once their file is remapped; and show the clean outcome with
// unified-null-routing, which refuses a row no region can own. Method: a table partitioned (a = 5,
// a <> 5), the same NULL row identity written through both paths, then a MERGE of the two regions;
// reads before and after.
#include "tests/model/repartition/defects_util.h"
#include "tests/model/set_rule.h"

namespace repartsim::model::testing {
namespace {
namespace defects_null_test {

Row NullRow(int64_t v) {
  return Row{Value::String("h"), Value::Timestamp(5000), Value::Int(v), Value::Null()};
}

struct NullRouting {
  explicit NullRouting(Protocol protocol)
      : h(protocol, "PARTITION ON COLUMNS (a) (a = 5, a <> 5)") {
    h.Insert(2000, 0, {MakeRow(5), MakeRow(7)});
    h.Insert(2100, 0, {NullRow(1)});                       // row path
    h.Insert(2200, 0, {NullRow(2)}, WritePath::kBatcher);  // bulk path, same identity
    h.RunUntil(2500);
    before_r0 = RegionAValues(h, RegionN(0));
    before_r1 = RegionAValues(h, RegionN(1));
    h.Query(2500, 1);
    h.Alter(3000, "ALTER TABLE t MERGE PARTITION (a = 5, a <> 5)");
    h.Query(10000, 1);
    h.RunUntil(15000);
  }
  RepartitionHarness h;
  std::vector<int64_t> before_r0, before_r1;
};

TEST(DefectP7Test, NullGoesToDifferentRegionsByPathAndIsDroppedAfterTheMerge) {
  NullRouting run(Protocol::Greptime());
  RepartitionHarness& h = run.h;
  EXPECT_EQ(run.before_r0, (std::vector<int64_t>{-1, 5}));  // bulk NULL: matched nothing
  EXPECT_EQ(run.before_r1, (std::vector<int64_t>{-1, 7}));  // row NULL: NULL <> 5 is true
  const QueryRecord& before = h.cluster.history().queries.at(0);
  ASSERT_EQ(before.status, QueryStatus::kOk) << before.error;
  EXPECT_EQ(AValues(before.rows), (std::vector<int64_t>{-1, -1, 5, 7}));  // one identity twice
  const DdlRecord ddl = RunDdl(h, 0);
  ASSERT_EQ(ddl.status, DdlStatus::kDone) << ddl.error;
  EXPECT_EQ(h.RouteExpr(RegionN(0)), "a = 5 OR a <> 5");
  const QueryRecord& after = h.cluster.history().queries.at(1);
  ASSERT_EQ(after.status, QueryStatus::kOk) << after.error;
  EXPECT_EQ(AValues(after.rows), (std::vector<int64_t>{5, 7}));  // both NULL rows filtered out
}

TEST(DefectP7Test, UnifiedNullRoutingRefusesRowsNoRegionCanOwn) {
  // With one predicate for routing and filtering, the NULL row matches no expression; region 0
  // has one (a = 5), so it cannot own the row either: both paths refuse it up front instead of
  // acknowledging a row the file filter would drop. Nothing acknowledged is lost or doubled.
  for (bool full_reference : {false, true}) {
    Protocol protocol = full_reference ? Protocol::Reference() : Protocol::Greptime();
    testing::SetRule(protocol, "unified-null-routing");
    NullRouting run(protocol);
    RepartitionHarness& h = run.h;
    const auto& writes = h.cluster.history().writes;
    for (size_t i : {1u, 2u}) {
      EXPECT_EQ(writes.at(i).status, WriteStatus::kRejected) << full_reference << " " << i;
      EXPECT_EQ(writes.at(i).error, "No partition of table " + kTable.ToString() +
                                        " covers the row (unified-null-routing)");
    }
    EXPECT_EQ(run.before_r0, (std::vector<int64_t>{5}));
    EXPECT_EQ(run.before_r1, (std::vector<int64_t>{7}));
    ASSERT_EQ(RunDdl(h, 0).status, DdlStatus::kDone);
    for (const QueryRecord& query : h.cluster.history().queries) {
      ASSERT_EQ(query.status, QueryStatus::kOk) << query.error;
      EXPECT_EQ(AValues(query.rows), (std::vector<int64_t>{5, 7}));
    }
  }
}

}  // namespace defects_null_test
}  // namespace
}  // namespace repartsim::model::testing
