// Goal: DumpMemo answers from the memo only for fields equal to those it dumped before: a
// repeat is not dumped again, different fields under the same key are dumped (and replace the
// kept entry), and the answer is always the dump of the asking fields.
// Method: a counting dump function over plain integer fields.
#include "model/procedure/dump_memo.h"

#include <gtest/gtest.h>

#include <string>

namespace repartsim::model {
namespace {
namespace dump_memo_test {

TEST(DumpMemoTest, AHitNeedsEqualFieldsNotOnlyTheSameKey) {
  DumpMemo<int> memo;
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

}  // namespace dump_memo_test
}  // namespace
}  // namespace repartsim::model
