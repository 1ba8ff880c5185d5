// Goal: the frontend's statement table: a write and a query with the same History id are kept
// apart; a reply finds its statement once (a duplicate finds none); a statement finishes into
// History only when nothing is outstanding or left to route; expired requests end unknown
// with "request timed out"; a crash ends every statement. Method: drive a StatementTable by
// hand with a NodeContext over a fresh History, exact records and trace lines.
#include "model/frontend/statement_table.h"

#include <gtest/gtest.h>

#include "tests/model/node/node_context_fixture.h"

namespace repartsim::model {
namespace {
namespace statement_table_test {

using namespace testing;  // NOLINT

constexpr NodeId kFe{3};
constexpr TableId kTable{1024};

class StatementTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    f_.history().writes.push_back(WriteRecord{});
    f_.history().writes.back().id = 1;
    f_.history().queries.push_back(QueryRecord{});
    f_.history().queries.back().id = 1;
  }
  NodeContextFixture f_{kFe};
  StatementTable table_;
};

TEST_F(StatementTableTest, AWriteAndAQueryWithTheSameIdAreKeptApart) {
  FrontendStatement& write = table_.Add(StatementKind::kInsert, 1, kTable);
  FrontendStatement& query = table_.Add(StatementKind::kQuery, 1, kTable);
  EXPECT_NE(write.key, query.key);
  EXPECT_EQ(table_.WaitingForRoute(kTable), (std::vector<uint64_t>{write.key, query.key}));
  EXPECT_TRUE(table_.WaitingForRoute(TableId{1025}).empty());
}

TEST_F(StatementTableTest, AReplyFindsItsStatementOnce) {
  FrontendStatement& s = table_.Add(StatementKind::kInsert, 1, kTable);
  s.phase = StatementPhase::kInFlight;
  table_.Track(s, 7, SubRequest{NodeId{1}, {}, RegionId{}});
  EXPECT_EQ(table_.TakeOwner(7), &s);
  EXPECT_EQ(table_.TakeOwner(7), nullptr);
  EXPECT_EQ(table_.TakeOwner(8), nullptr);
}

TEST_F(StatementTableTest, FinishesOnlyWhenNothingIsOutstanding) {
  FrontendStatement& s = table_.Add(StatementKind::kInsert, 1, kTable);
  s.phase = StatementPhase::kInFlight;
  table_.Track(s, 7, SubRequest{NodeId{1}, {}, RegionId{}});
  table_.MaybeFinish(s, f_.ctx());
  EXPECT_EQ(f_.history().writes[0].status, WriteStatus::kPending);
  s.outstanding.clear();
  s.ok_count = 1;
  table_.MaybeFinish(s, f_.ctx());
  EXPECT_EQ(f_.history().writes[0].status, WriteStatus::kAcked);
  EXPECT_EQ(f_.TraceCount("fe.write_done id=1 acked"), 1u);
}

TEST_F(StatementTableTest, ExpiredRequestsEndUnknown) {
  FrontendStatement& s = table_.Add(StatementKind::kInsert, 1, kTable);
  s.phase = StatementPhase::kInFlight;
  s.deadline = sim::AtMs(5000);
  const uint64_t key = s.key;
  table_.Track(s, 7, SubRequest{NodeId{1}, {}, RegionId{}});
  EXPECT_EQ(table_.NextDeadline()->ms, 5000);
  EXPECT_TRUE(table_.ExpireRequests(sim::AtMs(4999)).empty());
  EXPECT_EQ(table_.ExpireRequests(sim::AtMs(5000)), std::vector<uint64_t>{key});
  EXPECT_EQ(table_.TakeOwner(7), nullptr);
  table_.MaybeFinish(table_.At(key), f_.ctx());
  EXPECT_EQ(f_.history().writes[0].status, WriteStatus::kUnknown);
  EXPECT_EQ(f_.history().writes[0].error, "request timed out");
  EXPECT_FALSE(table_.NextDeadline().has_value());
}

TEST_F(StatementTableTest, ACrashEndsEveryStatement) {
  table_.Add(StatementKind::kInsert, 1, kTable);
  table_.Add(StatementKind::kQuery, 1, kTable);
  table_.CrashAll(f_.ctx());
  EXPECT_EQ(f_.history().writes[0].status, WriteStatus::kUnknown);
  EXPECT_EQ(f_.history().writes[0].error, "frontend crashed");
  EXPECT_EQ(f_.history().queries[0].status, QueryStatus::kError);
  EXPECT_EQ(f_.history().queries[0].error, "frontend crashed");
  EXPECT_TRUE(table_.WaitingForRoute(kTable).empty());
}

}  // namespace statement_table_test
}  // namespace
}  // namespace repartsim::model
