// Goal: what the checker sheds of a run's History once it has judged it keeps what reports and
// the state fingerprint use: a packed write's rows read back as they were (acceptances still
// as bits of its record), packs fill chunks without moving earlier ones, a passed query keeps
// only its outcome and counts, and retiring passed queries keeps ids, counts and the hash.
// Method: hand-built write records, acceptances and queries; each case checks the stored form
// and what is read back; the REQUIRES of RetireFrontQuery ends the run (exit 70).
#include "checker/run/history_retention.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tests/model/node/history_fixture.h"

namespace repartsim::run {
namespace {
namespace history_retention_test {

using model::Acceptance;
using model::CompareOp;
using model::History;
using model::NodeId;
using model::Predicate;
using model::QueryRecord;
using model::QueryStatus;
using model::RegionId;
using model::RegionNumber;
using model::Row;
using model::TableId;
using model::Value;
using model::WriteRecord;

using model::history_fixture::HistoryAcceptTest;
using model::history_fixture::R;
using model::history_fixture::Rows;

TEST_F(HistoryAcceptTest, APackedWritesRowsAreReadBackAndStillTakenAsBits) {
  history.Accept(7, node, region, 1, {R(3), R(1)});
  PackWriteRows(history, 1);
  const WriteRecord& w = history.writes[0];
  EXPECT_TRUE(w.packed);
  EXPECT_TRUE(w.rows.empty() && w.rows.capacity() == 0);
  EXPECT_EQ(history.RowsOf(w), (std::vector<Row>{R(1), R(2), R(3), R(2)}));
  EXPECT_EQ(Rows(history, history.acceptances.back()), (std::vector<Row>{R(1), R(3)}));
  // An acceptance after packing (a duplicated request delivered late) is still bits.
  history.Accept(8, node, region, 1, {R(2), R(2)});
  EXPECT_EQ(history.acceptances.back().write_rows, 0b1010u);
  EXPECT_TRUE(history.OwnRows(history.acceptances.back()).empty());
  PackWriteRows(history, 1);  // packing twice changes nothing
  EXPECT_EQ(history.RowsOf(w), (std::vector<Row>{R(1), R(2), R(3), R(2)}));
}

TEST(HistoryTest, PacksFillChunksWithoutMovingEarlierOnes) {
  History h;
  auto row = [](int64_t i) { return Row{Value::Int(i), Value::String(std::string(100, 'x'))}; };
  for (uint64_t id = 1; id <= 100; ++id) {
    WriteRecord& w = h.writes.emplace_back();
    w.id = id;
    // Write 50 is larger than a chunk: it gets a chunk of its own size.
    const int64_t rows = id == 50 ? 60 : 1;
    for (int64_t i = 0; i < rows; ++i) w.rows.push_back(row(static_cast<int64_t>(id) * 100 + i));
  }
  const History unpacked = h;
  for (uint64_t id = 1; id <= 100; ++id) PackWriteRows(h, id);
  for (uint64_t id = 1; id <= 100; ++id) {
    EXPECT_EQ(h.RowsOf(h.writes[id - 1]), unpacked.writes[id - 1].rows) << id;
  }
  // 107 bytes per one-row pack (1 + 1 + 3 + 102) of ids below 82: 38 fit in a chunk of 4096.
  EXPECT_EQ(h.writes[37].packed_chunk, 0u);
  EXPECT_EQ(h.writes[38].packed_chunk, 1u);
  EXPECT_GT(h.packed_rows[h.writes[49].packed_chunk].size(), History::kPackedChunkBytes);
  for (const std::string& chunk : h.packed_rows) {
    EXPECT_LE(chunk.size(), std::max(History::kPackedChunkBytes, chunk.capacity()));
  }
}

TEST(HistoryTest, RetiredQueriesKeepTheirIdsCountsAndHash) {
  History kept;
  for (uint64_t id = 1; id <= 4; ++id) {
    QueryRecord& q = kept.queries.emplace_back();
    q.id = id;
    q.status = id == 3 ? QueryStatus::kPending : QueryStatus::kOk;
    q.row_count = id * 10;
  }
  History retired = kept;
  ReleasePassedQuery(retired, 0);
  ReleasePassedQuery(retired, 1);
  RetireFrontQuery(retired);
  RetireFrontQuery(retired);
  EXPECT_EQ(retired.retired_queries, 2u);
  EXPECT_EQ(retired.queries.size(), 2u);
  EXPECT_EQ(retired.Query(3).status, QueryStatus::kPending);
  EXPECT_EQ(retired.Query(4).row_count, 40u);
  sim::Hasher a, b;
  kept.Hash(a);
  retired.Hash(b);
  EXPECT_EQ(a.Finish(), b.Finish());  // a state fingerprint does not see the retirement
  EXPECT_EXIT(static_cast<void>(retired.Query(2)), ::testing::ExitedWithCode(70), "");
  EXPECT_EXIT(RetireFrontQuery(retired), ::testing::ExitedWithCode(70), "");  // 3 is pending
}

TEST(HistoryTest, APassedQueryKeepsItsOutcomeAndCountsOnly) {
  History h;
  QueryRecord& q = h.queries.emplace_back();
  q.id = 1;
  q.sql = "SELECT * FROM t WHERE a >= 10 AND a < 20";
  q.where =
      std::make_shared<const Predicate>(Predicate::Compare("a", CompareOp::kGtEq, Value::Int(10)));
  q.rows = {R(11), R(12)};
  q.row_count = 2;
  q.regions = {RegionId::Of(TableId{1024}, RegionNumber{1})};
  q.status = QueryStatus::kOk;
  q.end_step = 9;
  ReleasePassedQuery(h, 0);
  EXPECT_TRUE(q.rows.empty() && q.rows.capacity() == 0);
  EXPECT_EQ(q.where, nullptr);
  EXPECT_TRUE(q.sql.empty());
  EXPECT_TRUE(q.regions.empty() && q.regions.capacity() == 0);
  EXPECT_EQ(q.status, QueryStatus::kOk);
  EXPECT_EQ(q.row_count, 2u);
  EXPECT_EQ(q.end_step, 9u);
}

}  // namespace history_retention_test
}  // namespace
}  // namespace repartsim::run
