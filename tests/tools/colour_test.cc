// Goal: colour only on a terminal and never under NO_COLOR (https://no-color.org); the verdict
// words are wrapped whole in red or green and the rest of the text is untouched (issue 53).
// Method: Colour() on fixed text; ColourWanted on a file (not a terminal) and under NO_COLOR.
#include "tools/repartsim/colour.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>

namespace repartsim::tools {
namespace {
namespace colour_test {

TEST(ColourTest, VerdictWordsAreColouredWholeAndTheRestIsUntouched) {
  EXPECT_EQ(Colour("seed=0 outcome=safety\nexpect (greptime): pass -> NOT met\n"),
            "seed=0 \033[31moutcome=safety\033[0m\nexpect (greptime): pass -> "
            "\033[31mNOT met\033[0m\n");
  EXPECT_EQ(Colour("outcome=pass -> met"), "\033[32moutcome=pass\033[0m \033[32m-> met\033[0m");
  EXPECT_EQ(Colour("  [UNEXPECTED] a"), "  [\033[31mUNEXPECTED\033[0m] a");
  EXPECT_EQ(Colour("no verdict here"), "no verdict here");
}

TEST(ColourTest, OnlyOnATerminalAndNeverUnderNoColor) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  EXPECT_FALSE(ColourWanted(file));  // a file is no terminal
  WriteColoured(file, "outcome=safety");
  std::rewind(file);
  char buffer[64] = {};
  EXPECT_EQ(std::string(buffer, std::fread(buffer, 1, sizeof buffer, file)), "outcome=safety");
  std::fclose(file);
  ::setenv("NO_COLOR", "1", 1);
  EXPECT_FALSE(ColourWanted(stdout));
  ::unsetenv("NO_COLOR");
}

}  // namespace colour_test
}  // namespace
}  // namespace repartsim::tools
