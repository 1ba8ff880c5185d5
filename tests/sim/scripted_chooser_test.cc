// Goal: a sparse decision script answers exactly its listed decisions (by index among the
// unforced ones) and defaults the rest; a label that does not match is a mismatch.
#include "sim/scripted_chooser.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {
namespace scripted_chooser_test {

TEST(ScriptedChooserTest, ListedDecisionsGetTheirValueOthersDefault) {
  ScriptedChooser c({{1, "net.delay", 1}, {2, "net.delay_ms", 7}});
  EXPECT_FALSE(c.Chance("net.drop", Ratio{1, 10}));  // #0: default no
  EXPECT_EQ(c.Choose("forced", 1), 0u);              // forced: not counted
  EXPECT_TRUE(c.Chance("net.delay", Ratio{1, 10}));  // #1
  EXPECT_EQ(c.Choose("net.delay_ms", 10), 7u);       // #2
  EXPECT_EQ(c.Choose("net.delay_ms", 10), 0u);       // #3: default
  EXPECT_EQ(c.used(), 2u);
  EXPECT_EQ(c.mismatch(), nullptr);
}

TEST(ScriptedChooserTest, WrongLabelIsAMismatch) {
  ScriptedChooser c({{0, "net.delay", 1}});
  EXPECT_FALSE(c.Chance("net.drop", Ratio{1, 10}));
  ASSERT_NE(c.mismatch(), nullptr);
  EXPECT_EQ(c.mismatch()->choice_index, 0u);
  EXPECT_EQ(c.mismatch()->message,
            "scripted decision #0 is net.delay=1, the run asks net.drop (2 options)");
}

}  // namespace scripted_chooser_test
}  // namespace
}  // namespace repartsim::sim
