// `repartsim mutants [SCENARIO|DIR...]`: checks the checker. The search, its budget and its
// findings are checker/campaign/mutation_search.h; the score, table and JSON mutation_report.h.
// Here: the flags, the budget from the named scenarios (default `scenarios`), progress on
// stderr (one line per finished row), the table on stdout (stderr with `--json -`).
// Exit codes: 0 reference clean and score >= --min-score; 1 reference not clean or score below
// --min-score; 64 bad flags or scenario; 70 a row's process died; 73 the report not written.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/campaign/mutation_report.h"
#include "checker/campaign/mutation_search.h"
#include "checker/scenario/loader.h"
#include "checker/scenario/scenario_limits.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/scenario_paths.h"
#include "tools/repartsim/stopwatch.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct MutantsArgs {
  std::vector<std::string> scenarios;
  uint64_t seeds_per_scenario = 10;
  std::string seeds;
  uint64_t explore_states = scenario::kFoundByExploreStates;
  uint64_t steps_max = 10000;
  std::vector<std::string> only;
  std::string min_score;
  std::string json;
  uint32_t jobs = 1;
  bool quiet = false;
  bool every_finding = false;
  bool swarm = false;
};

std::string Seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f s", static_cast<double>(ms) / 1000.0);
  return buf;
}

void Progress(bool quiet, size_t done, size_t total, const campaign::MutantRow& row) {
  if (quiet) return;
  std::fprintf(stderr, "mutants: %zu/%zu %s: %s%s%s, %llu runs, %s\n", done, total,
               row.rule.empty() ? "reference (all on)" : row.rule.c_str(), row.result.c_str(),
               row.Found() ? " " : "",
               row.Found() ? (row.invariant + " by " + campaign::FoundBy(row)).c_str() : "",
               static_cast<unsigned long long>(row.runs), Seconds(row.ms).c_str());
}

sim::Result<double> ParseScore(const std::string& text, const std::vector<std::string>& args) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > 100) {
    return sim::Error{{"<command line>", 1, ArgumentColumn(args, text)},
                      "--min-score expects a percentage from 0 to 100, got '" + text + "'"};
  }
  return value;
}

// The budget from the flags and the scenarios (located errors for bad flags or files).
sim::Result<campaign::Budget> MakeBudget(const MutantsArgs& a,
                                         const std::vector<std::string>& args) {
  std::optional<std::pair<uint64_t, uint64_t>> range;
  if (!a.seeds.empty()) {
    auto r = ParseRange(a.seeds, args);
    if (!r.ok()) return r.error();
    range = r.value();
  }
  const std::vector<std::string> named =
      a.scenarios.empty() ? std::vector<std::string>{"scenarios"} : a.scenarios;
  auto paths = ExpandScenarioPaths(named, args);
  if (!paths.ok()) return paths.error();
  campaign::Budget budget;
  budget.steps_max = a.steps_max;
  budget.explore_states = a.swarm ? 0 : a.explore_states;
  budget.swarm_only = a.swarm;
  budget.every_finding = a.every_finding;
  budget.seeds_per_scenario = range ? 0 : a.seeds_per_scenario;
  budget.seeds = range ? "seeds " + a.seeds + " of every scenario"
                       : "the first " + std::to_string(a.seeds_per_scenario) +
                             " seeds of each scenario's range";
  std::set<std::string> seen;
  for (const std::string& path : paths.value()) {
    if (!seen.insert(path).second) continue;
    auto s = scenario::LoadScenarioFile(path);
    if (!s.ok()) return s.error();
    const std::vector<std::string>& tags = s.value().tags;
    if (a.swarm && std::find(tags.begin(), tags.end(), "random") == tags.end()) continue;
    campaign::AddToBudget(budget, std::move(s).value());
  }
  if (budget.scenarios.empty()) {
    return sim::Error{{"<command line>", 1, ArgumentColumn(args, "--swarm")},
                      "--swarm: none of the scenarios named is tagged random"};
  }
  if (!campaign::PlanItems(budget, range, a.seeds_per_scenario)) {
    return sim::Error{{"<command line>", 1, ArgumentColumn(args, range ? a.seeds : "--seeds")},
                      "a budget of more than " + std::to_string(campaign::kMutantRunsMax) +
                          " runs per mutant; give a smaller --seeds range"};
  }
  return budget;
}

int Mutants(const MutantsArgs& a) {
  const Stopwatch clock;
  const std::vector<std::string> args = CommandLineArgs();
  std::optional<double> min_score;
  if (!a.min_score.empty()) {
    auto score = ParseScore(a.min_score, args);
    if (!score.ok()) return ReportInputError(score.error());
    min_score = score.value();
  }
  std::string bad;
  const std::optional<std::vector<std::string>> mutated = campaign::MutatedSwitches(a.only, &bad);
  if (!mutated) {
    return ReportInputError({{"<command line>", 1, ArgumentColumn(args, bad)},
                             "--only: '" + bad +
                                 "' is not a switch that is on in reference (see '" +
                                 campaign::CommandName() + " rules')"});
  }
  auto made = MakeBudget(a, args);
  if (!made.ok()) return ReportInputError(made.error());
  campaign::Budget& budget = made.value();
  if (!a.json.empty()) {
    std::vector<std::string> inputs;
    for (const scenario::Scenario& s : budget.scenarios) inputs.push_back(s.path);
    sim::Status st = CheckOutputPath("--json", a.json, args, inputs);
    if (!st.ok()) return ReportInputError(st.error());
  }
  budget.now_ms = [&clock] { return clock.Ms(); };
  std::vector<std::string> rules = {""};
  rules.insert(rules.end(), mutated->begin(), mutated->end());
  if (!a.quiet) {
    std::fprintf(stderr, "mutants: %s; %zu mutants and the reference, %u at once\n",
                 budget.Describe().c_str(), mutated->size(), a.jobs);
  }
  const std::vector<campaign::MutantRow> rows = campaign::SearchAll(
      budget, rules, a.jobs, [&](size_t done, size_t total, const campaign::MutantRow& row) {
        Progress(a.quiet, done, total, row);
      });
  const campaign::MutationScore score = campaign::Score(rows);
  const int verdict = score.ExitCode(min_score);
  const std::string text = campaign::MutantsText(budget, rows);
  std::fputs(text.c_str(), a.json == "-" ? stderr : stdout);
  if (!a.quiet) {
    std::fprintf(
        stderr, "mutants: %s in %s%s\n", score.Line().c_str(), Seconds(clock.Ms()).c_str(),
        score.Below(min_score) ? (" (below --min-score " + a.min_score + ")").c_str() : "");
  }
  if (a.json.empty()) return verdict;
  auto [version, binary] = BinaryIdentity();
  const nlohmann::ordered_json out =
      campaign::MutantsJson(version, binary, budget, rows, min_score, verdict, clock.Ms());
  sim::Status st = WriteTextFile(a.json, sim::JsonText(out, 1) + "\n");
  if (!st.ok()) return ReportWriteError(st.error(), verdict);
  return verdict;
}

}  // namespace

void AddMutantsVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<MutantsArgs>();
  CLI::App* sub = app.add_subcommand(
      "mutants",
      "Turn each reference switch off alone and search a fixed budget for a finding; "
      "print the mutation score");
  sub->add_option("scenarios", a->scenarios,
                  "Scenario YAML files or directories (default: scenarios)");
  sub->add_option("--seeds-per-scenario", a->seeds_per_scenario,
                  "Runs the first N seeds of each scenario's `seeds` range (default 10)")
      ->check(IntegerIn(1, campaign::kMutantRunsMax));
  sub->add_option("--seeds", a->seeds, "Seed range A..B for every scenario instead");
  sub->add_option("--explore-states", a->explore_states,
                  "States explored per scenario tagged explore (default " +
                      std::to_string(scenario::kFoundByExploreStates) + "; 0: no explore)")
      ->check(IntegerIn(0, UINT64_MAX));
  sub->add_option("--steps-max", a->steps_max, "Caps each run's limits.steps_max (default 10000)")
      ->check(IntegerIn(1, scenario::kRunStepsMax));
  sub->add_option("--only", a->only, "Mutate only this switch (repeatable)");
  sub->add_option("--min-score", a->min_score,
                  "Exit 1 when fewer than this percentage of the mutants are killed");
  sub->add_option("--json", a->json, "Write the JSON report to FILE ('-' = stdout)");
  sub->add_option("--jobs,-j", a->jobs, "Mutants searched at once, each in its own process")
      ->check(IntegerIn(1, 256));
  sub->add_flag("--quiet,-q", a->quiet, "No progress lines on stderr");
  sub->add_flag("--swarm", a->swarm,
                "Swarm-only score: only the scenarios tagged random (the seeded swarm), no "
                "explore; each survivor lists the shape features no run drew");
  sub->add_flag("--every-finding", a->every_finding,
                "Search the whole library for every mutant and list every scenario with a "
                "finding (and whether its expect.with_rules documents it)");
  sub->footer(
      "A finding is an invariant the scenario's reference expectation does not allow, or a\n"
      "READ-ANOMALY. Exit codes: 0 reference clean and score >= --min-score, 1 reference not\n"
      "clean or score below --min-score, 64 bad input, 70 a mutant's process died, 73 the\n"
      "report could not be written.");
  sub->callback([a, exit_code] { *exit_code = Mutants(*a); });
}

}  // namespace repartsim::tools
