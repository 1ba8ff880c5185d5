// Goal: the commented example in scenarios/README.md stays a valid scenario, and the loader
// reads every documented step kind from it as documented. Method: extract the first ```yaml
// block of the README, parse it with ParseScenario, and check the steps it yields.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace readme_example_test {

std::string ReadmeExample() {
  std::ifstream in(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/README.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const std::string open = "```yaml\n";
  const size_t begin = all.find(open);
  EXPECT_NE(begin, std::string::npos);
  const size_t end = all.find("```", begin + open.size());
  EXPECT_NE(end, std::string::npos);
  return all.substr(begin + open.size(), end - begin - open.size());
}

template <class T>
const T* FindOp(const Scenario& s) {
  for (const ScriptedStep& step : s.steps) {
    if (const T* op = model::OpIf<T>(&step.op)) return op;
  }
  return nullptr;
}

TEST(ReadmeExampleTest, LoadsAndCarriesEveryDocumentedStepKind) {
  auto loaded = ParseScenario(ReadmeExample(), "scenarios/README.md");
  ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
  const Scenario& s = loaded.value();
  EXPECT_EQ(s.name, "split-with-writers");
  EXPECT_NE(FindOp<model::RepartitionOp>(s), nullptr);
  EXPECT_TRUE(FindOp<model::RepartitionOp>(s)->validate);
  size_t unvalidated = 0;
  for (const ScriptedStep& step : s.steps) {
    const auto* alter = model::OpIf<model::RepartitionOp>(&step.op);
    unvalidated += alter != nullptr && !alter->validate;
  }
  EXPECT_EQ(unvalidated, 1u);
  ASSERT_EQ(s.rule_expect.size(), 3u);
  EXPECT_EQ(s.rule_expect[0].overrides, "unified-null-routing=off,fenced-reads=off");
  EXPECT_EQ(s.rule_expect[1].overrides, "fenced-reads=on");
  EXPECT_EQ(s.rule_expect[1].profile, "greptime");
  EXPECT_EQ(s.rule_expect[2].seeds, (std::pair<uint64_t, uint64_t>{5, 7}));
  EXPECT_NE(FindOp<model::CrashNodeOp>(s), nullptr);
  EXPECT_NE(FindOp<model::RestartNodeOp>(s), nullptr);
  EXPECT_NE(FindOp<model::PartitionOp>(s), nullptr);
  EXPECT_NE(FindOp<model::HealOp>(s), nullptr);
  EXPECT_NE(FindOp<model::StaleCacheOp>(s), nullptr);
  const auto* expire = FindOp<model::ExpireLeaseOp>(s);
  ASSERT_NE(expire, nullptr);
  EXPECT_EQ(expire->node.value, 1u);
  int rules[5] = {0, 0, 0, 0, 0};
  for (const ScriptedStep& step : s.steps) {
    if (const auto* r = model::OpIf<model::MessageRuleOp>(&step.op)) {
      ++rules[static_cast<int>(r->rule.action)];
    }
  }
  for (int count : rules) EXPECT_EQ(count, 1);
  const ScriptedStep& last = s.steps.back();
  EXPECT_EQ(last.after_state, "RepartitionGroup.EnterStagingRegion");
  EXPECT_EQ(last.occurrence, 1u);
  EXPECT_EQ(last.at_ms, 0);
  EXPECT_TRUE(model::OpIf<model::CrashNodeOp>(&last.op) != nullptr);
}

}  // namespace readme_example_test
}  // namespace
}  // namespace repartsim::scenario
