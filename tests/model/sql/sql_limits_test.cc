// Goal: input beyond the limits of sql_limits.h is a located error, never a crash or an
// unbounded cost. Before the limits, 5,000 nested parentheses or 100,000 NOTs in a WHERE
// clause (10 KB of SQL) overflowed the recursive parser's stack (SIGSEGV). Method: build
// inputs just at and just past each limit and compare the error text with its line:column.
#include "model/sql/sql_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "model/sql/parser.h"

namespace repartsim::model::sql {
namespace {
namespace sql_limits_test {

const std::string kCreate =
    "CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h)) ";

std::string Repeat(const std::string& piece, size_t n) {
  std::string out;
  out.reserve(piece.size() * n);
  for (size_t i = 0; i < n; ++i) out += piece;
  return out;
}

std::string PredicateError(const std::string& text) {
  auto r = ParsePredicate(text, "w");
  return r.ok() ? "ok" : r.error().Format();
}

std::string StatementError(const std::string& text) {
  auto r = ParseStatements(text, "f");
  return r.ok() ? "ok" : r.error().Format();
}

TEST(SqlLimitsTest, FiveThousandParenthesesAreAnErrorNotAStackOverflow) {
  const std::string deep = Repeat("(", 5000) + "a = 1" + Repeat(")", 5000);
  EXPECT_EQ(PredicateError(deep),
            "w:1:129: error: expression nested too deeply: more than 128 levels of "
            "parentheses and NOT");
  EXPECT_EQ(StatementError("SELECT * FROM t WHERE " + deep),
            "f:1:151: error: expression nested too deeply: more than 128 levels of "
            "parentheses and NOT");
}

TEST(SqlLimitsTest, HundredThousandNotsAreAnErrorNotAStackOverflow) {
  EXPECT_EQ(PredicateError(Repeat("NOT ", 100000) + "a = 1"),
            "w:1:513: error: expression nested too deeply: more than 128 levels of "
            "parentheses and NOT");
}

TEST(SqlLimitsTest, NestingAtTheLimitParses) {
  const size_t n = kSqlNestingDepthMax;
  EXPECT_EQ(PredicateError(Repeat("(", n) + "a = 1" + Repeat(")", n)), "ok");
  EXPECT_EQ(PredicateError(Repeat("NOT ", n) + "a = 1"), "ok");
  EXPECT_EQ(PredicateError(Repeat("NOT (", n / 2) + "a = 1" + Repeat(")", n / 2)), "ok");
  // Siblings do not add up: depth is the nesting, not the count of parentheses.
  EXPECT_EQ(PredicateError(Repeat("(a = 1) OR ", 1000) + "(a = 2)"), "ok");
}

TEST(SqlLimitsTest, LongAndOrChainsAreBounded) {
  const std::string at_limit = "a = 0" + Repeat(" OR a = 1", kSqlOperatorsMax);
  EXPECT_EQ(PredicateError(at_limit), "ok");
  const std::string past = at_limit + " AND a = 2";
  EXPECT_EQ(PredicateError(past), "w:1:" + std::to_string(at_limit.size() + 2) +
                                      ": error: expression too long: more than 4096 AND/OR "
                                      "operators");
  // A partition expression is bounded the same way.
  const std::string rule =
      kCreate + "PARTITION ON COLUMNS (a) (a = 0" + Repeat(" OR a = 1", kSqlOperatorsMax + 1) + ")";
  EXPECT_NE(StatementError(rule).find("error: expression too long: more than 4096 AND/OR"),
            std::string::npos);
}

TEST(SqlLimitsTest, InListRowsColumnsAndPartitionsAreBounded) {
  const std::string in_list = "a IN (0" + Repeat(", 1", kSqlInListValuesMax) + ")";
  EXPECT_EQ(PredicateError(in_list), "w:1:" + std::to_string(in_list.size() - 1) +
                                         ": error: IN list too long: more than 100000 values");
  const std::string in_ok = "a IN (0" + Repeat(", 1", kSqlInListValuesMax - 1) + ")";
  EXPECT_EQ(PredicateError(in_ok), "ok");

  const std::string insert =
      "INSERT INTO t VALUES ('h', 1, 1)" + Repeat(", ('h', 1, 1)", kSqlInsertRowsMax);
  EXPECT_EQ(StatementError(insert), "f:1:" + std::to_string(insert.size() - 10) +
                                        ": error: too many rows in one INSERT: more than 10000");

  std::string columns = "CREATE TABLE t (ts TIMESTAMP TIME INDEX";
  for (size_t i = 1; i <= kSqlColumnsMax; ++i) columns += ", c" + std::to_string(i) + " INT";
  EXPECT_NE(StatementError(columns + ")").find("error: too many columns: more than 1024"),
            std::string::npos);

  std::string partitions = kCreate + "PARTITION ON COLUMNS (a) (a < 0";
  for (size_t i = 0; i < kSqlPartitionsMax; ++i) partitions += ", a = " + std::to_string(i);
  EXPECT_NE(StatementError(partitions + ")").find("error: too many partitions: more than 1024"),
            std::string::npos);
}

TEST(SqlLimitsTest, TextSizeIsBounded) {
  const std::string big = "SELECT * FROM t WHERE a = 1" + std::string(kSqlTextBytesMax, ' ');
  EXPECT_EQ(StatementError(big), "f:1:1: error: SQL text of " + std::to_string(big.size()) +
                                     " bytes exceeds the limit of 1048576 bytes");
  EXPECT_EQ(PredicateError(std::string(kSqlTextBytesMax + 1, ' ')),
            "w:1:1: error: SQL text of 1048577 bytes exceeds the limit of 1048576 bytes");
}

TEST(SqlLimitsTest, InvalidUtf8IsALocatedError) {
  // Columns count bytes, as a compiler's do: the two-byte e-acute moves the column by two.
  EXPECT_EQ(PredicateError("a = 'caf\xc3\xa9' OR a = 'x\xff'"),
            "w:1:22: error: invalid UTF-8 byte 0xFF (SQL text must be UTF-8)");
  EXPECT_EQ(StatementError("SELECT * FROM t\nWHERE a = '\xed\xa0\x80'"),
            "f:2:12: error: invalid UTF-8 byte 0xED (SQL text must be UTF-8)");
}

}  // namespace sql_limits_test
}  // namespace
}  // namespace repartsim::model::sql
