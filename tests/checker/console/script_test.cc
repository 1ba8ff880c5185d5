// Goal: a console script splits into statements as sqlness reads a `.sql` case
// (checker/console/script.h): at each ';' outside quotes and comments, with the comment lines
// before a statement kept in its text, blank lines dropped, and the location of its first
// character; text after the last ';' is an incomplete statement.
// Method: in process, on small scripts with quotes, comments and blank lines.
#include "checker/console/script.h"

#include <gtest/gtest.h>

namespace repartsim::console {
namespace {
namespace script_test {

TEST(ScriptTest, SplitsAtSemicolonsKeepingTheCommentsBefore) {
  const auto s = SplitScript("\n\n-- first\nSELECT 1;\n\n  INSERT x;  SELECT 'a;b' -- c;\n;", "f");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].text, "-- first\nSELECT 1;");
  EXPECT_EQ(s[0].location.line, 3u);
  EXPECT_EQ(s[0].location.column, 1u);
  EXPECT_EQ(s[1].text, "INSERT x;");
  EXPECT_EQ(s[1].location.line, 6u);
  EXPECT_EQ(s[1].location.column, 3u);
  EXPECT_EQ(s[2].text, "SELECT 'a;b' -- c;\n;");
  EXPECT_EQ(s[2].location.file, "f");
  for (const ScriptStatement& statement : s) EXPECT_TRUE(statement.complete);
}

TEST(ScriptTest, QuotedIdentifiersAndDoubledQuotesDoNotEndAStatement) {
  const auto s = SplitScript("SELECT \"a;\", `b;`, 'it''s;' FROM t; SELECT", "f");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].text, "SELECT \"a;\", `b;`, 'it''s;' FROM t;");
  EXPECT_EQ(s[1].text, "SELECT");
  EXPECT_FALSE(s[1].complete);
}

TEST(ScriptTest, BlanksAloneAreNoStatement) {
  EXPECT_TRUE(SplitScript(" \n\t\n", "f").empty());
  EXPECT_TRUE(SplitScript("", "f").empty());
}

}  // namespace script_test
}  // namespace
}  // namespace repartsim::console
