// Goal: every bundled scenario (scenarios/**.yaml) loads, meets its stated expectation for
// `reference` and `greptime` on a fixed seed range (no run reports an invariant the
// expectation does not allow; an expected violation is reproduced), and is deterministic (two runs
// of one seed give the same summary: steps, prng_draws, trace_hash). Method: run the first
// kSeedsFast seeds of each scenario's `seeds` range under each profile it states an expectation for
// (the slow test runs the whole range). The same for every per-rule expectation
// (expect.with_rules) on the same seeds. Every run cross-checks the oracle's predicate
// evaluation: the model's evaluator and SQLite must agree on every row version of every query.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/run/explore.h"
#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/checker/scenario/bundled_scenarios.h"

namespace repartsim::scenario {
namespace {
namespace bundled_scenario_test {

constexpr uint64_t kSeedsFast = 3;

class BundledScenarioTest : public ::testing::TestWithParam<std::string> {};

// Runs seeds `first`..`last` under `profile` with `rules` on top and returns
// one line per miss of `expect`: an invariant it does not allow, or its expected invariant
// reproduced by none of them. `what` names the runs in the lines. With `recheck`, the first
// seed runs twice and must give the same summary; with `overrides`, every run must report
// those rule overrides.
std::string MissesOf(const Scenario& s, const std::string& what, const std::string& profile,
                     const std::vector<std::pair<std::string, bool>>& rules,
                     const Expectation& expect, uint64_t first, uint64_t last, bool recheck,
                     const std::string* overrides = nullptr) {
  bool reproduced = false;
  std::string failures;
  for (uint64_t seed = first; seed <= last; ++seed) {
    run::RunConfig config;
    config.seed = seed;
    config.profile = profile;
    config.rules = rules;
    // Every query predicate of the library is evaluated by the model and by SQLite; a
    // disagreement ends the test binary with exit 70 and names the WHERE text.
    config.oracle_cross_check = true;
    auto report = run::RunScenario(s, config);
    if (!report.ok()) {
      failures += what + " seed " + std::to_string(seed) + ": " + report.error().Format() + "\n";
      continue;
    }
    if (overrides != nullptr) {
      EXPECT_EQ(report.value().rules, *overrides) << what;
    }
    if (recheck && seed == first) {
      auto again = run::RunScenario(s, config);
      EXPECT_EQ(report.value().summary, again.value().summary) << what << " seed " << seed;
    }
    const std::vector<std::string> found = report.value().InvariantNames();
    reproduced = reproduced || (!expect.pass && std::find(found.begin(), found.end(),
                                                          expect.invariant) != found.end());
    for (const std::string& name : report.value().Unexpected(expect)) {
      failures += what + " seed " + std::to_string(seed) + ": unexpected " + name + " (" +
                  report.value().SummaryLine() + ")\n";
    }
  }
  if (!expect.pass && !reproduced) {
    failures += what + ": expected " + expect.invariant + " not reproduced\n";
  }
  return failures;
}

// An entry found by explore (`found_by: explore`): exploring the scenario's first seed with its
// rules, within the state budget of `repartsim mutants`, ends in a counterexample that meets it.
std::string ExploreMissOf(const Scenario& s, const RuleExpectation& r) {
  run::ExploreConfig config;
  config.seed = s.seed_first;
  config.profile = r.profile;
  config.rules = r.rules;
  config.states_max = kFoundByExploreStates;
  auto report = run::ExploreScenario(s, config);
  const std::string what = "explore under " + r.profile + " with " + r.overrides;
  if (!report.ok()) return what + ": " + report.error().Format();
  const auto& counterexample = report.value().counterexample;
  if (!counterexample)
    return what + ": no counterexample in " + std::to_string(kFoundByExploreStates) + " states";
  if (!counterexample->Meets(r.expectation)) {
    return what + ": the counterexample (" + counterexample->SummaryLine() + ") does not meet " +
           r.expectation.ToString();
  }
  return "";
}

TEST_P(BundledScenarioTest, MeetsItsExpectationAndIsDeterministic) {
  auto loaded = LoadScenarioFile(GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
  const Scenario& s = loaded.value();
  ASSERT_TRUE(s.ExpectationFor("reference").has_value()) << "no reference expectation";
  ASSERT_TRUE(s.ExpectationFor("greptime").has_value()) << "no greptime expectation";
  const uint64_t last = std::min(s.seed_last, s.seed_first + kSeedsFast - 1);
  for (const char* profile : {"reference", "greptime"}) {
    const std::string failures = MissesOf(s, profile, profile, {}, *s.ExpectationFor(profile),
                                          s.seed_first, last, /*recheck=*/true);
    EXPECT_TRUE(failures.empty()) << failures;
  }
}

// Every expect.with_rules entry holds too (steps_max capped at 10,000): its runs (the entry's
// `seeds`, else the scenario's first kSeedsFast seeds, under the entry's profile with its rules on
// top) report nothing the entry does not allow, and its expected invariant appears in at least one
// of them. An entry found by explore is checked by exploring (ExploreMissOf).
TEST_P(BundledScenarioTest, MeetsEveryPerRuleExpectation) {
  auto loaded = LoadScenarioFile(GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.error().Format();
  Scenario s = std::move(loaded).value();
  // As `repartsim mutants` does: a switch whose absence makes a procedure loop ends the run
  // with INV-LIVE at 10,000 steps instead of running for hours.
  s.limits.steps_max = std::min<uint64_t>(s.limits.steps_max, 10000);
  for (const RuleExpectation& r : s.rule_expect) {
    if (r.by_explore) {
      EXPECT_EQ(ExploreMissOf(s, r), "");
      continue;
    }
    const auto [first, last] = r.seeds.value_or(
        std::pair{s.seed_first, std::min(s.seed_last, s.seed_first + kSeedsFast - 1)});
    const std::string failures = MissesOf(s, r.profile + " with " + r.overrides, r.profile, r.rules,
                                          r.expectation, first, last, /*recheck=*/false);
    EXPECT_TRUE(failures.empty()) << failures;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, BundledScenarioTest, ::testing::ValuesIn(BundledScenarios()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name =
                               std::filesystem::path(info.param).parent_path().filename().string() +
                               "_" + std::filesystem::path(info.param).stem().string();
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace bundled_scenario_test
}  // namespace
}  // namespace repartsim::scenario
