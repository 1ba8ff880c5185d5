// Goal: TextMemo answers from the memo only for a value equal to one it made the text of
// before: a repeat is not made again, a different value under the same key is made (and
// replaces the kept entry), and the answer is always the text of the asking value.
// Method: a counting make function over plain integer values.
#include "sim/text_memo.h"

#include <gtest/gtest.h>

#include <string>

namespace repartsim::sim {
namespace {
namespace text_memo_test {

TEST(TextMemoTest, AHitNeedsEqualFieldsNotOnlyTheSameKey) {
  TextMemo<int> memo;
  int dumps = 0;
  auto dump_of = [&](int fields) {
    return [&dumps, fields] {
      ++dumps;
      return "state " + std::to_string(fields);
    };
  };
  EXPECT_EQ(memo.Get(7, 1, dump_of(1)), "state 1");
  EXPECT_EQ(memo.Get(7, 1, dump_of(1)), "state 1");
  EXPECT_EQ(dumps, 1);
  EXPECT_EQ(memo.Get(7, 2, dump_of(2)), "state 2");  // same key, other fields
  EXPECT_EQ(dumps, 2);
  EXPECT_EQ(memo.Get(7, 1, dump_of(1)), "state 1");  // the entry was replaced
  EXPECT_EQ(dumps, 3);
  EXPECT_EQ(memo.Get(8, 2, dump_of(2)), "state 2");
  EXPECT_EQ(memo.Get(8, 2, dump_of(2)), "state 2");
  EXPECT_EQ(dumps, 4);
}

}  // namespace text_memo_test
}  // namespace
}  // namespace repartsim::sim
