// Goal: the console's answers print as GreptimeDB's client prints them
// (checker/report/console_text.h): result tables with +---+ borders and columns as wide as
// their widest cell, "++\n++" for an empty result, cells with newlines spanning lines (SHOW
// CREATE TABLE), "Affected Rows: N", "Error: CODE(Name), message", and the sqlness block.
// Method: in process, each form compared with the literal text of a GreptimeDB sqlness
// `.result` file (tests/cases/standalone/common/partition.result, repartition.result).
#include "checker/report/console_text.h"

#include <gtest/gtest.h>

namespace repartsim::report {
namespace {
namespace console_text_test {

using console::Answer;
using console::StatusCode;

TEST(ConsoleTextTest, TableColumnsAreAsWideAsTheirWidestCell) {
  EXPECT_EQ(RenderTable({"a", "b", "ts"}, {{"100", "a", "1970-01-01T00:00:00.001"},
                                           {"1100", "c", "1970-01-01T00:00:00.003"}}),
            "+------+---+-------------------------+\n"
            "| a    | b | ts                      |\n"
            "+------+---+-------------------------+\n"
            "| 100  | a | 1970-01-01T00:00:00.001 |\n"
            "| 1100 | c | 1970-01-01T00:00:00.003 |\n"
            "+------+---+-------------------------+");
}

TEST(ConsoleTextTest, AnEmptyResultIsTwoBorders) { EXPECT_EQ(RenderTable({"a"}, {}), "++\n++"); }

TEST(ConsoleTextTest, ACellWithNewlinesSpansLines) {
  EXPECT_EQ(RenderTable({"Table", "Create Table"}, {{"t", "CREATE TABLE (\n  x\n)\n"}}),
            "+-------+----------------+\n"
            "| Table | Create Table   |\n"
            "+-------+----------------+\n"
            "| t     | CREATE TABLE ( |\n"
            "|       |   x            |\n"
            "|       | )              |\n"
            "|       |                |\n"
            "+-------+----------------+");
}

TEST(ConsoleTextTest, WidthCountsCharactersNotBytes) {
  EXPECT_EQ(RenderTable({"s"}, {{"\xc3\xa9t\xc3\xa9"}}),
            "+-----+\n| s   |\n+-----+\n| \xc3\xa9t\xc3\xa9 |\n+-----+");
}

TEST(ConsoleTextTest, AffectedRowsAndErrorsPrintAsTheClientPrintsThem) {
  EXPECT_EQ(RenderAnswer(Answer::Affected(8)), "Affected Rows: 8");
  EXPECT_EQ(RenderAnswer(
                Answer::Error(StatusCode::kInvalidArguments, "Checkpoint `a=10` is not covered")),
            "Error: 1004(InvalidArguments), Checkpoint `a=10` is not covered");
  EXPECT_EQ(RenderAnswer(Answer::Error(StatusCode::kUnsupported,
                                       "Not supported: REPARTITION on logical tables")),
            "Error: 1001(Unsupported), Not supported: REPARTITION on logical tables");
}

TEST(ConsoleTextTest, ResultBlockIsStatementBlankAnswerBlank) {
  EXPECT_EQ(ResultBlock("INSERT INTO t VALUES (1, 'a', 1);", Answer::Affected(1)),
            "INSERT INTO t VALUES (1, 'a', 1);\n\nAffected Rows: 1\n\n");
}

TEST(ConsoleTextTest, JsonNamesTheKindAndItsFields) {
  const nlohmann::json error =
      AnswerJson(Answer::Error(StatusCode::kTableNotFound, "Table not found: x"));
  EXPECT_EQ(error["kind"], "error");
  EXPECT_EQ(error["code"], 4001);
  EXPECT_EQ(error["code_name"], "TableNotFound");
  const nlohmann::json rows = AnswerJson(Answer::Table({"a"}, {{"1"}}));
  EXPECT_EQ(rows["kind"], "rows");
  EXPECT_EQ(rows["rows"][0][0], "1");
  EXPECT_EQ(AnswerJson(Answer::Affected(3))["affected_rows"], 3);
}

}  // namespace console_text_test
}  // namespace
}  // namespace repartsim::report
