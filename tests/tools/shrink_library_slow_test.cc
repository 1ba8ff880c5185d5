// Goal: `repartsim shrink` succeeds (exit 0, verified) on the first failing seed of every
// bundled scenario under each profile it fails under, and the file it writes meets its own
// expectations in a sweep (before issue 53, every scenario whose expect.with_rules entries carry
// `seeds:` wrote a file that did not load, and shrink exited 70).
// Method: the (scenario, profile) pairs come from the scenarios' `expect` entries: every profile
// whose expectation names a `violation:` or tolerates a failure (READ-ANOMALY, which fails no run,
// and DDL-REJECTED, the cluster refusing a statement while faults are on, do not count: the swarm
// scenarios tolerate it under reference where its runs pass but for a rare seed). The first seed of
// the scenario's `seeds` range whose run does not pass is shrunk through the CLI; a `violation:`
// pair must have one in its range, a tolerate-only pair is searched through its first
// kToleratedSeedsMax seeds (the swarm scenarios fail within a few). Then `repartsim sweep` runs
// the shrunk file. Slow (label `slow`): about 3 minutes on one core, most of it in the swarm
// scenarios' shrinks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/checker/scenario/bundled_scenarios.h"
#include "tests/tools/cli_runner.h"

namespace repartsim::tools {
namespace {
namespace shrink_library_slow_test {

constexpr uint64_t kToleratedSeedsMax = 50;

struct Case {
  std::string path;  // absolute
  std::string profile;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.path << " under " << c.profile; }

// The pairs whose expectation allows a failing run, in path order, reference before greptime.
std::vector<Case> FailingCases() {
  std::vector<Case> cases;
  for (const std::string& path : scenario::BundledScenarios()) {
    auto s = scenario::LoadScenarioFile(path);
    if (!s.ok()) continue;  // the bundled-scenario test reports it
    for (const char* profile : {"reference", "greptime"}) {
      const auto e = s.value().ExpectationFor(profile);
      const bool may_fail =
          e && (!e->pass ||
                std::any_of(e->tolerate.begin(), e->tolerate.end(), [](const std::string& name) {
                  return name != "READ-ANOMALY" && name != "DDL-REJECTED";
                }));
      if (may_fail) cases.push_back({path, profile});
    }
  }
  return cases;
}

class ShrinkLibraryTest : public ::testing::TestWithParam<Case> {};

TEST_P(ShrinkLibraryTest, FirstFailingSeedShrinksAndVerifies) {
  const Case& c = GetParam();
  auto loaded = scenario::LoadScenarioFile(c.path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
  const scenario::Scenario& s = loaded.value();
  const bool expects_violation = !s.ExpectationFor(c.profile)->pass;
  const uint64_t last = expects_violation
                            ? s.seed_last
                            : std::min(s.seed_last, s.seed_first + kToleratedSeedsMax - 1);
  std::optional<uint64_t> failing;
  for (uint64_t seed = s.seed_first; !failing && seed <= last; ++seed) {
    run::RunConfig config;
    config.seed = seed;
    config.profile = c.profile;
    auto r = run::RunScenario(s, config);
    ASSERT_TRUE(r.ok()) << r.error().Format();
    if (r.value().outcome != run::Outcome::kPass) failing = seed;
  }
  if (!failing) {
    ASSERT_FALSE(expects_violation) << "no failing seed in " << c.path << " under " << c.profile;
    GTEST_SKIP() << "no failing seed among the first " << kToleratedSeedsMax;
  }
  const std::string dir = testing::FreshTestDir("shrink_library");
  const std::string out = dir + "/shrunk.yaml";
  const std::string seed = std::to_string(*failing);
  const testing::CliOutcome shrunk = testing::RunRepartsim(
      "shrink " + c.path + " --seed " + seed + " --profile " + c.profile + " --out " + out + " -q");
  EXPECT_EQ(shrunk.exit_code, 0) << shrunk.output;
  EXPECT_NE(shrunk.output.find(") verified: seed=" + seed + " "), std::string::npos)
      << shrunk.output;
  EXPECT_NE(shrunk.output.find("\n  compared: the run of the file at seed " + seed + " under " +
                               c.profile + " reports "),
            std::string::npos)
      << shrunk.output;
  const testing::CliOutcome sweep = testing::RunRepartsim("sweep " + out + " -q");
  EXPECT_EQ(sweep.exit_code, 0) << sweep.output;
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ShrinkLibraryTest, ::testing::ValuesIn(FailingCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const std::filesystem::path p(info.param.path);
                           std::string name = p.parent_path().filename().string() + "_" +
                                              p.stem().string() + "_" + info.param.profile;
                           for (char& ch : name) {
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace shrink_library_slow_test
}  // namespace
}  // namespace repartsim::tools
