// Goal: the console's session runs statements on a simulated cluster and answers as GreptimeDB
// (checker/console/console_session.h): CREATE TABLE, INSERT and a repartition answer
// "Affected Rows", SELECT answers the rows the cluster returned (ORDER BY applied, count(*)),
// errors carry GreptimeDB's codes and texts, statements that do not parse or that the
// console does not run are refused (located), and the same seed gives the same trace.
// Method: in process, a default session; answers compared with literal values.
#include "checker/console/console_session.h"

#include <gtest/gtest.h>

namespace repartsim::console {
namespace {
namespace console_session_test {

constexpr const char* kCreate =
    "CREATE TABLE t (a INT PRIMARY KEY, b STRING, ts TIMESTAMP TIME INDEX) "
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10)";

std::unique_ptr<Session> Start(uint64_t seed = 0) {
  SessionConfig config;
  config.seed = seed;
  config.keep_trace = true;
  auto session = Session::Start(config);
  EXPECT_TRUE(session.ok());
  return std::move(session).value();
}

Answer Ask(Session& s, const std::string& sql) {
  auto result = s.Run(sql, {"t.sql", 1, 1});
  EXPECT_TRUE(result.has_value()) << sql;
  EXPECT_FALSE(result->refused) << sql << ": " << result->detail;
  return result->answer;
}

TEST(ConsoleSessionTest, CreateInsertSplitSelectAnswerAsGreptimeDb) {
  auto s = Start();
  EXPECT_EQ(Ask(*s, kCreate).affected_rows, 0u);
  const Answer insert = Ask(*s, "INSERT INTO t VALUES (12, 'c', 3), (1, 'a', 1), (5, 'b', 2)");
  EXPECT_EQ(insert.kind, Answer::Kind::kAffectedRows);
  EXPECT_EQ(insert.affected_rows, 3u);
  const Answer split =
      Ask(*s, "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 3, a >= 3 AND a < 10)");
  EXPECT_EQ(split.kind, Answer::Kind::kAffectedRows) << split.message;
  const Answer rows = Ask(*s, "SELECT * FROM t WHERE a < 10 ORDER BY a DESC");
  ASSERT_EQ(rows.kind, Answer::Kind::kRows);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"a", "b", "ts"}));
  EXPECT_EQ(rows.rows,
            (std::vector<std::vector<std::string>>{{"5", "b", "1970-01-01T00:00:00.002"},
                                                   {"1", "a", "1970-01-01T00:00:00.001"}}));
  const Answer count = Ask(*s, "SELECT count(*) FROM t");
  EXPECT_EQ(count.columns, (std::vector<std::string>{"count(*)"}));
  EXPECT_EQ(count.rows, (std::vector<std::vector<std::string>>{{"3"}}));
}

TEST(ConsoleSessionTest, ErrorsCarryGreptimeDbCodesAndTexts) {
  auto s = Start();
  Ask(*s, kCreate);
  const Answer exists = Ask(*s, kCreate);
  EXPECT_EQ(exists.code, StatusCode::kTableAlreadyExists);
  EXPECT_EQ(exists.message, "Table already exists: `greptime.public.t`");
  EXPECT_EQ(Ask(*s, "SELECT * FROM x").message,
            "Failed to plan SQL: Table not found: greptime.public.x");
  const Answer gap =
      Ask(*s, "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 3, a >= 5 AND a < 10)");
  EXPECT_EQ(gap.code, StatusCode::kInvalidArguments);
  EXPECT_EQ(gap.message, "Checkpoint `a=3` is not covered");
  const Answer missing = Ask(*s, "ALTER TABLE t MERGE PARTITION (a < 5, a >= 10)");
  EXPECT_EQ(missing.code, StatusCode::kInvalidArguments);
  EXPECT_EQ(missing.message,
            "Invalid partition rule: partition expression 'a < 5' does not exist in table "
            "greptime.public.t");
  const Answer column = Ask(*s, "INSERT INTO t (a, nope) VALUES (1, 2)");
  EXPECT_EQ(column.code, StatusCode::kTableColumnNotFound);
  EXPECT_EQ(column.message, "Column nope not exists in table t");
  const Answer rule = Ask(*s,
                          "CREATE TABLE u (a INT, ts TIMESTAMP TIME INDEX) "
                          "PARTITION ON COLUMNS (a) (a < 10, a > 10)");
  EXPECT_EQ(rule.code, StatusCode::kInvalidArguments);
  EXPECT_EQ(rule.message, "Checkpoint `a=10` is not covered");
}

TEST(ConsoleSessionTest, MalformedAndUnsupportedStatementsAreRefusedAtTheirLocation) {
  auto s = Start();
  auto bad = s->Run("\nSELECT * FROM", {"f.sql", 7, 1});
  ASSERT_TRUE(bad.has_value());
  EXPECT_TRUE(bad->refused);
  EXPECT_EQ(bad->answer.code, StatusCode::kInvalidSyntax);
  EXPECT_EQ(bad->answer.message.rfind("Invalid SQL syntax: sql parser error: Expected", 0), 0u)
      << bad->answer.message;
  EXPECT_EQ(bad->location.file, "f.sql");
  EXPECT_EQ(bad->location.line, 8u);
  auto typo = s->Run("SELEC 1", {"f.sql", 1, 1});
  EXPECT_EQ(typo->answer.message, "SQL statement is not supported, keyword: SELEC");
  auto drop = s->Run("DROP TABLE t", {"f.sql", 1, 1});
  EXPECT_EQ(drop->answer.code, StatusCode::kUnsupported);
  EXPECT_TRUE(drop->refused);
  EXPECT_FALSE(s->Run("-- only a comment\n", {"f.sql", 1, 1}).has_value());
}

TEST(ConsoleSessionTest, TheSameSeedGivesTheSameTrace) {
  auto run = [](uint64_t seed) {
    auto s = Start(seed);
    Ask(*s, kCreate);
    Ask(*s, "INSERT INTO t VALUES (1, 'a', 1)");
    Ask(*s, "ALTER TABLE t MERGE PARTITION (a < 10, a >= 10)");
    return s->Summary();
  };
  const sim::RunSummary a = run(0);
  const sim::RunSummary b = run(0);
  EXPECT_EQ(a.trace_hash, b.trace_hash);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_GT(a.steps, 0u);
}

}  // namespace console_session_test
}  // namespace
}  // namespace repartsim::console
