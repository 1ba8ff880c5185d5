// Goal: History::Accept keeps an acceptance's rows as bits of its write record's rows when it
// can, so that a run keeps one copy of every row it wrote, and ForEachAcceptedRow gives back
// exactly the rows accepted; otherwise (no record, rows the record does not hold as many
// times, a record of more than 64 rows) it keeps the rows themselves.
// Method: hand-built write records and acceptances; each case checks the stored form and
// the rows read back. (What the checker sheds of a History:
// tests/checker/run/history_retention_test.cc.)
#include "model/node/history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/model/node/history_fixture.h"

namespace repartsim::model {
namespace {
namespace history_test {

using history_fixture::HistoryAcceptTest;
using history_fixture::R;
using history_fixture::Rows;

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

}  // namespace history_test
}  // namespace
}  // namespace repartsim::model
