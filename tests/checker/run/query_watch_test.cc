// Goal: QueryWatch judges a query only once every write issued up to its end has an outcome,
// passes it for good when its result matches the oracle, and leaves any other query to the
// end-of-run checker: a mismatching query is not passed, an erroring one is never checked,
// and a count(*) query is judged by its count.
// Method: hand-built histories of the shared check schema t(host, ts, v), advanced step by
// step as the runner would after each simulated step.
#include "checker/run/query_watch.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/checker/check/test_schema.h"

namespace repartsim::run {
namespace {
namespace query_watch_test {

using check::testing_schema::R;

constexpr model::TableId kTable{1024};

model::WriteRecord Write(uint64_t id, uint64_t issued, std::vector<model::Row> rows) {
  model::WriteRecord w;
  w.id = id;
  w.table = kTable;
  w.rows = std::move(rows);
  w.start_step = issued;
  return w;
}

void Resolve(model::WriteRecord& w, model::WriteStatus status, uint64_t step) {
  w.status = status;
  w.end_step = step;
}

model::QueryRecord Query(uint64_t id, uint64_t issued, uint64_t ended,
                         std::vector<model::Row> rows) {
  model::QueryRecord q;
  q.id = id;
  q.table = kTable;
  q.sql = "SELECT * FROM t";
  q.start_step = issued;
  q.end_step = ended;
  q.status = model::QueryStatus::kOk;
  q.row_count = rows.size();
  q.rows = std::move(rows);
  return q;
}

class QueryWatchTest : public ::testing::Test {
 protected:
  QueryWatch watch{kTable, check::testing_schema::Schema()};
  model::History history;
};

TEST_F(QueryWatchTest, AQueryWaitsForEveryWriteIssuedBeforeItsEndAndThenPasses) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 1);
  history.writes.push_back(Write(2, 3, {R("b", 1, 2)}));  // in flight during the query
  history.queries.push_back(Query(1, 2, 4, {R("a", 1, 1)}));
  EXPECT_TRUE(watch.Advance(history).empty());
  EXPECT_EQ(watch.checked(), 0u);
  EXPECT_FALSE(watch.Passed(0));

  Resolve(history.writes[1], model::WriteStatus::kAcked, 5);
  EXPECT_EQ(watch.Advance(history), std::vector<size_t>{0});
  EXPECT_EQ(watch.checked(), 1u);
  EXPECT_TRUE(watch.Passed(0));
  EXPECT_TRUE(watch.Advance(history).empty());  // judged once
  EXPECT_EQ(watch.checked(), 1u);
}

TEST_F(QueryWatchTest, AWriteIssuedAfterTheQueryEndedDoesNotHoldItBack) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 1);
  history.queries.push_back(Query(1, 2, 4, {R("a", 1, 1)}));
  history.writes.push_back(Write(2, 5, {R("a", 1, 9)}));  // still in flight
  EXPECT_EQ(watch.Advance(history), std::vector<size_t>{0});
  EXPECT_TRUE(watch.Passed(0));
}

TEST_F(QueryWatchTest, AQueryThatOmitsAnAcknowledgedRowIsLeftToTheEndOfRunCheck) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1), R("b", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 1);
  history.queries.push_back(Query(1, 2, 4, {R("a", 1, 1)}));  // b is missing
  EXPECT_TRUE(watch.Advance(history).empty());
  EXPECT_EQ(watch.checked(), 1u);
  EXPECT_FALSE(watch.Passed(0));
  EXPECT_TRUE(watch.Advance(history).empty());
  EXPECT_EQ(watch.checked(), 1u);
}

TEST_F(QueryWatchTest, ARowOfAWriteRejectedLaterIsAPhantom) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  history.queries.push_back(Query(1, 2, 4, {R("a", 1, 1)}));
  EXPECT_TRUE(watch.Advance(history).empty());  // write 1 may still be acknowledged
  Resolve(history.writes[0], model::WriteStatus::kRejected, 6);
  EXPECT_TRUE(watch.Advance(history).empty());
  EXPECT_EQ(watch.checked(), 1u);
  EXPECT_FALSE(watch.Passed(0));
}

TEST_F(QueryWatchTest, AFailedQueryIsNeverCheckedAndACountIsJudgedByItsCount) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1), R("b", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 1);
  model::QueryRecord failed = Query(1, 2, 4, {});
  failed.status = model::QueryStatus::kError;
  history.queries.push_back(failed);
  model::QueryRecord count = Query(2, 2, 4, {});
  count.count_star = true;
  count.count = 2;
  history.queries.push_back(count);
  model::QueryRecord low = count;
  low.id = 3;
  low.count = 1;
  history.queries.push_back(low);
  EXPECT_EQ(watch.Advance(history), std::vector<size_t>{1});
  EXPECT_EQ(watch.checked(), 2u);
  EXPECT_FALSE(watch.Passed(0));
  EXPECT_TRUE(watch.Passed(1));
  EXPECT_FALSE(watch.Passed(2));
}

TEST_F(QueryWatchTest, FinishRegistersWhatIsLeftForTheEndOfRunCheck) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  watch.Advance(history);
  history.writes.push_back(Write(2, 2, {R("b", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 3);
  Resolve(history.writes[1], model::WriteStatus::kUnknown, 3);
  watch.Finish(history);
  EXPECT_EQ(watch.oracle().write_count(), 2u);
  EXPECT_EQ(watch.oracle().StateOf(1), check::WriteState::kAcknowledged);
  EXPECT_EQ(watch.oracle().StateOf(2), check::WriteState::kUnknown);
}

TEST_F(QueryWatchTest, TheOracleForgetsWhatNoQueryStillToBeJudgedCanSee) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 2);
  history.writes.push_back(Write(2, 3, {R("a", 1, 2)}));
  Resolve(history.writes[1], model::WriteStatus::kAcked, 4);
  model::QueryRecord open = Query(1, 5, 9, {});
  open.status = model::QueryStatus::kPending;
  history.queries.push_back(open);
  watch.Advance(history);
  EXPECT_EQ(watch.oracle().horizon(), 5u);  // the open query's start
  history.queries[0].status = model::QueryStatus::kOk;
  history.queries[0].rows = {R("a", 1, 2)};
  history.queries.push_back(Query(2, 12, 13, {R("a", 1, 2)}));
  EXPECT_EQ(watch.Advance(history), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(watch.oracle().horizon(), 5u);          // set before judging them
  EXPECT_EQ(watch.oracle().forgotten_count(), 1u);  // v=1, superseded by v=2 before step 5
  history.queries.push_back(Query(3, 14, 15, {R("a", 1, 2)}));
  history.queries.back().status = model::QueryStatus::kPending;
  watch.Advance(history);
  EXPECT_EQ(watch.oracle().horizon(), 14u);  // no query open before it
}

TEST_F(QueryWatchTest, TheHorizonStopsAtAFailedQueryForTheEndOfRunCheck) {
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 2);
  history.writes.push_back(Write(2, 3, {R("a", 1, 2)}));
  Resolve(history.writes[1], model::WriteStatus::kAcked, 4);
  history.queries.push_back(Query(1, 5, 6, {R("a", 1, 1)}));  // a stale value
  EXPECT_TRUE(watch.Advance(history).empty());
  history.queries.push_back(Query(2, 20, 21, {R("a", 1, 2)}));
  EXPECT_EQ(watch.Advance(history), std::vector<size_t>{1});
  EXPECT_EQ(watch.oracle().horizon(), 5u);
  // The end-of-run checker judges query 1 again, with what it could see.
  sim::Result<check::QueryDiff> diff =
      watch.oracle().Check(QuerySpecOf(history.queries[0]), history.queries[0].rows);
  ASSERT_TRUE(diff.ok());
  EXPECT_EQ(diff.value().ToText(watch.oracle().schema()),
            "wrong value (host='a', ts=1, v=1): stale value superseded before the query "
            "started; expected (host='a', ts=1, v=2)\n");
}

TEST_F(QueryWatchTest, WithoutForgettingTheHorizonStaysAtZero) {
  watch.set_forget(false);
  history.writes.push_back(Write(1, 1, {R("a", 1, 1)}));
  Resolve(history.writes[0], model::WriteStatus::kAcked, 2);
  history.queries.push_back(Query(1, 5, 6, {R("a", 1, 1)}));
  EXPECT_EQ(watch.Advance(history), std::vector<size_t>{0});
  EXPECT_EQ(watch.oracle().horizon(), 0u);
}

}  // namespace query_watch_test
}  // namespace
}  // namespace repartsim::run
