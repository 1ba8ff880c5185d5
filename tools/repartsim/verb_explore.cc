// `repartsim explore SCENARIO`: bounded exhaustive search over the scenario's decisions
// (model/run/explore.h). Prints a progress line on stderr at most once per second, then
// the report: runs, states, unique states, branch depth, states/s, exhausted or not, crash
// point coverage. On a violation it writes the counterexample twice: as a choice file that
// `repartsim replay SCENARIO --choices FILE` reproduces, and as a scenario YAML (faults.
// decisions) that `repartsim run FILE` reproduces; both are checked before exiting.
// Exit: 0 no violation found, 1 safety, 2 liveness, 3 nondeterminism, 64 bad input.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/campaign/counterexample.h"
#include "model/run/explore.h"
#include "model/scenario/loader.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct ExploreArgs {
  std::string scenario;
  std::string seed = "0";
  std::string profile;
  std::vector<std::string> rules;
  bool bfs = false;
  bool dfs = false;
  uint32_t depth_max = UINT32_MAX;
  uint64_t states_max = UINT64_MAX;
  double seconds_max = 0;
  uint32_t crash_budget = 1;
  uint32_t fault_budget = 1;
  uint32_t values_max = 3;
  std::string json;
  std::string out;
  bool quiet = false;
  bool no_subsumption = false;
  bool liveness_dedup = false;
};

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

std::vector<std::string> DistinctInvariants(const scenario::RunReport& r) {
  std::vector<std::string> out;
  for (const check::Violation& v : r.violations) {
    const std::string name(check::InvariantName(v.invariant));
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

std::string ProgressLine(const sim::explore::ExploreStats& st, double seconds) {
  char line[256];
  std::snprintf(
      line, sizeof line,
      "explore: runs=%llu states=%llu unique=%llu depth=%llu states/s=%.0f "
      "frontier=%llu t=%.1fs",
      static_cast<unsigned long long>(st.runs), static_cast<unsigned long long>(st.states),
      static_cast<unsigned long long>(st.unique), static_cast<unsigned long long>(st.depth_max),
      seconds > 0 ? static_cast<double>(st.states) / seconds : 0.0,
      static_cast<unsigned long long>(st.frontier), seconds);
  return line;
}

int Explore(const ExploreArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.scenario.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "explore needs a SCENARIO file"});
  }
  if (a.bfs && a.dfs) return ReportFlagError(args, "--bfs and --dfs exclude each other");
  auto seed = ParseSeedFlag("--seed", a.seed, args);
  if (!seed.ok()) return ReportInputError(seed.error());
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  std::optional<std::string> profile;
  if (!a.profile.empty()) profile = a.profile;
  sim::Status valid = ValidateOverrides(profile, rules.value(), args);
  if (!valid.ok()) return ReportInputError(valid.error());
  if (!a.json.empty()) {
    sim::Status st = CheckOutputPath(a.json, args);
    if (!st.ok()) return ReportInputError(st.error());
  }
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());

  scenario::ExploreConfig config;
  config.seed = seed.value();
  config.profile = profile;
  config.rules = rules.value();
  config.order = a.bfs ? sim::explore::Order::kBreadthFirst : sim::explore::Order::kDepthFirst;
  config.policy.crash_budget = a.crash_budget;
  config.policy.fault_budget = a.fault_budget;
  config.policy.values_max = a.values_max;
  config.policy.depth_max = a.depth_max;
  config.policy.subsumption = !a.no_subsumption;
  config.states_max = a.states_max;
  config.liveness_dedup = a.liveness_dedup;
  const Clock::time_point start = Clock::now();
  Clock::time_point last_print = start;
  config.progress = [&](const sim::explore::ExploreStats& st) {
    if (!a.quiet && Clock::now() - last_print >= std::chrono::seconds(1)) {
      last_print = Clock::now();
      std::fprintf(stderr, "%s\n", ProgressLine(st, Seconds(start)).c_str());
    }
    return a.seconds_max <= 0 || Seconds(start) < a.seconds_max;
  };
  auto explored = scenario::ExploreScenario(s.value(), config);
  if (!explored.ok()) return ReportInputError(explored.error());
  const scenario::ExploreReport& x = explored.value();
  const double seconds = Seconds(start);
  const sim::explore::ExploreStats& st = x.stats;
  const std::string profile_name = profile.value_or(s.value().profile);

  std::printf("explore %s (%s) profile=%s order=%s crash_budget=%u fault_budget=%u values=%u\n",
              s.value().name.c_str(), a.scenario.c_str(), profile_name.c_str(),
              sim::explore::OrderName(config.order), a.crash_budget, a.fault_budget, a.values_max);
  std::printf(
      "runs=%llu (cut at a visited state: %llu, of them subsumed: %llu) states=%llu unique=%llu "
      "depth_max=%llu steps=%llu run_steps_max=%llu%s\n",
      static_cast<unsigned long long>(st.runs), static_cast<unsigned long long>(st.runs_cut),
      static_cast<unsigned long long>(st.subsumed), static_cast<unsigned long long>(st.states),
      static_cast<unsigned long long>(st.unique), static_cast<unsigned long long>(st.depth_max),
      static_cast<unsigned long long>(x.steps), static_cast<unsigned long long>(x.run_steps_max),
      config.liveness_dedup ? (" liveness_states=" + std::to_string(x.liveness_states)).c_str()
                            : "");
  std::printf("time=%.2fs states/s=%.0f steps/s=%.0f\n", seconds,
              seconds > 0 ? static_cast<double>(st.states) / seconds : 0.0,
              seconds > 0 ? static_cast<double>(x.steps) / seconds : 0.0);
  std::printf("result: %s%s\n", st.stop_reason.c_str(),
              st.exhausted && st.depth_limited ? " (within --max-depth)" : "");
  size_t hit = 0, crashed = 0;
  for (const auto& [site, c] : x.crash_points) {
    hit += c.hits > 0;
    crashed += c.crashes > 0;
  }
  std::printf("crash points: %zu of %zu sites hit, %zu crashed\n", hit, x.crash_points.size(),
              crashed);
  nlohmann::json j;
  j["scenario"] = s.value().name;
  j["path"] = a.scenario;
  j["profile"] = profile_name;
  j["order"] = sim::explore::OrderName(config.order);
  j["runs"] = st.runs;
  j["runs_cut"] = st.runs_cut;
  j["states"] = st.states;
  j["unique"] = st.unique;
  j["subsumed"] = st.subsumed;
  j["liveness_states"] = x.liveness_states;
  j["depth_max"] = st.depth_max;
  j["steps"] = x.steps;
  j["seconds"] = seconds;
  j["exhausted"] = st.exhausted;
  j["result"] = st.stop_reason;
  for (const auto& [site, c] : x.crash_points) {
    if (c.hits > 0) j["crash_points"][site] = {{"runs_hit", c.hits}, {"runs_crashed", c.crashes}};
  }
  int exit_code = kExitPass;
  if (st.stop_reason.rfind("nondeterminism", 0) == 0) exit_code = kExitNondeterminism;
  if (x.counterexample) {
    const scenario::RunReport& r = *x.counterexample;
    exit_code = ExitCodeFor(r.outcome);
    const std::vector<std::string> invariants = DistinctInvariants(r);
    std::printf("\ncounterexample (%zu branching decisions, %zu non-default):\n",
                st.failing_prefix.size(), campaign::NonDefaultDecisions(r.choices).size());
    PrintRunReport(stdout, s.value(), r, 3);
    const std::string base =
        a.out.empty() ? "repartsim-" + s.value().name + "-" + profile_name + "-explore" : a.out;
    const std::string choices_path = base + ".choices";
    const std::string yaml_path = base + ".yaml";
    sim::Status st_choices = WriteChoicesFile(choices_path, r);
    if (!st_choices.ok()) return ReportWriteError(st_choices.error(), exit_code);
    campaign::CounterexampleSpec spec{
        a.scenario,    std::string("explore (") + sim::explore::OrderName(config.order) + ")",
        seed.value(),  profile_name,
        rules.value(), invariants};
    auto yaml = campaign::CounterexampleYaml(spec, campaign::NonDefaultDecisions(r.choices));
    if (!yaml.ok()) return ReportInputError(yaml.error());
    sim::Status st_yaml = WriteTextFile(yaml_path, yaml.value());
    if (!st_yaml.ok()) return ReportWriteError(st_yaml.error(), exit_code);
    auto check = campaign::RunScenarioFile(yaml_path, seed.value());
    const bool reproduced = check.ok() && !invariants.empty() &&
                            DistinctInvariants(check.value()).size() > 0 &&
                            DistinctInvariants(check.value()).front() == invariants.front();
    std::printf("choices: %s (replay: repartsim replay %s --choices %s)\n", choices_path.c_str(),
                a.scenario.c_str(), choices_path.c_str());
    std::printf("scenario: %s (repro: repartsim run %s) %s\n", yaml_path.c_str(), yaml_path.c_str(),
                reproduced ? "verified: same invariant" : "NOT verified: run differs");
    j["violation"] = invariants.empty() ? "" : invariants.front();
    j["choices"] = choices_path;
    j["counterexample"] = yaml_path;
    j["verified"] = reproduced;
    j["decisions"] = campaign::NonDefaultDecisions(r.choices).size();
    if (!reproduced) exit_code = kExitInternal;
  }
  if (!a.json.empty()) {
    sim::Status w = WriteTextFile(a.json, j.dump(2) + "\n");
    if (!w.ok()) return ReportWriteError(w.error(), exit_code);
  }
  return exit_code;
}

}  // namespace

void AddExploreVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ExploreArgs>();
  CLI::App* sub = app.add_subcommand(
      "explore", "Explore every decision path of a small scenario (bounded, deduplicated)");
  sub->add_option("scenario", a->scenario, "Scenario YAML file");
  sub->add_option("--seed", a->seed, "Seed of the random workload, if any (default 0)");
  sub->add_option("--profile", a->profile, "Protocol profile (default: the scenario's)");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_flag("--bfs", a->bfs, "Breadth-first: fewest non-default decisions first");
  sub->add_flag("--dfs", a->dfs, "Depth-first (the default)");
  sub->add_option("--max-depth", a->depth_max, "Branching decisions per path (default: no bound)");
  sub->add_option("--max-states", a->states_max, "Stop after this many states");
  sub->add_option("--max-seconds", a->seconds_max, "Stop after this much wall time");
  sub->add_option("--crash-budget", a->crash_budget,
                  "Crash points that may fire per path (default 1)");
  sub->add_option("--fault-budget", a->fault_budget,
                  "Network faults (drop, delay, reset, pause, lease gap) per path (default 1)");
  sub->add_option("--values", a->values_max,
                  "A numeric choice (delay length, ...) explores this many spread values "
                  "(default 3; 0 = all)");
  sub->add_option("--json", a->json, "Write the JSON report to FILE");
  sub->add_option("--out", a->out,
                  "Counterexample file prefix (default repartsim-<name>-<profile>-explore)");
  sub->add_flag("--quiet", a->quiet, "No progress line");
  sub->add_flag("--no-subsumption", a->no_subsumption,
                "Cut only exact repeats (same state, same budgets spent), not states reached "
                "before with fewer crashes and faults spent");
  sub->add_flag("--liveness-dedup", a->liveness_dedup,
                "Visit liveness-phase states too (fingerprint and probe progress): a run ends "
                "at a liveness state reached before");
  sub->footer(
      "Exit codes: 0 no violation found, 1 safety, 2 liveness violation (counterexample\n"
      "written), 3 nondeterminism, 64 bad input, 70 the counterexample did not reproduce.");
  sub->callback([a, exit_code] { *exit_code = Explore(*a); });
}

}  // namespace repartsim::tools
