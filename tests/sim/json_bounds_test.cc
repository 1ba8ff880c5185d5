// Goal: sim::CheckJsonBounds counts every value (keys and containers included) and the nesting
// of a JSON text, refuses the first value beyond a bound with its location, and is not misled
// by brackets, quotes or escapes inside strings.
// Method: small texts at and one past each bound.
#include "sim/json_bounds.h"

#include <gtest/gtest.h>

#include <string>

namespace repartsim::sim {
namespace {
namespace json_bounds_test {

std::string Check(std::string_view text, uint64_t values_max, uint32_t depth_max) {
  Status s = CheckJsonBounds(text, JsonBounds{values_max, depth_max}, "r.json", "report");
  return s.ok() ? "ok" : s.error().Format();
}

TEST(JsonBoundsTest, CountsValuesKeysAndContainers) {
  EXPECT_EQ(Check(R"({"a": [1, 2]})", 5, 8), "ok");
  EXPECT_EQ(Check(R"({"a": [1, 2]})", 4, 8),
            "r.json:1:11: error: report holds more than 4 JSON values (keys included)");
  EXPECT_EQ(Check("[true,false,null,-1.5e3,\"x\"]", 6, 8), "ok");
  EXPECT_EQ(Check("[true,false,null,-1.5e3,\"x\"]", 5, 8),
            "r.json:1:25: error: report holds more than 5 JSON values (keys included)");
  EXPECT_EQ(Check("", 1, 1), "ok");
  EXPECT_EQ(Check(" \n\t", 1, 1), "ok");
}

TEST(JsonBoundsTest, RefusesNestingBeyondTheBoundWhereItStarts) {
  EXPECT_EQ(Check("[[[]]]", 100, 3), "ok");
  EXPECT_EQ(Check("[\n [\n  [\n   [1]]]]", 100, 3),
            "r.json:4:4: error: report nests objects and arrays deeper than 3 levels");
  // Closing brackets bring the depth back: siblings do not add up.
  EXPECT_EQ(Check("[[1],[2],{\"a\":[3]}]", 100, 3), "ok");
}

TEST(JsonBoundsTest, BracketsQuotesAndEscapesInsideStringsAreText) {
  EXPECT_EQ(Check(R"(["[[[{", "a\"b]", "\\"])", 4, 1), "ok");
  EXPECT_EQ(Check(R"({"k\\": "v,:x"})", 3, 1), "ok");
  // An unterminated string ends the text; the parser reports the syntax.
  EXPECT_EQ(Check(R"(["abc)", 2, 1), "ok");
}

}  // namespace json_bounds_test
}  // namespace
}  // namespace repartsim::sim
