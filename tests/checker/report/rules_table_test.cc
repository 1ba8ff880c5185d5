// Goal: the switch table `repartsim rules` prints (checker/report/rules_table.h): a header,
// then one row per rule of model::AllRules() in Rule order (name, greptime default, reference
// default, fixed-by, description), and the JSON the same as an array of objects.
// Method: in process; pin the header and two rows literally, count the rows against
// kRuleCount, and compare the parsed JSON with AllRules().
#include "checker/report/rules_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "model/protocol/protocol.h"
#include "model/protocol/rules.h"

namespace repartsim::report {
namespace {
namespace rules_table_test {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RulesTableTest, TextHasAHeaderAndOneRowPerRule) {
  const std::vector<std::string> lines = Lines(RulesText());
  ASSERT_EQ(lines.size(), model::kRuleCount + 1);
  EXPECT_EQ(lines[0], "rule                           greptime  reference  fixed-by  description");
  EXPECT_EQ(lines[1],
            "version-fence-unversioned      off       on         -         datanodes reject writes "
            "that carry no expression version");
  const std::string gc =
      "gc-positive-proof              off       on         -         GC deletes a file only with "
      "positive proof that no region references it";
  EXPECT_NE(std::find(lines.begin(), lines.end(), gc), lines.end());
  // A historical switch: on in both profiles, with the pull request that added it.
  const std::string historical =
      "filter-foreign-files           on        on         #7067     a scan filters the rows of "
      "a file written under another expression than the region's (a file a split or merge "
      "shares between regions) by the region's expression. Historical: GreptimeDB #7067 added "
      "the partition filter; before it a shared file was read whole by every region that "
      "referenced it (duplicates after a split, rows outside the region)";
  EXPECT_NE(std::find(lines.begin(), lines.end(), historical), lines.end());
  // Row i + 1 is rule i, in Rule order.
  for (size_t i = 0; i < model::kRuleCount; ++i) {
    EXPECT_EQ(lines[i + 1].rfind(model::AllRules()[i].name, 0), 0u) << lines[i + 1];
  }
}

TEST(RulesTableTest, JsonIsAnArrayOfEveryRule) {
  const std::string text = RulesJson();
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const nlohmann::json out = nlohmann::json::parse(text);
  ASSERT_TRUE(out.is_array());
  ASSERT_EQ(out.size(), model::kRuleCount);
  EXPECT_EQ(out[0], (nlohmann::json{
                        {"name", "version-fence-unversioned"},
                        {"description", "datanodes reject writes that carry no expression version"},
                        {"greptime", false},
                        {"reference", true},
                        {"fixed_by", nullptr}}));
  EXPECT_EQ(text.substr(0, 24), "[\n  {\n    \"name\": \"versi");  // keys in their order
  for (size_t i = 0; i < model::kRuleCount; ++i) {
    const model::RuleInfo& info = model::AllRules()[i];
    EXPECT_EQ(out[i]["name"], info.name);
    EXPECT_EQ(out[i]["description"], info.description);
    EXPECT_EQ(out[i]["greptime"], info.greptime);
    EXPECT_EQ(out[i]["reference"], info.reference);
    if (info.fixed_by == nullptr) {
      EXPECT_TRUE(out[i]["fixed_by"].is_null()) << info.name;
    } else {
      EXPECT_EQ(out[i]["fixed_by"], info.fixed_by);
    }
    EXPECT_EQ(out[i].size(), 5u);
  }
}

}  // namespace rules_table_test
}  // namespace
}  // namespace repartsim::report
