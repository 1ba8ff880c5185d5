#include "checker/campaign/mutation_search.h"

#include <algorithm>

#include "checker/campaign/worker_pool.h"
#include "checker/check/violation.h"
#include "checker/run/explore.h"
#include "checker/scenario/swarm_shape.h"
#include "sim/assert.h"
#include "sim/json_text.h"

namespace repartsim::campaign {

namespace {

// The first violation of `report` that counts as a finding under `expect`, if any.
const check::Violation* FindingOf(const run::RunReport& report,
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
void RecordFinding(MutantRow& row, const scenario::Scenario& s, const std::string& rule,
                   uint64_t seed, const run::RunReport& report) {
  if (row.findings.empty() || row.findings.back().path != s.path) {
    auto it = std::find_if(row.findings.begin(), row.findings.end(),
                           [&](const MutantRow::Finding& f) { return f.path == s.path; });
    if (it == row.findings.end()) {
      MutantRow::Finding f;
      f.path = s.path;
      if (const scenario::RuleExpectation* r = AnnotationFor(s, rule)) {
        f.annotation = r->expectation.ToString();
      }
      row.findings.push_back(std::move(f));
    } else {
      std::rotate(it, it + 1, row.findings.end());
    }
  }
  MutantRow::Finding& f = row.findings.back();
  f.seeds.push_back(seed);
  for (const std::string& name : report.Unexpected(ReferenceExpectation(s)))
    f.invariants.insert(name);
  for (const check::Violation& v : report.violations) {
    if (std::string(check::InvariantName(v.invariant)) == "READ-ANOMALY") {
      f.invariants.insert("READ-ANOMALY");
    }
  }
  if (const scenario::RuleExpectation* r = AnnotationFor(s, rule)) {
    f.allowed = f.allowed && report.outcome != run::Outcome::kNondeterminism &&
                report.Unexpected(r->expectation).empty();
    f.reproduced = f.reproduced || report.Meets(r->expectation);
  }
}

}  // namespace

std::string Budget::Describe() const {
  std::string out = std::string(swarm_only ? "swarm-only " : "") +
                    "budget: " + std::to_string(scenarios.size()) + " scenarios, " +
                    std::to_string(items.size()) + " runs (" + seeds + ", steps_max " +
                    std::to_string(steps_max) + " per run)";
  if (explore.empty() || explore_states == 0) return out + ", no explore";
  return out + ", explore of " + std::to_string(explore.size()) + " scenarios tagged explore (" +
         std::to_string(explore_states) + " states each)";
}

nlohmann::ordered_json Budget::ToJson() const {
  nlohmann::ordered_json paths = nlohmann::ordered_json::array();
  for (const scenario::Scenario& s : scenarios) paths.push_back(s.path);
  nlohmann::ordered_json explored = nlohmann::ordered_json::array();
  for (size_t i : explore) explored.push_back(scenarios[i].path);
  return {{"scenarios", paths},     {"seeds", seeds},      {"runs", items.size()},
          {"steps_max", steps_max}, {"explore", explored}, {"explore_states", explore_states},
          {"text", Describe()}};
}

nlohmann::ordered_json MutantRow::ToJson() const {
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
  if (shapes) j["features_not_drawn"] = features_not_drawn;
  if (!findings.empty()) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Finding& f : findings) {
      list.push_back(
          {{"path", f.path},
           {"seeds", f.seeds},
           {"invariants", f.invariants},
           {"expected_by_scenario",
            f.annotation.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.annotation)},
           {"documented", !f.annotation.empty() && f.Met()}});
    }
    j["findings"] = list;
  }
  j["runs"] = runs;
  j["capped"] = capped;
  j["steps"] = steps;
  j["ms"] = ms;
  return j;
}

MutantRow MutantRow::FromJson(const nlohmann::json& j) {
  MutantRow r;
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
  r.shapes = j.contains("features_not_drawn");
  if (r.shapes) r.features_not_drawn = j.at("features_not_drawn").get<std::vector<std::string>>();
  if (j.contains("findings")) {
    for (const nlohmann::json& f : j.at("findings")) {
      Finding out;
      out.path = f.at("path").get<std::string>();
      out.seeds = f.at("seeds").get<std::vector<uint64_t>>();
      for (const auto& name : f.at("invariants")) out.invariants.insert(name.get<std::string>());
      if (f.at("expected_by_scenario").is_string()) {
        out.annotation = f.at("expected_by_scenario").get<std::string>();
      }
      out.allowed = out.reproduced = f.at("documented").get<bool>() || out.annotation.empty();
      r.findings.push_back(std::move(out));
    }
  }
  r.runs = j.at("runs").get<uint64_t>();
  r.steps = j.at("steps").get<uint64_t>();
  r.capped = j.value("capped", uint64_t{0});
  r.ms = j.at("ms").get<int64_t>();
  return r;
}

bool PlanItems(Budget& budget, const std::optional<std::pair<uint64_t, uint64_t>>& range,
               uint64_t per_scenario) {
  REPARTSIM_ASSERT(range.has_value() || per_scenario > 0);
  budget.items.clear();
  uint64_t total = 0;  // counted first: a range may hold 2^64 seeds
  for (const scenario::Scenario& s : budget.scenarios) {
    const uint64_t span = range ? range->second - range->first : s.seed_last - s.seed_first;
    const uint64_t count = span == UINT64_MAX ? UINT64_MAX : span + 1;
    total += std::min(range ? count : std::min(count, per_scenario), kMutantRunsMax + 1);
    if (total > kMutantRunsMax) return false;
  }
  for (uint64_t k = 0;; ++k) {
    bool any = false;
    for (size_t i = 0; i < budget.scenarios.size(); ++i) {
      const scenario::Scenario& s = budget.scenarios[i];
      const uint64_t first = range ? range->first : s.seed_first;
      const uint64_t last = range ? range->second : s.seed_last;
      if (!range && k >= per_scenario) continue;
      if (k > last - first) continue;
      budget.items.push_back({i, first + k});
      any = true;
    }
    if (!any) break;
  }
  REPARTSIM_ASSERT(budget.items.size() == total);
  return true;
}

namespace {

// Fills `row` with the finding `v` of scenario `s`'s run `report`, and with the scenario's
// expect.with_rules entry for `rule` and whether the run meets it.
void MarkFound(MutantRow& row, const scenario::Scenario& s, const std::string& rule,
               const check::Violation& v, const run::RunReport& report) {
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
}

// The library runs of Search, `rules` applied: those of scenarios whose expect.with_rules names
// `rule` first (in budget order), then the rest. Stops at the first finding unless
// budget.every_finding.
void SearchRuns(const Budget& budget, const std::string& rule,
                const std::vector<std::pair<std::string, bool>>& rules, MutantRow& row,
                std::set<std::string>& drawn) {
  std::vector<BudgetItem> order;
  for (const BudgetItem& item : budget.items) {
    if (AnnotationFor(budget.scenarios[item.scenario], rule) != nullptr) order.push_back(item);
  }
  for (const BudgetItem& item : budget.items) {
    if (AnnotationFor(budget.scenarios[item.scenario], rule) == nullptr) order.push_back(item);
  }
  REPARTSIM_ASSERT(order.size() == budget.items.size());
  for (const BudgetItem& item : order) {
    const scenario::Scenario& s = budget.scenarios[item.scenario];
    run::RunConfig config;
    config.seed = item.seed;
    config.profile = "reference";
    config.rules = rules;
    auto report = run::RunScenario(s, config);  // overrides validated before
    ++row.runs;
    row.steps += report.value().summary.steps;
    row.capped += report.value().outcome == run::Outcome::kCapped;
    for (const auto& [name, value] : report.value().shape) drawn.insert(name + "=" + value);
    if (const check::Violation* v = FindingOf(report.value(), ReferenceExpectation(s))) {
      if (budget.every_finding) {
        RecordFinding(row, s, rule, item.seed, report.value());
        if (row.Found()) continue;
      }
      MarkFound(row, s, rule, *v, report.value());
      row.stage = "run";
      row.seed = item.seed;
      row.repro = RunReproCommand(s.path, item.seed, "reference", rules);
      if (!budget.every_finding) return;
    }
  }
}

// The explore stage of Search: explores the budget's explore scenarios in turn until one
// ends in a counterexample its reference expectation does not allow.
void SearchExplore(const Budget& budget, const std::string& rule,
                   const std::vector<std::pair<std::string, bool>>& rules, MutantRow& row) {
  REPARTSIM_ASSERT(!row.Found());
  for (size_t index : budget.explore) {
    if (budget.explore_states == 0) break;
    const scenario::Scenario& s = budget.scenarios[index];
    run::ExploreConfig config;
    config.seed = s.seed_first;
    config.profile = "reference";
    config.rules = rules;
    config.states_max = budget.explore_states;
    auto report = run::ExploreScenario(s, config);
    row.runs += report.value().stats.runs;
    row.steps += report.value().steps;
    const auto& counterexample = report.value().counterexample;
    if (!counterexample) continue;
    const check::Violation* v = FindingOf(*counterexample, ReferenceExpectation(s));
    if (v == nullptr) continue;
    MarkFound(row, s, rule, *v, *counterexample);
    row.stage = "explore";
    row.seed = s.seed_first;
    row.explore_runs = report.value().stats.runs;
    std::vector<std::string> words = {
        "explore", s.path, "--seed", std::to_string(s.seed_first), "--profile", "reference"};
    if (!rule.empty()) words.insert(words.end(), {"--rule", rule + "=off"});
    words.insert(words.end(), {"--max-states", std::to_string(budget.explore_states)});
    row.repro = ShellCommand(words);
    return;
  }
}

}  // namespace

// Searches the budget with every switch on (`rule` empty) or with `rule` off: the library runs
// (SearchRuns), then, when they find nothing, explore (SearchExplore); every run is judged by
// its scenario's plain reference expectation.
MutantRow Search(const Budget& budget, const std::string& rule) {
  const int64_t start = budget.NowMs();
  MutantRow row;
  row.rule = rule;
  std::vector<std::pair<std::string, bool>> rules;
  if (!rule.empty()) rules.push_back({rule, false});
  std::set<std::string> drawn;
  SearchRuns(budget, rule, rules, row, drawn);
  if (!row.Found()) SearchExplore(budget, rule, rules, row);
  if (!row.Found()) {
    row.result = rule.empty() ? "clean" : "survived";
    row.shapes = !drawn.empty();
    if (row.shapes) {
      for (const auto& [name, values] : scenario::SwarmFeatureValues()) {
        for (const std::string& value : values) {
          if (!drawn.count(name + "=" + value))
            row.features_not_drawn.push_back(name + "=" + value);
        }
      }
    }
  }
  row.ms = budget.NowMs() - start;
  return row;
}

std::vector<MutantRow> SearchAll(
    const Budget& budget, const std::vector<std::string>& rules, uint32_t jobs,
    const std::function<void(size_t done, size_t total, const MutantRow& row)>& progress) {
  std::vector<MutantRow> rows(rules.size());
  size_t done = 0;
  auto report = [&](size_t i) {
    ++done;
    if (progress) progress(done, rules.size(), rows[i]);
  };
  PoolTasks tasks;
  tasks.count = rules.size();
  tasks.run = [&](size_t i, uint32_t) { return sim::JsonText(Search(budget, rules[i]).ToJson()); };
  tasks.on_result = [&](size_t i, std::string line) {
    rows[i] = MutantRow::FromJson(nlohmann::json::parse(line));
    report(i);
  };
  const PoolOutcome pool = RunPool(tasks, jobs, Assignment::kOnePerProcess);
  for (const WorkerDeath& death : pool.deaths) {
    for (size_t i : death.unreported) {
      rows[i].rule = rules[i];
      rows[i].result = "error";
      rows[i].error = "process died: " + DescribeWaitStatus(death.status);
      report(i);
    }
  }
  REPARTSIM_ASSERT(rows.size() == rules.size());
  if (!rules.empty() && rules.front().empty()) {
    for (size_t i = 1; i < rows.size(); ++i) {
      if (rows[i].result == "survived" && rows[i].capped > rows.front().capped) {
        rows[i].result = "capped";
      }
    }
  }
  return rows;
}

}  // namespace repartsim::campaign
