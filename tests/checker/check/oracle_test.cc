// Goal: pin the oracle's expectations: which rows a query must, may and must not return for
// acknowledged, in-flight, unknown ("maybe") and rejected writes, in last-write-wins and
// append mode, and the exact diff entries for missing, duplicated, phantom and wrong rows.
// Method: register writes with explicit issue/outcome steps on a small schema, run Check()
// with hand-built actual results and compare the rendered diff line by line.
#include "checker/check/oracle.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/partition/expr.h"
#include "sim/prng.h"

namespace repartsim::check {
namespace {
namespace oracle_test {

using model::Row;
using model::Value;

model::TableSchema Schema(bool append_mode = false) {
  model::TableSchema schema;
  schema.name = "t";
  schema.columns = {{"host", model::ColumnType::kString, true},
                    {"ts", model::ColumnType::kTimestamp, false},
                    {"v", model::ColumnType::kInt64, true}};
  schema.primary_key = {0};
  schema.time_index = 1;
  schema.partition_columns = {"host"};
  schema.append_mode = append_mode;
  return schema;
}

Row R(const char* host, int64_t ts, int64_t v) {
  return Row{host == nullptr ? Value::Null() : Value::String(host), Value::Timestamp(ts),
             Value::Int(v)};
}

Oracle Make(bool append_mode = false) {
  Result<Oracle> oracle = Oracle::Open(Schema(append_mode));
  EXPECT_TRUE(oracle.ok());
  return std::move(oracle).value();
}

QuerySpec Q(uint64_t start, uint64_t end, std::string where = "") {
  return QuerySpec{std::move(where), start, end, {}};
}

std::string DiffText(Oracle& oracle, const QuerySpec& spec, const std::vector<Row>& actual) {
  Result<QueryDiff> diff = oracle.Check(spec, actual);
  EXPECT_TRUE(diff.ok());
  return diff.ok() ? diff.value().ToText(oracle.schema()) : "<error>";
}

TEST(OracleTest, AcknowledgedRowIsRequiredWhenAckedBeforeStart) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 6), {}), "missing (host='a', ts=1000, v=1)\n");
  EXPECT_EQ(DiffText(oracle, Q(5, 6), {R("a", 1000, 1)}), "");
  EXPECT_EQ(oracle.ExpectCount(Q(5, 6)).value(), (CountRange{1, 1}));
}

TEST(OracleTest, RowAcknowledgedDuringQueryMayAppearOrNot) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 4, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 6);
  EXPECT_EQ(DiffText(oracle, Q(5, 8), {}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 8), {R("a", 1000, 1)}), "");
  EXPECT_EQ(oracle.ExpectCount(Q(5, 8)).value(), (CountRange{0, 1}));
}

TEST(OracleTest, ValueWrittenAfterQueryEndedIsWrongValue) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 9, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 10);
  EXPECT_EQ(DiffText(oracle, Q(5, 8), {R("a", 1000, 1)}),
            "wrong value (host='a', ts=1000, v=1): value written after the query ended\n");
}

TEST(OracleTest, LastAcknowledgedWriteWinsAndStaleValueIsWrongValue) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 2);
  oracle.RegisterWrite(2, 3, {R("a", 1000, 2)});
  oracle.Acknowledge(2, 4);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 2)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}),
            "wrong value (host='a', ts=1000, v=1): stale value superseded before the query "
            "started; expected (host='a', ts=1000, v=2)\n");
}

TEST(OracleTest, RowsRegisteredInPlaceAreReadWhereTheCallerKeepsThem) {
  // The same two writes, one oracle copying them and one reading them in place.
  const std::vector<Row> first = {R("a", 1000, 1), R("b", 1000, 7)};
  const std::vector<Row> second = {R("a", 1000, 2)};
  Oracle copied = Make();
  Oracle in_place = Make();
  copied.RegisterWrite(1, 1, first);
  copied.RegisterWrite(2, 3, second);
  in_place.RegisterWriteInPlace(1, 1, first);
  in_place.RegisterWriteInPlace(2, 3, second);
  for (Oracle* oracle : {&copied, &in_place}) {
    oracle->Acknowledge(1, 2);
    oracle->Acknowledge(2, 4);
  }
  ASSERT_EQ(in_place.version_count(), 3u);
  EXPECT_EQ(&in_place.VersionRow(0), &first[0]);
  EXPECT_EQ(&in_place.VersionRow(2), &second[0]);
  EXPECT_NE(&copied.VersionRow(0), &first[0]);
  for (uint32_t v = 0; v < 3; ++v) EXPECT_EQ(copied.VersionRow(v), in_place.VersionRow(v));
  for (Oracle* oracle : {&copied, &in_place}) {
    EXPECT_EQ(DiffText(*oracle, Q(5, 5), {R("a", 1000, 2), R("b", 1000, 7)}), "");
    EXPECT_EQ(DiffText(*oracle, Q(5, 5), {R("a", 1000, 1), R("b", 1000, 7)}),
              "wrong value (host='a', ts=1000, v=1): stale value superseded before the query "
              "started; expected (host='a', ts=1000, v=2)\n");
  }
  // A copy keeps its own copy of the rows it owns after the original is gone.
  std::optional<Oracle> original(Make());
  original->RegisterWrite(1, 1, {R("c", 5, 5)});
  const Oracle copy = *original;
  original.reset();
  EXPECT_EQ(copy.VersionRow(0), R("c", 5, 5));
}

TEST(OracleTest, OverlappingAcknowledgedWritesMayEachSurvive) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.RegisterWrite(2, 2, {R("a", 1000, 2)});
  oracle.Acknowledge(2, 3);
  oracle.Acknowledge(1, 4);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 2)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {}),
            "missing (host='a', ts=1000, v=2); allowed (host='a', ts=1000, v=1) | "
            "(host='a', ts=1000, v=2)\n");
  // A later write that starts after both were acknowledged supersedes both.
  oracle.RegisterWrite(3, 6, {R("a", 1000, 3)});
  oracle.Acknowledge(3, 7);
  EXPECT_EQ(DiffText(oracle, Q(8, 8), {R("a", 1000, 1)}),
            "wrong value (host='a', ts=1000, v=1): stale value superseded before the query "
            "started; expected (host='a', ts=1000, v=3)\n");
}

TEST(OracleTest, MaybeRowAppearsOnceOrNotAtAllButNeverTwice) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.MarkUnknown(1, 3);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1), R("a", 1000, 1)}),
            "duplicated (host='a', ts=1000, v=1): returned 2 times, expected at most 1\n");
  EXPECT_EQ(oracle.ExpectCount(Q(5, 5)).value(), (CountRange{0, 1}));
}

TEST(OracleTest, MaybeRowWithUnwrittenValueIsPhantom) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.MarkUnknown(1, 3);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 7)}),
            "phantom (host='a', ts=1000, v=7): value never written; expected "
            "(host='a', ts=1000, v=1)\n");
}

TEST(OracleTest, UnknownWriteMayOverrideAnAcknowledgedValue) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.MarkUnknown(1, 2);
  oracle.RegisterWrite(2, 3, {R("a", 1000, 2)});
  oracle.Acknowledge(2, 4);
  // The unknown write may still be applied after the acknowledged one.
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 2)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {}),
            "missing (host='a', ts=1000, v=2); allowed (host='a', ts=1000, v=1) | "
            "(host='a', ts=1000, v=2)\n");
}

TEST(OracleTest, LateAcknowledgementOfUnknownWriteMakesItRequired) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.MarkUnknown(1, 2);
  oracle.Acknowledge(1, 3);
  EXPECT_EQ(oracle.StateOf(1), WriteState::kAcknowledged);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {}), "missing (host='a', ts=1000, v=1)\n");
}

TEST(OracleTest, RejectedWriteIsNeverVisible) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.Reject(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}),
            "phantom (host='a', ts=1000, v=1): value written only by rejected writes\n");
  EXPECT_EQ(oracle.ExpectCount(Q(5, 5)).value(), (CountRange{0, 0}));
}

TEST(OracleTest, IdentityNeverWrittenIsPhantom) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1), R("zz", 5, 1)}),
            "phantom (host='zz', ts=5, v=1): identity never written\n");
}

TEST(OracleTest, AcknowledgedRowReturnedTwiceIsDuplicated) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1), R("b", 1000, 2)});
  oracle.Acknowledge(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("b", 1000, 2), R("a", 1000, 1), R("b", 1000, 2)}),
            "duplicated (host='b', ts=1000, v=2): returned 2 times, expected at most 1\n");
}

TEST(OracleTest, ResultOrderIsIgnored) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1), R("b", 2, 2), R("c", 3, 3)});
  oracle.Acknowledge(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("c", 3, 3), R("a", 1, 1), R("b", 2, 2)}), "");
}

TEST(OracleTest, LaterRowOfTheSameWriteWins) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1), R("a", 1000, 2)});
  oracle.Acknowledge(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 2)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}),
            "wrong value (host='a', ts=1000, v=1): stale value superseded before the query "
            "started; expected (host='a', ts=1000, v=2)\n");
}

TEST(OracleTest, AppendModeKeepsEveryAcknowledgedCopy) {
  Oracle oracle = Make(/*append_mode=*/true);
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.RegisterWrite(2, 2, {R("a", 1000, 1), R("a", 1000, 5)});
  oracle.Acknowledge(1, 3);
  oracle.Acknowledge(2, 3);
  EXPECT_EQ(oracle.ExpectCount(Q(5, 5)).value(), (CountRange{3, 3}));
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 5), R("a", 1000, 1), R("a", 1000, 1)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 5), R("a", 1000, 1)}),
            "missing (host='a', ts=1000, v=1): returned 1 times, expected at least 2\n");
  EXPECT_EQ(DiffText(oracle, Q(5, 5),
                     {R("a", 1000, 5), R("a", 1000, 1), R("a", 1000, 1), R("a", 1000, 1)}),
            "duplicated (host='a', ts=1000, v=1): returned 3 times, expected at most 2\n");
  EXPECT_EQ(DiffText(oracle, Q(5, 5),
                     {R("a", 1000, 5), R("a", 1000, 1), R("a", 1000, 1), R("a", 1000, 9)}),
            "phantom (host='a', ts=1000, v=9): value never written\n");
}

TEST(OracleTest, AppendModeMaybeCopyWidensTheRange) {
  Oracle oracle = Make(/*append_mode=*/true);
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 2);
  oracle.RegisterWrite(2, 3, {R("a", 1000, 1)});
  oracle.MarkUnknown(2, 4);
  EXPECT_EQ(oracle.ExpectCount(Q(5, 5)).value(), (CountRange{1, 2}));
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1), R("a", 1000, 1)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5), {R("a", 1000, 1), R("a", 1000, 1), R("a", 1000, 1)}),
            "duplicated (host='a', ts=1000, v=1): returned 3 times, expected at most 2\n");
}

TEST(OracleTest, WherePredicateSelectsRequiredRows) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1), R("m", 2, 2), R(nullptr, 3, 3), R("x", 4, 4)});
  oracle.Acknowledge(1, 2);
  // Filter-path NULL semantics: host < 'n' also holds for a NULL host.
  std::string where = "(\"host\" < 'n' OR \"host\" IS NULL)";
  EXPECT_EQ(oracle.ExpectCount(Q(5, 5, where)).value(), (CountRange{3, 3}));
  EXPECT_EQ(DiffText(oracle, Q(5, 5, where), {R("a", 1, 1), R("m", 2, 2), R(nullptr, 3, 3)}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5, where), {R("a", 1, 1), R("m", 2, 2), R("x", 4, 4)}),
            "missing (host=NULL, ts=3, v=3)\n"
            "wrong value (host='x', ts=4, v=4): row does not match the query\n");
}

TEST(OracleTest, PartitionPredicateAgreesWithFilterPathEvaluator) {
  model::TableSchema schema = Schema();
  Oracle oracle = Make();
  std::vector<Row> rows;
  const char* hosts[] = {nullptr, "a", "m", "q", "z"};
  for (int i = 0; i < 5; ++i) {
    for (int64_t v : {-5, 0, 10, 15, 30}) rows.push_back(R(hosts[i], v + 100 * i, v));
  }
  rows.push_back(Row{Value::String("n"), Value::Timestamp(999), Value::Null()});
  oracle.RegisterWrite(1, 1, rows);
  oracle.Acknowledge(1, 2);
  using model::CompareOp;
  using model::PartitionExpr;
  std::vector<PartitionExpr> exprs = {
      PartitionExpr::Leaf("host", CompareOp::kLt, Value::String("m")),
      PartitionExpr::Leaf("host", CompareOp::kNotEq, Value::String("a")),
      PartitionExpr::And(PartitionExpr::Leaf("host", CompareOp::kGtEq, Value::String("m")),
                         PartitionExpr::Leaf("v", CompareOp::kLt, Value::Int(10))),
      PartitionExpr::Or(PartitionExpr::Leaf("v", CompareOp::kEq, Value::Null()),
                        PartitionExpr::Leaf("v", CompareOp::kGt, Value::Int(10)))};
  for (const PartitionExpr& expr : exprs) {
    std::vector<Row> inside;
    for (const Row& row : rows) {
      if (model::MatchesFilterPath(expr, schema, row)) inside.push_back(row);
    }
    QuerySpec spec = Q(5, 5, model::ToSqlPredicate(expr));
    uint64_t n = inside.size();
    EXPECT_EQ(oracle.ExpectCount(spec).value(), (CountRange{n, n})) << spec.where_sql;
    EXPECT_EQ(DiffText(oracle, spec, inside), "") << spec.where_sql;
  }
}

TEST(OracleTest, InFlightValueOutsidePredicateMakesRowOptional) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1)});
  oracle.Acknowledge(1, 2);
  oracle.RegisterWrite(2, 3, {R("a", 1, 10)});
  EXPECT_EQ(oracle.ExpectCount(Q(5, 5, "v < 5")).value(), (CountRange{0, 1}));
  EXPECT_EQ(DiffText(oracle, Q(5, 5, "v < 5"), {}), "");
  EXPECT_EQ(DiffText(oracle, Q(5, 5, "v < 5"), {R("a", 1, 10)}),
            "wrong value (host='a', ts=1, v=10): row does not match the query; expected "
            "(host='a', ts=1, v=1)\n");
}

TEST(OracleTest, BadWhereTextIsAnErrorWithLocation) {
  Oracle oracle = Make();
  QuerySpec spec = Q(1, 1, "nope > 1");
  spec.location = sim::SourceLocation{"s.yaml", 7, 12};
  Result<Expectation> expected = oracle.Expect(spec);
  ASSERT_FALSE(expected.ok());
  EXPECT_EQ(expected.error().Format(),
            "s.yaml:7:12: error: oracle: no such column: nope in WHERE nope > 1");
  Result<Expectation> quoted = oracle.Expect(Q(1, 1, "\"nope\" = 1"));
  ASSERT_FALSE(quoted.ok());
  EXPECT_EQ(quoted.error().message, "oracle: no such column: nope in WHERE \"nope\" = 1");
  Result<Expectation> smuggled = oracle.Expect(Q(1, 1, "1); DELETE FROM versions; SELECT (1"));
  ASSERT_FALSE(smuggled.ok());
  EXPECT_EQ(smuggled.error().message,
            "oracle: expected exactly one SQL statement in WHERE 1); DELETE FROM versions; "
            "SELECT (1");
}

TEST(OracleTest, CopyIsIndependentAndRebuildsItsMirror) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1)});
  oracle.Acknowledge(1, 2);
  ASSERT_EQ(DiffText(oracle, Q(5, 5, "v = 1"), {R("a", 1, 1)}), "");
  Oracle copy = oracle;
  copy.RegisterWrite(2, 6, {R("b", 1, 1)});
  copy.Acknowledge(2, 7);
  EXPECT_EQ(copy.ExpectCount(Q(8, 8, "v = 1")).value(), (CountRange{2, 2}));
  EXPECT_EQ(oracle.ExpectCount(Q(8, 8, "v = 1")).value(), (CountRange{1, 1}));
  EXPECT_FALSE(oracle.Knows(2));
  EXPECT_TRUE(copy.Knows(2));
  oracle = copy;  // assignment replaces the write log and the mirror
  EXPECT_EQ(oracle.ExpectCount(Q(8, 8, "v = 1")).value(), (CountRange{2, 2}));
}

TEST(OracleTest, FileBackedOracleAnswersLikeInMemory) {
  std::string path = testing::TempDir() + "oracle_test.db";
  std::remove(path.c_str());
  Result<Oracle> opened = Oracle::Open(Schema(), path);
  ASSERT_TRUE(opened.ok());
  Oracle oracle = std::move(opened).value();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1)});
  oracle.Acknowledge(1, 2);
  EXPECT_EQ(DiffText(oracle, Q(5, 5, "host = 'a'"), {}), "missing (host='a', ts=1, v=1)\n");
  std::remove(path.c_str());
}

TEST(OracleTest, UnopenableFileIsAnError) {
  Result<Oracle> opened = Oracle::Open(Schema(), "/nonexistent-dir/oracle.db");
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error().message,
            "cannot open oracle database '/nonexistent-dir/oracle.db': unable to open database "
            "file");
}

// The model's evaluator answers a predicate it interprets; SQLite answers one it does not.
TEST(OracleTest, AnInterpretedPredicateIsEvaluatedByTheModelAndOtherwiseBySqlite) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1), R("b", 1, 2), R("c", 1, 3)});
  oracle.Acknowledge(1, 2);
  const model::Predicate b =
      model::Predicate::Compare("host", model::CompareOp::kEq, model::Value::String("b"));
  QuerySpec spec = Q(5, 5, "\"host\" = 'a'");  // SQLite's text says otherwise
  spec.where = &b;
  EXPECT_EQ(oracle.ExpectCount(spec).value(), (CountRange{1, 1}));
  EXPECT_EQ(DiffText(oracle, spec, {}), "missing (host='b', ts=1, v=2)\n");
  model::Predicate other;  // Kind::kOther: the model leaves it to SQLite
  spec.where = &other;
  spec.where_sql = "v >= 2";
  EXPECT_EQ(oracle.ExpectCount(spec).value(), (CountRange{2, 2}));
  EXPECT_EQ(DiffText(oracle, spec, {R("b", 1, 2)}), "missing (host='c', ts=1, v=3)\n");
}

// A WHERE that bounds an identity column visits only the identities in the bounds (an index
// by that column); the same WHERE written so that no bound shows (NOT of the complement) visits
// every identity. Both must give the same expectation, for every bound shape, on a history of
// acknowledged, unknown, rejected and in-flight writes with NULLs and later identities.
TEST(OracleTest, BoundedIdentityWheresExpectWhatAFullScanExpects) {
  using model::CompareOp;
  using model::Predicate;
  using model::Value;
  Oracle oracle = Make();
  sim::Prng prng(7);
  const char* hosts[] = {"a", "b", "c", "d", "e", nullptr};
  uint64_t step = 1;
  auto write_some = [&](WriteId first, WriteId last) {
    for (WriteId id = first; id <= last; ++id) {
      std::vector<Row> rows;
      for (uint64_t r = 0, n = 1 + prng.Below(3); r < n; ++r) {
        rows.push_back(R(hosts[prng.Below(6)], static_cast<int64_t>(prng.Below(6)),
                         static_cast<int64_t>(prng.Below(100))));
      }
      oracle.RegisterWrite(id, step++, rows);
      switch (prng.Below(4)) {
        case 0:
          oracle.Reject(id, step++);
          break;
        case 1:
          oracle.MarkUnknown(id, step++);
          break;
        case 2:
          break;  // in flight
        default:
          oracle.Acknowledge(id, step++);
      }
    }
  };
  auto same = [&](const Predicate& bounded, const Predicate& scanned, uint64_t start) {
    QuerySpec a = Q(start, start + 3, "bounded");
    a.where = &bounded;
    QuerySpec b = Q(start, start + 3, "scanned");
    b.where = &scanned;
    Result<Expectation> x = oracle.Expect(a);
    Result<Expectation> y = oracle.Expect(b);
    ASSERT_TRUE(x.ok() && y.ok());
    ASSERT_EQ(x.value().slots.size(), y.value().slots.size()) << bounded.ToSql();
    for (size_t s = 0; s < x.value().slots.size(); ++s) {
      const ExpectedSlot& p = x.value().slots[s];
      const ExpectedSlot& q = y.value().slots[s];
      EXPECT_EQ(std::tie(p.identity, p.first, p.size, p.count_min, p.count_max),
                std::tie(q.identity, q.first, q.size, q.count_min, q.count_max))
          << bounded.ToSql();
    }
    EXPECT_EQ(x.value().versions, y.value().versions) << bounded.ToSql();
    EXPECT_EQ(x.value().count, y.value().count) << bounded.ToSql();
  };
  auto host = [&] { return Value::String(hosts[prng.Below(5)]); };
  auto ts = [&] { return Value::Timestamp(static_cast<int64_t>(prng.Below(7)) - 1); };
  size_t nonempty = 0;
  for (int round = 0; round < 3; ++round) {
    write_some(static_cast<WriteId>(round * 40 + 1), static_cast<WriteId>(round * 40 + 40));
    for (int q = 0; q < 60; ++q) {
      const bool on_host = prng.Below(2) == 0;
      const char* column = on_host ? "host" : "ts";
      Value x = on_host ? host() : ts();
      Value y = on_host ? host() : ts();
      const uint64_t start = 1 + prng.Below(step);
      // =, <, <=, >, >=: the complement under NOT.
      const CompareOp ops[] = {CompareOp::kEq, CompareOp::kLt, CompareOp::kLtEq, CompareOp::kGt,
                               CompareOp::kGtEq};
      const CompareOp complement[] = {CompareOp::kNotEq, CompareOp::kGtEq, CompareOp::kGt,
                                      CompareOp::kLtEq, CompareOp::kLt};
      const size_t k = prng.Below(5);
      same(Predicate::Compare(column, ops[k], x),
           Predicate::Not(Predicate::Compare(column, complement[k], x)), start);
      // A range (empty when x > y), and a range ANDed with a bound on the other column.
      const Predicate range = Predicate::And(Predicate::Compare(column, CompareOp::kGtEq, x),
                                             Predicate::Compare(column, CompareOp::kLtEq, y));
      const Predicate range_scanned =
          Predicate::Not(Predicate::Or(Predicate::Compare(column, CompareOp::kLt, x),
                                       Predicate::Compare(column, CompareOp::kGt, y)));
      same(range, range_scanned, start);
      Predicate between;
      between.kind = Predicate::Kind::kBetween;
      between.column = column;
      between.values = {x, y};
      same(between, range_scanned, start);
      const Predicate other = on_host ? Predicate::Compare("ts", CompareOp::kLtEq, ts())
                                      : Predicate::Compare("host", CompareOp::kEq, host());
      same(Predicate::And(other, range), Predicate::And(other, range_scanned), start);
      QuerySpec probe = Q(start, start + 3, "range");
      probe.where = &range;
      nonempty += !oracle.Expect(probe).value().slots.empty();
    }
  }
  EXPECT_GT(nonempty, 60u);  // the ranges do select rows
}

TEST(OracleTest, CrossCheckStopsTheRunWhenTheModelAndSqliteDisagree) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1, 1), R("b", 1, 2)});
  oracle.Acknowledge(1, 2);
  const model::Predicate a =
      model::Predicate::Compare("host", model::CompareOp::kEq, model::Value::String("a"));
  QuerySpec spec = Q(5, 5, "\"host\" = 'a'");
  spec.where = &a;
  oracle.set_cross_check(true);
  EXPECT_EQ(oracle.ExpectCount(spec).value(), (CountRange{1, 1}));  // they agree
  spec.where_sql = "\"host\" = 'b'";
  EXPECT_EXIT(static_cast<void>(oracle.ExpectCount(spec)), testing::ExitedWithCode(70),
              "the model's predicate evaluator and SQLite disagree on WHERE \"host\" = 'b'");
}

TEST(OracleTest, WriteIdsMayComeInAnyOrder) {
  Oracle oracle = Make();
  for (WriteId id : {5, 2, 9, 3, 7}) oracle.RegisterWrite(id, id, {R("a", 1000, int64_t(id))});
  oracle.Acknowledge(3, 10);
  oracle.Reject(9, 10);
  for (WriteId id : {2, 5, 7}) EXPECT_EQ(oracle.StateOf(id), WriteState::kInFlight) << id;
  EXPECT_EQ(oracle.StateOf(3), WriteState::kAcknowledged);
  EXPECT_EQ(oracle.StateOf(9), WriteState::kRejected);
  EXPECT_FALSE(oracle.Knows(4));
  EXPECT_FALSE(oracle.Knows(10));
  EXPECT_EXIT(oracle.RegisterWrite(3, 11, {}), testing::ExitedWithCode(70),
              "write id registered twice");
  EXPECT_EXIT(static_cast<void>(oracle.StateOf(4)), testing::ExitedWithCode(70),
              "unknown write id");
}

TEST(OracleTest, ForgottenStaleAndRejectedValuesAreStillNamed) {
  Oracle oracle = Make();
  oracle.RegisterWrite(1, 1, {R("a", 1000, 1)});
  oracle.Acknowledge(1, 2);
  oracle.RegisterWrite(2, 3, {R("a", 1000, 2)});
  oracle.Acknowledge(2, 4);
  oracle.RegisterWrite(3, 5, {R("a", 1000, 3)});
  oracle.Reject(3, 6);
  // A later row of the same write overwrites (a, 1000, 4).
  oracle.RegisterWrite(4, 7, {R("b", 1000, 4), R("b", 1000, 5)});
  oracle.Acknowledge(4, 8);
  oracle.set_horizon(10);
  EXPECT_EQ(DiffText(oracle, Q(10, 10), {R("a", 1000, 2), R("b", 1000, 5)}), "");
  EXPECT_EQ(oracle.forgotten_count(), 3u);  // v=1 (stale), v=3 (rejected), v=4 (overwritten)
  EXPECT_EQ(DiffText(oracle, Q(10, 10), {R("a", 1000, 1), R("b", 1000, 4)}),
            "wrong value (host='a', ts=1000, v=1): stale value superseded before the query "
            "started; expected (host='a', ts=1000, v=2)\n"
            "wrong value (host='b', ts=1000, v=4): stale value superseded before the query "
            "started; expected (host='b', ts=1000, v=5)\n");
  EXPECT_EQ(DiffText(oracle, Q(10, 10), {R("a", 1000, 3), R("b", 1000, 5)}),
            "phantom (host='a', ts=1000, v=3): value written only by rejected writes; expected "
            "(host='a', ts=1000, v=2)\n");
  EXPECT_EQ(DiffText(oracle, Q(10, 10), {R("a", 1000, 9), R("b", 1000, 5)}),
            "phantom (host='a', ts=1000, v=9): value never written; expected (host='a', "
            "ts=1000, v=2)\n");
  // The horizon is a promise about every later query.
  EXPECT_EXIT(static_cast<void>(oracle.ExpectCount(Q(9, 10))), testing::ExitedWithCode(70),
              "a query starts before the oracle's horizon");
  EXPECT_EXIT(oracle.set_horizon(9), testing::ExitedWithCode(70),
              "the oracle's horizon moved back");
}

TEST(OracleTest, AWriteWhoseVersionsAreAllForgottenIsColdAndItsRowsAreNotReadAgain) {
  Oracle oracle = Make();
  std::vector<std::vector<Row>> rows = {{R("a", 1000, 1), R("b", 1000, 1)},
                                        {R("a", 1000, 2)},
                                        {R("b", 1000, 2)},
                                        {R("a", 1000, 3)},
                                        {R("c", 1000, 1)},
                                        {R("c", 1000, 2)},
                                        {R("c", 1000, 3)},
                                        {R("d", 1000, 1)},
                                        {R("d", 1000, 2)}};
  uint64_t step = 1;
  for (WriteId id = 1; id <= 9; ++id) {
    oracle.RegisterWriteInPlace(id, step++, rows[id - 1]);
    if (id == 5 || id == 6 || id == 8 || id == 9) {
      oracle.Reject(id, step++);
    } else {
      oracle.Acknowledge(id, step++);
    }
  }
  for (WriteId id = 1; id <= 9; ++id) EXPECT_TRUE(oracle.ReadsInPlace(id)) << id;
  oracle.set_horizon(20);
  const std::vector<Row> now = {R("a", 1000, 3), R("b", 1000, 2), R("c", 1000, 3)};
  EXPECT_EQ(DiffText(oracle, Q(20, 20), now), "");
  // a: v=1 and v=2 forgotten, the key (the row that names the identity) moves to v=3; b: v=1
  // forgotten, the key moves to v=2; c: both rejected values forgotten, the key moves to
  // v=3. d: both rejected values forgotten and none left: d=1 stays the key, so write 8 is
  // not cold; write 9 is.
  EXPECT_EQ(oracle.TakeColdWrites(), (std::vector<WriteId>{2, 1, 6, 5, 9}));
  EXPECT_TRUE(oracle.TakeColdWrites().empty());
  // Exactly the cold writes' rows are no longer read in place (the caller may pack them).
  for (WriteId id = 1; id <= 9; ++id) {
    const bool cold = id == 1 || id == 2 || id == 5 || id == 6 || id == 9;
    EXPECT_EQ(oracle.ReadsInPlace(id), !cold) << id;
  }
  Oracle owned = Make();
  owned.RegisterWrite(1, 1, {R("a", 1000, 1)});
  EXPECT_FALSE(owned.ReadsInPlace(1));  // it holds its own copy
  // The cold writes' rows are freed (AddressSanitizer catches a read of one).
  for (WriteId id : {1, 2, 6, 5, 9}) std::vector<Row>().swap(rows[id - 1]);
  EXPECT_EQ(DiffText(oracle, Q(20, 20), now), "");
  EXPECT_EQ(DiffText(oracle, Q(20, 20),
                     {R("a", 1000, 1), R("b", 1000, 2), R("c", 1000, 2), R("d", 1000, 2)}),
            "phantom (host='c', ts=1000, v=2): value written only by rejected writes; expected "
            "(host='c', ts=1000, v=3)\n"
            "phantom (host='d', ts=1000, v=2): value written only by rejected writes\n"
            "wrong value (host='a', ts=1000, v=1): stale value superseded before the query "
            "started; expected (host='a', ts=1000, v=3)\n");
  // The SQLite mirror skips released versions.
  QuerySpec other = Q(20, 20, "\"v\" >= 1");
  EXPECT_EQ(oracle.ExpectCount(other).value(), (CountRange{3, 3}));
}

// Random writes and outcomes, queries from the horizon on, results drawn from every row ever
// written (rejected, stale and overwritten ones included) and from rows never written: an
// oracle that forgets answers exactly as one that keeps every version.
void CheckForgettingKeepsEveryAnswer(bool append_mode) {
  Oracle keeps = Make(append_mode);
  Oracle forgets = Make(append_mode);
  sim::Prng prng(append_mode ? 11 : 12);
  const char* hosts[] = {"a", "b", "c"};
  std::vector<Row> written;
  std::vector<std::pair<WriteId, bool>> unknown;  // unknown writes, acknowledged later or not
  std::vector<WriteId> in_flight;
  uint64_t step = 1;
  WriteId next = 1;
  size_t stale = 0;
  size_t rejected = 0;
  for (int round = 0; round < 40; ++round) {
    // Six writes issued, then given outcomes in a random order: overlapping writes, and steps
    // that an issue and an outcome share now and then.
    std::vector<WriteId> issued;
    for (int w = 0; w < 6; ++w) {
      std::vector<Row> rows;
      for (uint64_t r = 0, n = 1 + prng.Below(2); r < n; ++r) {
        rows.push_back(R(hosts[prng.Below(3)], 1000 * static_cast<int64_t>(prng.Below(2)),
                         static_cast<int64_t>(prng.Below(50))));
        written.push_back(rows.back());
      }
      issued.push_back(next);
      keeps.RegisterWrite(next, step, rows);
      forgets.RegisterWrite(next, step, rows);
      ++next;
      step += prng.Below(2);
    }
    for (size_t i = issued.size(); i > 1; --i) std::swap(issued[i - 1], issued[prng.Below(i)]);
    for (WriteId id : issued) {
      const uint64_t outcome = prng.Below(6);
      for (Oracle* oracle : {&keeps, &forgets}) {
        if (outcome == 0) oracle->Reject(id, step);
        if (outcome == 1) oracle->MarkUnknown(id, step);
        if (outcome >= 3) oracle->Acknowledge(id, step);  // 2: stays in flight
      }
      if (outcome == 1) unknown.push_back({id, false});
      if (outcome == 2) in_flight.push_back(id);
      step += prng.Below(2);
    }
    std::erase_if(in_flight, [&](WriteId id) {  // an outcome, late, now and then
      const uint64_t late = prng.Below(6);
      if (late > 1) return false;
      for (Oracle* oracle : {&keeps, &forgets}) {
        if (late == 0) oracle->Reject(id, step);
        if (late == 1) oracle->Acknowledge(id, step);
      }
      return true;
    });
    for (auto& [id, acked] : unknown) {  // a late acknowledgement now and then
      if (!acked && prng.Below(8) == 0) {
        keeps.Acknowledge(id, step);
        forgets.Acknowledge(id, step);
        acked = true;
      }
    }
    ++step;
    forgets.set_horizon(step - prng.Below(4));
    for (int q = 0; q < 8; ++q) {
      const uint64_t start = forgets.horizon() + prng.Below(step - forgets.horizon() + 1);
      const QuerySpec spec =
          Q(start, start + prng.Below(3), prng.Below(2) == 0 ? "" : "\"host\" = 'a'");
      std::vector<Row> actual;
      for (uint64_t r = 0, n = prng.Below(8); r < n; ++r) {
        actual.push_back(prng.Below(10) == 0
                             ? R(hosts[prng.Below(3)], 0, 100 + static_cast<int64_t>(r))
                             : written[prng.Below(written.size())]);
      }
      const std::string expected = DiffText(keeps, spec, actual);
      ASSERT_EQ(DiffText(forgets, spec, actual), expected) << "round " << round;
      EXPECT_EQ(forgets.ExpectCount(spec).value(), keeps.ExpectCount(spec).value());
      stale += expected.find("stale value") != std::string::npos;
      rejected += expected.find("rejected writes") != std::string::npos;
    }
  }
  // Append mode keeps every acknowledged copy: only rejected values are forgotten there.
  EXPECT_GT(forgets.forgotten_count(), keeps.version_count() / (append_mode ? 12 : 4));
  EXPECT_EQ(keeps.forgotten_count(), 0u);
  EXPECT_GT(rejected, 10u);  // the rejected values' hashes were consulted
  if (!append_mode) {
    EXPECT_GT(stale, 10u);  // and the stale ones'
  }
}

TEST(OracleTest, ForgettingKeepsEveryAnswer) { CheckForgettingKeepsEveryAnswer(false); }
TEST(OracleTest, ForgettingKeepsEveryAnswerInAppendMode) { CheckForgettingKeepsEveryAnswer(true); }

}  // namespace oracle_test
}  // namespace
}  // namespace repartsim::check
