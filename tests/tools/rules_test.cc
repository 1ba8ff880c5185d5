// Goal: `repartsim rules` prints the switch table of model::AllRules(): a header, then one row
// per rule (name, greptime default, reference default, description), and `--json` the same as
// an array of objects. Method: run the built binary through popen; pin the header and two rows
// literally, count the rows against kRuleCount, and compare the JSON with AllRules().
#include "model/rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "model/protocol.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace rules_test {

using Outcome = repartsim::testing::CliOutcome;
using repartsim::testing::RunRepartsim;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RulesVerbTest, PrintsHeaderAndOneRowPerRule) {
  Outcome outcome = RunRepartsim("rules");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  std::vector<std::string> lines = Lines(outcome.output);
  ASSERT_EQ(lines.size(), repartsim::model::kRuleCount + 1) << outcome.output;
  EXPECT_EQ(lines[0], "rule                           greptime  reference  fixed-by  description");
  EXPECT_EQ(lines[1],
            "version-fence-unversioned      off       on         -         datanodes reject writes "
            "that carry no expression version");
  const std::string gc =
      "gc-positive-proof              off       on         -         GC deletes a file only with "
      "positive proof that no region references it";
  EXPECT_NE(std::find(lines.begin(), lines.end(), gc), lines.end()) << outcome.output;
  // A historical switch: on in both profiles, with the pull request that added it.
  const std::string historical =
      "filter-foreign-files           on        on         #7067     a scan filters the rows of "
      "a file written under another expression than the region's (a file a split or merge "
      "shares between regions) by the region's expression. Historical: GreptimeDB #7067 added "
      "the partition filter; before it a shared file was read whole by every region that "
      "referenced it (duplicates after a split, rows outside the region)";
  EXPECT_NE(std::find(lines.begin(), lines.end(), historical), lines.end()) << outcome.output;
  // Row i + 1 is rule i, in Rule order.
  for (size_t i = 0; i < repartsim::model::kRuleCount; ++i) {
    const repartsim::model::RuleInfo& info = repartsim::model::AllRules()[i];
    EXPECT_EQ(lines[i + 1].rfind(info.name, 0), 0u) << lines[i + 1];
  }
}

TEST(RulesVerbTest, JsonIsAnArrayOfEveryRule) {
  Outcome outcome = RunRepartsim("rules --json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  nlohmann::json out = nlohmann::json::parse(outcome.output);
  ASSERT_TRUE(out.is_array());
  ASSERT_EQ(out.size(), repartsim::model::kRuleCount);
  EXPECT_EQ(out[0], (nlohmann::json{
                        {"name", "version-fence-unversioned"},
                        {"description", "datanodes reject writes that carry no expression version"},
                        {"greptime", false},
                        {"reference", true},
                        {"fixed_by", nullptr}}));
  for (size_t i = 0; i < repartsim::model::kRuleCount; ++i) {
    const repartsim::model::RuleInfo& info = repartsim::model::AllRules()[i];
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

TEST(RulesVerbTest, UnknownFlagIsUsageError) {
  Outcome outcome = RunRepartsim("rules --bogus");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output.rfind("<command line>:1:7: error: ", 0), 0u) << outcome.output;
}

}  // namespace rules_test
}  // namespace
