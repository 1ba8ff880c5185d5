// Goal: query-result invariants produce exactly the documented Violation records: INV-NOOMIT,
// INV-NODUP, INV-NOPHANTOM per query (all offending rows in one record), READ-ANOMALY only
// when the query overlapped a procedure and the scenario tolerates it, count(*) ranges, and
// INV-ACK at quiescence (maybe rows at most once).
// Method: build oracle states by hand, feed actual results that violate exactly one rule,
// and compare whole Violation values; correct results must produce no violation.
#include "checker/check/query_check.h"

#include <gtest/gtest.h>

#include "tests/checker/check/test_schema.h"

namespace repartsim::check {
namespace {
namespace query_check_test {

using model::Row;
using testing_schema::R;
using testing_schema::Schema;

Oracle TwoAckedOneMaybe() {
  Oracle oracle = Oracle::Open(Schema()).value();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1), R("b", 1, 2)});
  oracle.Acknowledge(1, 2);
  oracle.RegisterWrite(2, 3, {R("c", 1, 3)});
  oracle.MarkUnknown(2, 4);
  return oracle;
}

QueryCheckContext Context(bool overlapped = false, bool tolerated = false) {
  QueryCheckContext context;
  context.at = CheckAt{12, 3400};
  context.query = "SELECT * FROM t";
  context.regions = {"4398046511104(1024, 0)"};
  context.overlapped_procedure = overlapped;
  context.read_anomaly_tolerated = tolerated;
  return context;
}

Violation Expected(Invariant invariant, std::string message, std::vector<std::string> rows) {
  Violation v;
  v.invariant = invariant;
  v.step = 12;
  v.time_ms = 3400;
  v.regions = {"4398046511104(1024, 0)"};
  v.message = std::move(message);
  v.rows = std::move(rows);
  return v;
}

const QuerySpec kSpec{"", 10, 12, {}};

TEST(QueryCheckTest, CorrectResultPasses) {
  Oracle oracle = TwoAckedOneMaybe();
  EXPECT_TRUE(CheckQuery(oracle, kSpec, {R("a", 1, 1), R("b", 1, 2)}, Context()).value().empty());
  EXPECT_TRUE(CheckQuery(oracle, kSpec, {R("c", 1, 3), R("b", 1, 2), R("a", 1, 1)}, Context())
                  .value()
                  .empty());
}

TEST(QueryCheckTest, OmittedAcknowledgedRowIsNoOmit) {
  Oracle oracle = TwoAckedOneMaybe();
  std::vector<Violation> got = CheckQuery(oracle, kSpec, {R("b", 1, 2)}, Context()).value();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], Expected(Invariant::kNoOmit,
                             "query `SELECT * FROM t` omitted 1 row acknowledged before step 10",
                             {"missing (host='a', ts=1, v=1)"}));
}

TEST(QueryCheckTest, StaleValueIsNoOmit) {
  Oracle oracle = TwoAckedOneMaybe();
  oracle.RegisterWrite(3, 5, {R("a", 1, 9)});
  oracle.Acknowledge(3, 6);
  std::vector<Violation> got =
      CheckQuery(oracle, kSpec, {R("a", 1, 1), R("b", 1, 2)}, Context()).value();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0],
            Expected(Invariant::kNoOmit,
                     "query `SELECT * FROM t` returned a stale value for 1 row whose newer value "
                     "was acknowledged before step 10",
                     {"wrong value (host='a', ts=1, v=1): stale value superseded before the "
                      "query started; expected (host='a', ts=1, v=9)"}));
}

// Issue 53: a stale value was counted as an omitted row; a query that does both says both.
TEST(QueryCheckTest, OmittedAndStaleRowsAreToldApart) {
  Oracle oracle = TwoAckedOneMaybe();
  oracle.RegisterWrite(3, 5, {R("a", 1, 9)});
  oracle.Acknowledge(3, 6);
  std::vector<Violation> got = CheckQuery(oracle, kSpec, {R("a", 1, 1)}, Context()).value();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].message,
            "query `SELECT * FROM t` omitted 1 row and returned a stale value for 1 row whose "
            "newer value was acknowledged before step 10");
}

TEST(QueryCheckTest, MaybeRowTwiceIsNoDup) {
  Oracle oracle = TwoAckedOneMaybe();
  std::vector<Violation> got =
      CheckQuery(oracle, kSpec, {R("a", 1, 1), R("b", 1, 2), R("c", 1, 3), R("c", 1, 3)}, Context())
          .value();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], Expected(Invariant::kNoDup, "query `SELECT * FROM t` returned 1 duplicated row",
                             {"duplicated (host='c', ts=1, v=3): returned 2 times, expected at "
                              "most 1"}));
}

TEST(QueryCheckTest, UnwrittenRowAndValueAreNoPhantom) {
  Oracle oracle = TwoAckedOneMaybe();
  std::vector<Violation> got =
      CheckQuery(oracle, kSpec, {R("a", 1, 1), R("b", 1, 2), R("c", 1, 4), R("q", 1, 1)}, Context())
          .value();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0],
            Expected(Invariant::kNoPhantom, "query `SELECT * FROM t` returned 2 phantom rows",
                     {"phantom (host='c', ts=1, v=4): value never written; expected "
                      "(host='c', ts=1, v=3)",
                      "phantom (host='q', ts=1, v=1): identity never written"}));
}

TEST(QueryCheckTest, EveryBrokenInvariantIsReportedOnce) {
  Oracle oracle = TwoAckedOneMaybe();
  std::vector<Violation> got =
      CheckQuery(oracle, kSpec, {R("b", 1, 2), R("b", 1, 2), R("q", 1, 1)}, Context()).value();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].invariant, Invariant::kNoOmit);
  EXPECT_EQ(got[1].invariant, Invariant::kNoDup);
  EXPECT_EQ(got[2].invariant, Invariant::kNoPhantom);
}

TEST(QueryCheckTest, OverlappingReadIsReadAnomalyOnlyWhenTolerated) {
  Oracle oracle = TwoAckedOneMaybe();
  std::vector<Row> actual = {R("b", 1, 2), R("b", 1, 2), R("q", 1, 1)};
  std::vector<Violation> tolerated =
      CheckQuery(oracle, kSpec, actual, Context(/*overlapped=*/true, /*tolerated=*/true)).value();
  ASSERT_EQ(tolerated.size(), 3u);
  EXPECT_EQ(tolerated[0],
            Expected(Invariant::kReadAnomaly,
                     "INV-NOOMIT tolerated during a procedure: query `SELECT * FROM t` omitted "
                     "1 row acknowledged before step 10",
                     {"missing (host='a', ts=1, v=1)"}));
  EXPECT_EQ(tolerated[1].invariant, Invariant::kReadAnomaly);
  EXPECT_EQ(tolerated[1].message,
            "INV-NODUP tolerated during a procedure: query `SELECT * FROM t` returned 1 "
            "duplicated row");
  EXPECT_EQ(tolerated[2].invariant, Invariant::kNoPhantom);  // phantoms are never tolerated
  std::vector<Violation> forbidden =
      CheckQuery(oracle, kSpec, actual, Context(/*overlapped=*/true, /*tolerated=*/false)).value();
  ASSERT_EQ(forbidden.size(), 3u);
  EXPECT_EQ(forbidden[0].invariant, Invariant::kNoOmit);
  EXPECT_EQ(forbidden[1].invariant, Invariant::kNoDup);
  std::vector<Violation> not_overlapping =
      CheckQuery(oracle, kSpec, actual, Context(/*overlapped=*/false, /*tolerated=*/true)).value();
  EXPECT_EQ(not_overlapping[0].invariant, Invariant::kNoOmit);
}

TEST(QueryCheckTest, CountOutsideRangeIsReported) {
  Oracle oracle = TwoAckedOneMaybe();
  EXPECT_FALSE(CheckCountQuery(oracle, kSpec, 2, Context()).value().has_value());
  EXPECT_FALSE(CheckCountQuery(oracle, kSpec, 3, Context()).value().has_value());
  std::optional<Violation> low = CheckCountQuery(oracle, kSpec, 1, Context()).value();
  ASSERT_TRUE(low.has_value());
  EXPECT_EQ(*low, Expected(Invariant::kNoOmit,
                           "query `SELECT * FROM t` counted 1 row, expected at least 2", {}));
  std::optional<Violation> high = CheckCountQuery(oracle, kSpec, 4, Context()).value();
  ASSERT_TRUE(high.has_value());
  EXPECT_EQ(*high, Expected(Invariant::kNoDup,
                            "query `SELECT * FROM t` counted 4 rows, expected at most 3", {}));
  std::optional<Violation> tolerated =
      CheckCountQuery(oracle, kSpec, 4, Context(true, true)).value();
  EXPECT_EQ(tolerated->invariant, Invariant::kReadAnomaly);
}

TEST(QueryCheckTest, BadWhereIsAnErrorNotAViolation) {
  Oracle oracle = TwoAckedOneMaybe();
  QuerySpec spec{"host >", 10, 12, {"q.yaml", 3, 5}};
  Result<std::vector<Violation>> got = CheckQuery(oracle, spec, {}, Context());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().Format(),
            "q.yaml:3:5: error: oracle: near \")\": syntax error in WHERE host >");
}

TEST(AckCheckTest, QuiescentScanWithAcknowledgedValuesPasses) {
  Oracle oracle = TwoAckedOneMaybe();
  EXPECT_TRUE(CheckAckAtQuiescence(oracle, {R("a", 1, 1), R("b", 1, 2)}, {50, 9000}).empty());
  EXPECT_TRUE(
      CheckAckAtQuiescence(oracle, {R("a", 1, 1), R("b", 1, 2), R("c", 1, 3)}, {50, 9000}).empty());
}

TEST(AckCheckTest, LostStaleAndTwiceVisibleRowsAreAckViolations) {
  Oracle oracle = TwoAckedOneMaybe();
  oracle.RegisterWrite(3, 5, {R("b", 1, 7)});
  oracle.Acknowledge(3, 6);
  std::vector<Violation> got = CheckAckAtQuiescence(
      oracle, {R("b", 1, 2), R("c", 1, 3), R("c", 1, 3), R("z", 9, 9)}, {50, 9000});
  ASSERT_EQ(got.size(), 4u);
  Violation lost{Invariant::kAck,
                 50,
                 9000,
                 {"missing (host='a', ts=1, v=1)"},
                 {},
                 "1 acknowledged row is missing at quiescence",
                 {}};
  EXPECT_EQ(got[0], lost);
  EXPECT_EQ(got[1].invariant, Invariant::kAck);
  EXPECT_EQ(got[1].message, "1 row shows a stale value at quiescence");
  EXPECT_EQ(got[1].rows, (std::vector<std::string>{
                             "wrong value (host='b', ts=1, v=2): stale value superseded before "
                             "the query started; expected (host='b', ts=1, v=7)"}));
  EXPECT_EQ(got[2].invariant, Invariant::kAck);
  EXPECT_EQ(got[2].message, "1 row is visible more than once at quiescence");
  EXPECT_EQ(got[2].rows, (std::vector<std::string>{
                             "duplicated (host='c', ts=1, v=3): returned 2 times, expected at "
                             "most 1"}));
  EXPECT_EQ(got[3].invariant, Invariant::kNoPhantom);
  EXPECT_EQ(got[3].message, "1 phantom row is visible at quiescence");
}

}  // namespace query_check_test
}  // namespace
}  // namespace repartsim::check
