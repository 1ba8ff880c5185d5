// Goal: FirstInvalidUtf8 accepts exactly well-formed UTF-8 and names the first bad byte.
#include "sim/utf8.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {

TEST(Utf8Test, AcceptsWellFormedText) {
  for (const char* ok : {"", "plain ascii", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                         "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbf"}) {
    EXPECT_EQ(FirstInvalidUtf8(ok), std::nullopt) << ok;
  }
}

TEST(Utf8Test, NamesTheFirstBadByte) {
  EXPECT_EQ(FirstInvalidUtf8("a\xff"), 1u);
  EXPECT_EQ(FirstInvalidUtf8("ab\x80"), 2u);            // a lone continuation byte
  EXPECT_EQ(FirstInvalidUtf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(FirstInvalidUtf8("\xe0\x80\xaf"), 0u);      // overlong
  EXPECT_EQ(FirstInvalidUtf8("x\xed\xa0\x80"), 1u);     // a surrogate
  EXPECT_EQ(FirstInvalidUtf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8("ok\xe2\x82"), 2u);        // cut short
  EXPECT_EQ(FirstInvalidUtf8("\xc3\xa9\xc3\x28"), 2u);  // bad second byte
}

TEST(Utf8Test, VisibleTextShowsControlBytes) {
  EXPECT_EQ(VisibleText("split-small caf\xc3\xa9"), "split-small caf\xc3\xa9");
  EXPECT_EQ(VisibleText("evil\x1b[31mred\x07"), "evil\\x1b[31mred\\x07");
  EXPECT_EQ(VisibleText("a\nb\tc\x7f"), "a\\x0ab\\x09c\\x7f");
}

}  // namespace
}  // namespace repartsim::sim
