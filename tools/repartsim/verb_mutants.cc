// `repartsim mutants [SCENARIO|DIR...]`: checks the checker. For every rule switch that is
// on in `reference`, a mutant is `reference` with that one switch off; each mutant searches a
// fixed budget until some run reports a finding, and the mutant is `killed` (found) or
// `survived`. The same budget with every switch on (the `reference` row) must find nothing.
// Budget, in search order (printed on the first line):
//   1. library: every scenario named (default `scenarios`, directories expanded as sweep does)
//      over the first --seeds-per-scenario seeds of its own `seeds` range (or --seeds A..B for
//      all), seed-major (the first seed of every scenario, then the second, ...), each run
//      with its scenario's faults and with steps_max capped at --steps-max (a switch whose
//      absence makes a procedure loop ends there with INV-LIVE instead of running for hours);
//   2. explore: every scenario tagged `explore`, explored (depth-first, explore's default
//      policy) from its first seed up to --explore-states states.
// A run's finding: an invariant the scenario's `reference` expectation does not allow, or a
// READ-ANOMALY (never reported with every switch on: reads are fenced). Each row runs in a
// forked process (--jobs at once), so an internal error (exit 70) of one mutant is that row's
// `error`, not the end of the search. Text: the budget line, one row per mutant, the mutation
// score on the last line; `--json FILE` ('-' = stdout, the text then goes to stderr) the same
// as one object. Progress on stderr, one line per finished row (--quiet: none).
// Exit codes: 0 reference clean and score >= --min-score; 1 reference not clean or score below
// --min-score; 64 bad flags or scenario; 70 a row's process died; 73 the report not written.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/campaign/worker_pool.h"
#include "model/protocol.h"
#include "model/rules.h"
#include "model/run/explore.h"
#include "model/run/runner.h"
#include "model/scenario/loader.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/scenario_paths.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

using Clock = std::chrono::steady_clock;

int64_t MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

struct MutantsArgs {
  std::vector<std::string> scenarios;
  uint64_t seeds_per_scenario = 10;
  std::string seeds;
  uint64_t explore_states = 20000;
  uint64_t steps_max = 10000;
  std::vector<std::string> only;
  std::string min_score;
  std::string json;
  uint32_t jobs = 1;
  bool quiet = false;
  bool every_finding = false;
};

struct Item {
  size_t scenario = 0;
  uint64_t seed = 0;
};

struct Budget {
  std::vector<scenario::Scenario> scenarios;  // limits.steps_max capped
  std::vector<Item> items;                    // the library runs, in search order
  std::vector<size_t> explore;                // scenarios explored, in order
  std::string seeds;                          // "first K of each scenario's range" or "A..B"
  uint64_t seeds_per_scenario = 0;            // 0 with --seeds
  uint64_t steps_max = 0;
  uint64_t explore_states = 0;
  bool every_finding = false;  // --every-finding: the library is not stopped at the first kill

  std::string Describe() const {
    std::string out = "budget: " + std::to_string(scenarios.size()) + " scenarios, " +
                      std::to_string(items.size()) + " runs (" + seeds + ", steps_max " +
                      std::to_string(steps_max) + " per run)";
    if (explore.empty() || explore_states == 0) return out + ", no explore";
    return out + ", explore of " + std::to_string(explore.size()) + " scenarios tagged explore (" +
           std::to_string(explore_states) + " states each)";
  }

  nlohmann::ordered_json ToJson() const {
    nlohmann::ordered_json paths = nlohmann::ordered_json::array();
    for (const scenario::Scenario& s : scenarios) paths.push_back(s.path);
    nlohmann::ordered_json explored = nlohmann::ordered_json::array();
    for (size_t i : explore) explored.push_back(scenarios[i].path);
    return {{"scenarios", paths},     {"seeds", seeds},      {"runs", items.size()},
            {"steps_max", steps_max}, {"explore", explored}, {"explore_states", explore_states},
            {"text", Describe()}};
  }
};

// One row: the reference (rule empty) or one mutant.
struct Row {
  std::string rule;    // "" for the reference row
  std::string result;  // reference: clean | violation; mutant: killed | survived; error
  std::string invariant;
  std::string message;
  std::string stage;  // run | explore
  std::string path;
  std::string scenario;
  uint64_t seed = 0;
  uint64_t violation_step = 0;
  uint64_t explore_runs = 0;  // runs of the explore that found it
  uint64_t runs = 0;          // runs until found (or the whole budget)
  uint64_t steps = 0;         // simulated steps until found (or the whole budget)
  int64_t ms = 0;
  std::string repro;
  std::string annotation;       // the finding scenario's expect.with_rules entry for this switch
  bool annotation_met = false;  // the finding run meets that entry
  std::string error;            // result "error": how the row's process died
  // --every-finding: every scenario of the library with a finding, in budget order.
  struct Finding {
    std::string path;
    std::vector<uint64_t> seeds;
    std::set<std::string> invariants;
    std::string annotation;  // its expect.with_rules entry for the switch, "" when none
    bool met = true;         // every finding run meets that entry
  };
  std::vector<Finding> findings;

  bool Found() const { return result == "killed" || result == "violation"; }
  // A kill by a scenario whose expect.with_rules names this switch and whose run meets it.
  bool Documented() const { return result == "killed" && !annotation.empty() && annotation_met; }

  nlohmann::ordered_json ToJson() const {
    nlohmann::ordered_json j;
    j["switch"] = rule.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(rule);
    j["result"] = result;
    if (Found()) {
      j["invariant"] = invariant;
      j["message"] = message;
      j["stage"] = stage;
      j["path"] = path;
      j["scenario"] = scenario;
      j["seed"] = seed;
      j["violation_step"] = violation_step;
      if (stage == "explore") j["explore_runs"] = explore_runs;
      j["repro"] = repro;
      j["expected_by_scenario"] =
          annotation.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(annotation);
      j["documented"] = Documented();
    }
    if (!error.empty()) j["error"] = error;
    if (!findings.empty()) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const Finding& f : findings) {
        list.push_back(
            {{"path", f.path},
             {"seeds", f.seeds},
             {"invariants", f.invariants},
             {"expected_by_scenario", f.annotation.empty() ? nlohmann::ordered_json()
                                                           : nlohmann::ordered_json(f.annotation)},
             {"documented", !f.annotation.empty() && f.met}});
      }
      j["findings"] = list;
    }
    j["runs"] = runs;
    j["steps"] = steps;
    j["ms"] = ms;
    return j;
  }

  static Row FromJson(const nlohmann::json& j) {
    Row r;
    if (j.at("switch").is_string()) r.rule = j.at("switch").get<std::string>();
    r.result = j.at("result").get<std::string>();
    r.invariant = j.value("invariant", "");
    r.message = j.value("message", "");
    r.stage = j.value("stage", "");
    r.path = j.value("path", "");
    r.scenario = j.value("scenario", "");
    r.seed = j.value("seed", uint64_t{0});
    r.violation_step = j.value("violation_step", uint64_t{0});
    r.explore_runs = j.value("explore_runs", uint64_t{0});
    r.repro = j.value("repro", "");
    if (j.contains("expected_by_scenario") && j.at("expected_by_scenario").is_string()) {
      r.annotation = j.at("expected_by_scenario").get<std::string>();
    }
    r.annotation_met = j.value("documented", false);
    r.error = j.value("error", "");
    if (j.contains("findings")) {
      for (const nlohmann::json& f : j.at("findings")) {
        Finding out;
        out.path = f.at("path").get<std::string>();
        out.seeds = f.at("seeds").get<std::vector<uint64_t>>();
        for (const auto& name : f.at("invariants")) out.invariants.insert(name.get<std::string>());
        if (f.at("expected_by_scenario").is_string()) {
          out.annotation = f.at("expected_by_scenario").get<std::string>();
        }
        out.met = f.at("documented").get<bool>() || out.annotation.empty();
        r.findings.push_back(std::move(out));
      }
    }
    r.runs = j.at("runs").get<uint64_t>();
    r.steps = j.at("steps").get<uint64_t>();
    r.ms = j.at("ms").get<int64_t>();
    return r;
  }
};

// The first violation of `report` that counts as a finding under `expect`, if any.
const check::Violation* FindingOf(const scenario::RunReport& report,
                                  const scenario::Expectation& expect) {
  std::vector<std::string> bad = report.Unexpected(expect);
  for (const check::Violation& v : report.violations) {
    const std::string name(check::InvariantName(v.invariant));
    if (name == "READ-ANOMALY" || std::find(bad.begin(), bad.end(), name) != bad.end()) {
      return &v;
    }
  }
  return nullptr;
}

scenario::Expectation ReferenceExpectation(const scenario::Scenario& s) {
  return s.ExpectationFor("reference").value_or(scenario::Expectation{});
}

// The scenario's expect.with_rules entry for the reference profile with `rule` off alone (on
// top of the scenario's own `rules:`), if any: the scenario documents that it guards `rule`.
const scenario::RuleExpectation* AnnotationFor(const scenario::Scenario& s,
                                               const std::string& rule) {
  if (rule.empty()) return nullptr;
  return s.RuleExpectationFor("reference", s.OverridesFor("reference", {{rule, false}}));
}

// --every-finding: adds the run's unexpected invariants to the row's finding for `s`.
void RecordFinding(Row& row, const scenario::Scenario& s, const std::string& rule, uint64_t seed,
                   const scenario::RunReport& report) {
  if (row.findings.empty() || row.findings.back().path != s.path) {
    auto it = std::find_if(row.findings.begin(), row.findings.end(),
                           [&](const Row::Finding& f) { return f.path == s.path; });
    if (it == row.findings.end()) {
      Row::Finding f;
      f.path = s.path;
      if (const scenario::RuleExpectation* r = AnnotationFor(s, rule)) {
        f.annotation = r->expectation.ToString();
      }
      row.findings.push_back(std::move(f));
    } else {
      std::rotate(it, it + 1, row.findings.end());
    }
  }
  Row::Finding& f = row.findings.back();
  f.seeds.push_back(seed);
  for (const std::string& name : report.Unexpected(ReferenceExpectation(s)))
    f.invariants.insert(name);
  for (const check::Violation& v : report.violations) {
    if (std::string(check::InvariantName(v.invariant)) == "READ-ANOMALY") {
      f.invariants.insert("READ-ANOMALY");
    }
  }
  if (const scenario::RuleExpectation* r = AnnotationFor(s, rule)) {
    f.met = f.met && report.Meets(r->expectation);
  }
}

// Searches the budget with every switch on (`rule` empty) or with `rule` off. The library runs
// of scenarios whose expect.with_rules names the mutant go first (in budget order), then the
// rest; every run is judged by its scenario's plain reference expectation.
Row Search(const Budget& budget, const std::string& rule) {
  const Clock::time_point start = Clock::now();
  Row row;
  row.rule = rule;
  std::vector<std::pair<std::string, bool>> rules;
  if (!rule.empty()) rules.push_back({rule, false});
  auto found = [&](const scenario::Scenario& s, const check::Violation& v,
                   const scenario::RunReport& report) {
    row.result = rule.empty() ? "violation" : "killed";
    row.invariant = std::string(check::InvariantName(v.invariant));
    row.message = v.message;
    row.path = s.path;
    row.scenario = s.name;
    row.violation_step = v.step;
    if (const scenario::RuleExpectation* r = AnnotationFor(s, rule)) {
      row.annotation = r->expectation.ToString();
      row.annotation_met = report.Meets(r->expectation);
    }
  };
  std::vector<Item> order;
  for (const Item& item : budget.items) {
    if (AnnotationFor(budget.scenarios[item.scenario], rule) != nullptr) order.push_back(item);
  }
  for (const Item& item : budget.items) {
    if (AnnotationFor(budget.scenarios[item.scenario], rule) == nullptr) order.push_back(item);
  }
  for (const Item& item : order) {
    const scenario::Scenario& s = budget.scenarios[item.scenario];
    scenario::RunConfig config;
    config.seed = item.seed;
    config.profile = "reference";
    config.rules = rules;
    auto report = scenario::RunScenario(s, config);  // overrides validated before
    ++row.runs;
    row.steps += report.value().summary.steps;
    if (const check::Violation* v = FindingOf(report.value(), ReferenceExpectation(s))) {
      if (budget.every_finding) {
        RecordFinding(row, s, rule, item.seed, report.value());
        if (row.Found()) continue;
      }
      found(s, *v, report.value());
      row.stage = "run";
      row.seed = item.seed;
      row.repro = RunReproCommand(s.path, item.seed, "reference", rules);
      row.ms = MsSince(start);
      if (budget.every_finding) continue;
      return row;
    }
  }
  if (row.Found()) {
    row.ms = MsSince(start);
    return row;
  }
  for (size_t index : budget.explore) {
    if (budget.explore_states == 0) break;
    const scenario::Scenario& s = budget.scenarios[index];
    scenario::ExploreConfig config;
    config.seed = s.seed_first;
    config.profile = "reference";
    config.rules = rules;
    config.states_max = budget.explore_states;
    auto report = scenario::ExploreScenario(s, config);
    row.runs += report.value().stats.runs;
    row.steps += report.value().steps;
    const auto& counterexample = report.value().counterexample;
    if (!counterexample) continue;
    const check::Violation* v = FindingOf(*counterexample, ReferenceExpectation(s));
    if (v == nullptr) continue;
    found(s, *v, *counterexample);
    row.stage = "explore";
    row.seed = s.seed_first;
    row.explore_runs = report.value().stats.runs;
    row.repro = "repartsim explore " + s.path + " --seed " + std::to_string(s.seed_first) +
                " --profile reference" + (rule.empty() ? "" : " --rule " + rule + "=off") +
                " --max-states " + std::to_string(budget.explore_states);
    row.ms = MsSince(start);
    return row;
  }
  row.result = rule.empty() ? "clean" : "survived";
  row.ms = MsSince(start);
  return row;
}

std::string Seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f s", static_cast<double>(ms) / 1000.0);
  return buf;
}

std::string FoundBy(const Row& row) {
  if (!row.error.empty()) return row.error;
  if (!row.Found()) return "-";
  if (row.stage == "explore") {
    return "explore " + row.path + " (run " + std::to_string(row.explore_runs) + ")";
  }
  return row.path + " seed " + std::to_string(row.seed);
}

void Progress(bool quiet, size_t done, size_t total, const Row& row) {
  if (quiet) return;
  std::fprintf(stderr, "mutants: %zu/%zu %s: %s%s%s, %llu runs, %s\n", done, total,
               row.rule.empty() ? "reference (all on)" : row.rule.c_str(), row.result.c_str(),
               row.Found() ? " " : "",
               row.Found() ? (row.invariant + " by " + FoundBy(row)).c_str() : "",
               static_cast<unsigned long long>(row.runs), Seconds(row.ms).c_str());
}

// Runs Search for every rule of `rules` ("" = reference) in forked processes, at most `jobs`
// at once; rows come back in `rules` order.
std::vector<Row> RunRows(const Budget& budget, const std::vector<std::string>& rules, uint32_t jobs,
                         bool quiet) {
  std::vector<Row> rows(rules.size());
  size_t done = 0;
  campaign::PoolTasks tasks;
  tasks.count = rules.size();
  tasks.run = [&](size_t i, uint32_t) { return Search(budget, rules[i]).ToJson().dump(); };
  tasks.on_result = [&](size_t i, std::string line) {
    rows[i] = Row::FromJson(nlohmann::json::parse(line));
    Progress(quiet, ++done, rules.size(), rows[i]);
  };
  const campaign::PoolOutcome pool =
      campaign::RunPool(tasks, jobs, campaign::Assignment::kOnePerProcess);
  for (const campaign::WorkerDeath& death : pool.deaths) {
    for (size_t i : death.unreported) {
      rows[i].rule = rules[i];
      rows[i].result = "error";
      rows[i].error = "process died: " + campaign::DescribeWaitStatus(death.status);
      Progress(quiet, ++done, rules.size(), rows[i]);
    }
  }
  return rows;
}

void PrintTable(std::FILE* out, const Budget& budget, const std::vector<Row>& rows,
                const std::string& score_line) {
  std::fprintf(out, "%s\n", budget.Describe().c_str());
  std::fprintf(out, "%-30s %-9s %-13s %-60s %7s %10s %8s\n", "switch", "result", "invariant",
               "found by", "runs", "steps", "time");
  for (const Row& row : rows) {
    std::fprintf(out, "%-30s %-9s %-13s %-60s %7llu %10llu %8s\n",
                 row.rule.empty() ? "(reference: all on)" : row.rule.c_str(), row.result.c_str(),
                 row.Found() ? row.invariant.c_str() : "-", FoundBy(row).c_str(),
                 static_cast<unsigned long long>(row.runs),
                 static_cast<unsigned long long>(row.steps), Seconds(row.ms).c_str());
  }
  const Row& reference = rows.front();
  if (reference.result != "clean") {
    std::fprintf(out, "reference is NOT clean: %s%s\n",
                 reference.Found() ? (reference.invariant + " by " + FoundBy(reference) + ": " +
                                      reference.message + " (repro: " + reference.repro + ")")
                                         .c_str()
                                   : reference.error.c_str(),
                 "");
  }
  for (const Row& row : rows) {
    if (row.rule.empty() || !row.Found()) continue;
    std::string guard = "not named in the scenario's expect.with_rules";
    if (!row.annotation.empty()) {
      guard = (row.annotation_met ? "documented: expect.with_rules says "
                                  : "NOT as documented: expect.with_rules says ") +
              row.annotation;
    }
    std::fprintf(out, "  %s: %s (repro: %s); %s\n", row.rule.c_str(), row.message.c_str(),
                 row.repro.c_str(), guard.c_str());
  }
  for (const Row& row : rows) {
    for (const Row::Finding& f : row.findings) {
      std::string seeds;
      for (uint64_t seed : f.seeds) seeds += (seeds.empty() ? "" : ",") + std::to_string(seed);
      std::string names;
      for (const std::string& n : f.invariants) names += (names.empty() ? "" : ",") + n;
      std::fprintf(out, "  finding %s: %s %s seeds %s; %s\n",
                   row.rule.empty() ? "(reference)" : row.rule.c_str(), f.path.c_str(),
                   names.c_str(), seeds.c_str(),
                   f.annotation.empty() ? "undocumented"
                   : f.met              ? ("documented (" + f.annotation + ")").c_str()
                                        : ("NOT as documented (" + f.annotation + ")").c_str());
    }
  }
  std::fprintf(out, "%s\n", score_line.c_str());
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

int Mutants(const MutantsArgs& a) {
  const Clock::time_point start = Clock::now();
  const std::vector<std::string> args = CommandLineArgs();
  double min_score = 0;
  if (!a.min_score.empty()) {
    auto score = ParseScore(a.min_score, args);
    if (!score.ok()) return ReportInputError(score.error());
    min_score = score.value();
  }
  if (a.steps_max == 0) {
    return ReportInputError({{"<command line>", 1, ArgumentColumn(args, "--steps-max")},
                             "--steps-max must be at least 1"});
  }
  std::optional<std::pair<uint64_t, uint64_t>> range;
  if (!a.seeds.empty()) {
    auto r = ParseRange(a.seeds, args);
    if (!r.ok()) return ReportInputError(r.error());
    range = r.value();
  } else if (a.seeds_per_scenario == 0) {
    return ReportInputError({{"<command line>", 1, ArgumentColumn(args, "--seeds-per-scenario")},
                             "--seeds-per-scenario must be at least 1"});
  }
  std::vector<std::string> mutated;
  for (const model::RuleInfo& info : model::AllRules()) {
    if (info.reference) mutated.push_back(info.name);
  }
  if (!a.only.empty()) {
    std::vector<std::string> picked;
    for (const std::string& name : a.only) {
      if (std::find(mutated.begin(), mutated.end(), name) == mutated.end()) {
        return ReportInputError(
            {{"<command line>", 1, ArgumentColumn(args, name)},
             "--only: '" + name +
                 "' is not a switch that is on in reference (see 'repartsim rules')"});
      }
      if (std::find(picked.begin(), picked.end(), name) == picked.end()) picked.push_back(name);
    }
    mutated = picked;
  }
  if (!a.json.empty()) {
    sim::Status st = CheckOutputPath(a.json, args);
    if (!st.ok()) return ReportInputError(st.error());
  }
  const std::vector<std::string> named =
      a.scenarios.empty() ? std::vector<std::string>{"scenarios"} : a.scenarios;
  auto paths = ExpandScenarioPaths(named, args);
  if (!paths.ok()) return ReportInputError(paths.error());

  Budget budget;
  budget.steps_max = a.steps_max;
  budget.explore_states = a.explore_states;
  budget.every_finding = a.every_finding;
  budget.seeds_per_scenario = range ? 0 : a.seeds_per_scenario;
  budget.seeds = range ? "seeds " + a.seeds + " of every scenario"
                       : "the first " + std::to_string(a.seeds_per_scenario) +
                             " seeds of each scenario's range";
  std::set<std::string> seen;
  for (const std::string& path : paths.value()) {
    if (!seen.insert(path).second) continue;
    auto s = scenario::LoadScenarioFile(path);
    if (!s.ok()) return ReportInputError(s.error());
    scenario::Scenario loaded = std::move(s).value();
    loaded.limits.steps_max = std::min(loaded.limits.steps_max, a.steps_max);
    if (std::find(loaded.tags.begin(), loaded.tags.end(), "explore") != loaded.tags.end()) {
      budget.explore.push_back(budget.scenarios.size());
    }
    budget.scenarios.push_back(std::move(loaded));
  }
  // Seed-major: the k-th seed of every scenario before the (k+1)-th of any.
  for (uint64_t k = 0;; ++k) {
    bool any = false;
    for (size_t i = 0; i < budget.scenarios.size(); ++i) {
      const scenario::Scenario& s = budget.scenarios[i];
      const uint64_t first = range ? range->first : s.seed_first;
      const uint64_t last = range ? range->second : s.seed_last;
      if (!range && k >= a.seeds_per_scenario) continue;
      if (k > last - first) continue;
      budget.items.push_back({i, first + k});
      any = true;
    }
    if (!any) break;
  }

  std::vector<std::string> rules = {""};
  rules.insert(rules.end(), mutated.begin(), mutated.end());
  if (!a.quiet) {
    std::fprintf(stderr, "mutants: %s; %zu mutants and the reference, %u at once\n",
                 budget.Describe().c_str(), mutated.size(), a.jobs);
  }
  std::vector<Row> rows = RunRows(budget, rules, a.jobs, a.quiet);

  size_t killed = 0;
  size_t documented = 0;
  bool died = false;
  for (const Row& row : rows) {
    killed += row.result == "killed";
    documented += row.Documented();
    died = died || row.result == "error";
  }
  const size_t total = mutated.size();
  const double percent =
      total == 0 ? 100.0 : 100.0 * static_cast<double>(killed) / static_cast<double>(total);
  char score_line[200];
  std::snprintf(score_line, sizeof(score_line),
                "mutation score: %zu/%zu killed (%.1f%%), %zu documented by the killing "
                "scenario's expect.with_rules%s",
                killed, total, percent, documented,
                rows.front().result == "clean" ? "" : "; reference NOT clean");
  const bool below = !a.min_score.empty() && percent + 1e-9 < min_score;
  int verdict = kExitPass;
  if (rows.front().result != "clean" || below) verdict = kExitSafety;
  if (died) verdict = kExitInternal;

  std::FILE* text_out = a.json == "-" ? stderr : stdout;
  PrintTable(text_out, budget, rows, score_line);
  if (!a.quiet) {
    std::fprintf(stderr, "mutants: %s in %s%s\n", score_line, Seconds(MsSince(start)).c_str(),
                 below ? (" (below --min-score " + a.min_score + ")").c_str() : "");
  }
  if (a.json.empty()) return verdict;
  auto [version, binary] = BinaryIdentity();
  nlohmann::ordered_json out;
  out["version"] = version;
  out["binary"] = binary;
  out["budget"] = budget.ToJson();
  out["reference"] = rows.front().ToJson();
  nlohmann::ordered_json mutants = nlohmann::ordered_json::array();
  for (size_t i = 1; i < rows.size(); ++i) mutants.push_back(rows[i].ToJson());
  out["mutants"] = mutants;
  out["score"] = {
      {"killed", killed}, {"total", total}, {"percent", percent}, {"documented", documented}};
  out["min_score"] =
      a.min_score.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(min_score);
  out["wall_ms"] = MsSince(start);
  out["exit_code"] = verdict;
  sim::Status st = WriteTextFile(a.json, out.dump(1) + "\n");
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
                  "Runs the first N seeds of each scenario's `seeds` range (default 10)");
  sub->add_option("--seeds", a->seeds, "Seed range A..B for every scenario instead");
  sub->add_option("--explore-states", a->explore_states,
                  "States explored per scenario tagged explore (default 20000; 0: no explore)");
  sub->add_option("--steps-max", a->steps_max, "Caps each run's limits.steps_max (default 10000)");
  sub->add_option("--only", a->only, "Mutate only this switch (repeatable)");
  sub->add_option("--min-score", a->min_score,
                  "Exit 1 when fewer than this percentage of the mutants are killed");
  sub->add_option("--json", a->json, "Write the JSON report to FILE ('-' = stdout)");
  sub->add_option("--jobs,-j", a->jobs, "Mutants searched at once, each in its own process")
      ->check(CLI::Range(1, 256));
  sub->add_flag("--quiet,-q", a->quiet, "No progress lines on stderr");
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
