// Goal: a write and a query that carry the same History id (writes and queries are numbered
// independently) are tracked apart by the frontend, even while both wait for the same route
// fill. Regression: they once shared one slot, so one overwrote the other and never finished.
// Method: on a fresh cluster, issue write #1 and query #1 through frontend 0 at the same
// instant (its cache is empty after CREATE TABLE's invalidation) and assert both complete.
#include <gtest/gtest.h>

#include "tests/model/cluster/cluster_harness.h"

namespace repartsim::model {
namespace {
namespace statement_key_test {

using testing::Harness;
using testing::MakeRow;

TEST(StatementKeyTest, WriteAndQueryWithTheSameHistoryIdBothComplete) {
  for (Protocol protocol : {Protocol::Greptime(), Protocol::Reference()}) {
    Harness h(protocol);
    h.CreateTable(sim::AtMs(0));
    h.Insert(sim::AtMs(2000), 0, {MakeRow("a", 1, 1, 5)});
    h.Query(sim::AtMs(2000), 0);
    h.RunUntil(3000);
    const History& history = h.cluster.history();
    ASSERT_EQ(history.writes.size(), 1u);
    ASSERT_EQ(history.queries.size(), 1u);
    EXPECT_EQ(history.writes[0].id, history.queries[0].id);
    EXPECT_EQ(history.writes[0].status, WriteStatus::kAcked);
    EXPECT_EQ(history.queries[0].status, QueryStatus::kOk);
    EXPECT_EQ(h.TraceCount("fe.route_fill table=1024"), 1u);  // one fill served both
  }
}

}  // namespace statement_key_test
}  // namespace
}  // namespace repartsim::model
