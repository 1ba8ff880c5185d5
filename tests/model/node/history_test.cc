// Goal: History::Accept keeps an acceptance's rows as bits of its write record's rows when it
// can, so that a run keeps one copy of every row it wrote, and ForEachAcceptedRow gives back
// exactly the rows accepted; otherwise (no record, rows the record does not hold as many
// times, a record of more than 64 rows) it keeps the rows themselves.
// Method: hand-built write records and acceptances; each case checks the stored form and
// the rows read back. A passed query sheds everything but its outcome and counts.
#include "model/node/history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace repartsim::model {
namespace {
namespace history_test {

Row R(int64_t a) { return Row{Value::Int(a), Value::String("h")}; }

std::vector<Row> Rows(const History& h, const Acceptance& a) {
  std::vector<Row> out;
  h.ForEachAcceptedRow(a, [&](const Row& row) { out.push_back(row); });
  return out;
}

class HistoryAcceptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteRecord& w = history.writes.emplace_back();
    w.id = 1;
    w.rows = {R(1), R(2), R(3), R(2)};
  }
  History history;
  const NodeId node{1};
  const RegionId region{RegionId::Of(TableId{1024}, RegionNumber{0})};
};

TEST_F(HistoryAcceptTest, RowsOfTheWriteAreKeptAsBitsOfItsRecord) {
  history.Accept(7, node, region, 1, {R(3), R(1)});
  const Acceptance& a = history.acceptances.back();
  EXPECT_EQ(a.step, 7u);
  EXPECT_EQ(a.write_id, 1u);
  EXPECT_EQ(a.write_rows, 0b0101u);
  EXPECT_EQ(a.own_rows, Acceptance::kNoOwnRows);
  EXPECT_TRUE(history.OwnRows(a).empty());
  EXPECT_EQ(Rows(history, a), (std::vector<Row>{R(1), R(3)}));  // the record's order
  // A row the record holds twice is taken twice, each time the first one not taken yet.
  history.Accept(8, node, region, 1, {R(2), R(2)});
  EXPECT_EQ(history.acceptances.back().write_rows, 0b1010u);
  EXPECT_EQ(Rows(history, history.acceptances.back()), (std::vector<Row>{R(2), R(2)}));
}

TEST_F(HistoryAcceptTest, RowsThatAreNotASetOfTheRecordsRowsAreKeptThemselves) {
  history.Accept(1, node, region, 1, {R(1), R(1)});  // the record holds R(1) once
  history.Accept(2, node, region, 1, {R(9)});        // not in the record
  history.Accept(3, node, region, 0, {R(1)});        // no record
  history.Accept(4, node, region, 5, {R(1)});        // no such record
  for (const Acceptance& a : history.acceptances) {
    SCOPED_TRACE(a.step);
    EXPECT_EQ(a.write_rows, 0u);
    EXPECT_EQ(Rows(history, a), history.OwnRows(a));
  }
  EXPECT_EQ(history.OwnRows(history.acceptances[0]), (std::vector<Row>{R(1), R(1)}));
  EXPECT_EQ(history.OwnRows(history.acceptances[1]), (std::vector<Row>{R(9)}));
  // A record of more than 64 rows cannot be a bit set.
  WriteRecord& big = history.writes.emplace_back();
  big.id = 2;
  for (int64_t i = 0; i < 65; ++i) big.rows.push_back(R(i));
  history.Accept(5, node, region, 2, {R(0)});
  EXPECT_EQ(history.acceptances.back().write_rows, 0u);
  EXPECT_EQ(history.OwnRows(history.acceptances.back()), (std::vector<Row>{R(0)}));
}

TEST_F(HistoryAcceptTest, APackedWritesRowsAreReadBackAndStillTakenAsBits) {
  history.Accept(7, node, region, 1, {R(3), R(1)});
  history.PackWriteRows(1);
  const WriteRecord& w = history.writes[0];
  EXPECT_TRUE(w.packed);
  EXPECT_TRUE(w.rows.empty() && w.rows.capacity() == 0);
  EXPECT_EQ(history.RowsOf(w), (std::vector<Row>{R(1), R(2), R(3), R(2)}));
  EXPECT_EQ(Rows(history, history.acceptances.back()), (std::vector<Row>{R(1), R(3)}));
  // An acceptance after packing (a duplicated request delivered late) is still bits.
  history.Accept(8, node, region, 1, {R(2), R(2)});
  EXPECT_EQ(history.acceptances.back().write_rows, 0b1010u);
  EXPECT_TRUE(history.OwnRows(history.acceptances.back()).empty());
  history.PackWriteRows(1);  // packing twice changes nothing
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
  for (uint64_t id = 1; id <= 100; ++id) h.PackWriteRows(id);
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
  retired.ReleasePassedQuery(0);
  retired.ReleasePassedQuery(1);
  retired.RetireFrontQuery();
  retired.RetireFrontQuery();
  EXPECT_EQ(retired.retired_queries, 2u);
  EXPECT_EQ(retired.queries.size(), 2u);
  EXPECT_EQ(retired.Query(3).status, QueryStatus::kPending);
  EXPECT_EQ(retired.Query(4).row_count, 40u);
  sim::Hasher a, b;
  kept.Hash(a);
  retired.Hash(b);
  EXPECT_EQ(a.Finish(), b.Finish());  // a state fingerprint does not see the retirement
  EXPECT_EXIT(static_cast<void>(retired.Query(2)), ::testing::ExitedWithCode(70), "");
  EXPECT_EXIT(retired.RetireFrontQuery(), ::testing::ExitedWithCode(70), "");  // 3 is pending
}

TEST(HistoryTest, RareTextReadsAsTheTextItHolds) {
  RareText none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none, "");
  RareText error;
  error = std::string("request timed out");
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, "request timed out");
  RareText copy = error;  // a deep copy
  error = std::string();
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(copy, "request timed out");
  const RareText& same = copy;
  copy = same;  // self-assignment keeps the text
  EXPECT_EQ(static_cast<const std::string&>(copy), "request timed out");
  std::ostringstream out;
  out << copy;
  EXPECT_EQ(out.str(), "request timed out");
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
  h.ReleasePassedQuery(0);
  EXPECT_TRUE(q.rows.empty() && q.rows.capacity() == 0);
  EXPECT_EQ(q.where, nullptr);
  EXPECT_TRUE(q.sql.empty());
  EXPECT_TRUE(q.regions.empty() && q.regions.capacity() == 0);
  EXPECT_EQ(q.status, QueryStatus::kOk);
  EXPECT_EQ(q.row_count, 2u);
  EXPECT_EQ(q.end_step, 9u);
}

}  // namespace history_test
}  // namespace
}  // namespace repartsim::model
