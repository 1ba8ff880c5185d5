// `repartsim explore SCENARIO`: bounded exhaustive search over the scenario's decisions
// (checker/run/explore.h). Prints a progress line on stderr at most once per second, then
// the report: runs, states, unique states, branch depth, states/s, exhausted or not, crash
// point coverage. On a violation it writes the counterexample twice: as a choice file that
// `repartsim replay SCENARIO --choices FILE` reproduces, and as a scenario YAML (faults.
// decisions) that `repartsim run FILE` reproduces; both are checked before exiting.
// Exit: 0 no violation found, 1 safety, 2 liveness, 3 nondeterminism, 64 bad input.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "checker/campaign/counterexample.h"
#include "checker/campaign/repro_command.h"
#include "checker/report/decisive_decisions.h"
#include "checker/report/explore_text.h"
#include "checker/run/explore.h"
#include "checker/scenario/loader.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/stopwatch.h"
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
  uint64_t memory_max_mb = sim::explore::kExploreMemoryMaxDefault >> 20;
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

// The search configuration from the flags (located errors for bad flags).
sim::Result<run::ExploreConfig> Configure(const ExploreArgs& a,
                                          const std::vector<std::string>& args) {
  if (a.scenario.empty())
    return sim::Error{{"<command line>", 1, 1}, "explore needs a SCENARIO file"};
  auto seed = ParseSeedFlag("--seed", a.seed, args);
  if (!seed.ok()) return seed.error();
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return rules.error();
  run::ExploreConfig config;
  if (!a.profile.empty()) config.profile = a.profile;
  sim::Status valid = ValidateOverrides(config.profile, rules.value(), args);
  if (!valid.ok()) return valid.error();
  config.seed = seed.value();
  config.rules = rules.value();
  config.order = a.bfs ? sim::explore::Order::kBreadthFirst : sim::explore::Order::kDepthFirst;
  config.policy.crash_budget = a.crash_budget;
  config.policy.fault_budget = a.fault_budget;
  config.policy.values_max = a.values_max;
  config.policy.depth_max = a.depth_max;
  config.policy.subsumption = !a.no_subsumption;
  config.states_max = a.states_max;
  config.memory_max = a.memory_max_mb << 20;
  config.liveness_dedup = a.liveness_dedup;
  return config;
}

// Writes the counterexample as a choice file and a scenario YAML, checks the YAML reproduces
// the decisive invariant, prints where they are on `out` and records them in `j`. Returns the
// exit code.
int WriteCounterexample(std::FILE* out, const ExploreArgs& a, const scenario::Scenario& s,
                        const run::ExploreConfig& config, const std::string& profile,
                        const std::string& base, const run::ExploreReport& x, nlohmann::json& j) {
  const run::RunReport& r = *x.counterexample;
  const int exit_code = ExitCodeFor(r.outcome);
  const size_t decisions = campaign::NonDefaultDecisions(r.choices).size();
  std::fprintf(out, "\ncounterexample (%zu branching decisions, %zu non-default):\n",
               x.stats.failing_prefix.size(), decisions);
  PrintRunReport(out, s, r, 3);
  std::fprintf(out, "\ndecisions that made it (non-default; step, time, what each did):\n");
  for (const std::string& line : report::DecisiveDecisions(s, config, r, 20)) {
    std::fprintf(out, "  %s\n", line.c_str());
  }
  const std::string origin = std::string("explore (") + sim::explore::OrderName(config.order) + ")";
  const campaign::SavedCounterexample saved = campaign::SaveCounterexample(
      {a.scenario, origin, config.seed, profile, config.rules, {}}, r, base);
  if (saved.write_error) return ReportWriteError(*saved.write_error, exit_code);
  if (saved.input_error) return ReportInputError(*saved.input_error);
  std::fprintf(
      out, "choices: %s (replay: %s)\n", saved.choices_path.c_str(),
      campaign::ShellCommand({"replay", a.scenario, "--choices", saved.choices_path}).c_str());
  std::fprintf(out, "scenario: %s (repro: %s) %s\n", saved.yaml_path.c_str(),
               campaign::ShellCommand({"run", saved.yaml_path}).c_str(),
               saved.reproduced ? "verified: same invariant" : "NOT verified: run differs");
  j["violation"] = saved.invariants.empty() ? "" : saved.invariants.front();
  j["choices"] = saved.choices_path;
  j["counterexample"] = saved.yaml_path;
  j["verified"] = saved.reproduced;
  j["decisions"] = decisions;
  return saved.reproduced ? exit_code : kExitInternal;
}

int Explore(const ExploreArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.bfs && a.dfs) return ReportFlagError(args, "--bfs and --dfs exclude each other");
  auto configured = Configure(a, args);
  if (!configured.ok()) return ReportInputError(configured.error());
  run::ExploreConfig& config = configured.value();
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());
  const std::string profile = config.profile.value_or(s.value().profile);
  // Every file a counterexample would go to is checked before the search, not after it.
  const std::string base = a.out.empty() ? "repartsim-" + campaign::FileNamePart(s.value().name) +
                                               "-" + campaign::FileNamePart(profile) + "-explore"
                                         : a.out;
  sim::Status outputs = CheckOutputPaths(
      {{"--json", a.json}, {"--out", base + ".choices"}, {"--out", base + ".yaml"}}, args,
      {a.scenario});
  if (!outputs.ok()) return ReportInputError(outputs.error());
  // A path that breaks an assertion (exit 70) is a counterexample too: its decisions are saved
  // before the process exits, so `replay` reproduces the internal error.
  config.on_internal_error = [&a, &config, &base, &profile](const sim::ChoiceList& list) {
    std::string rules;
    for (const auto& [name, on] : config.rules) {
      rules += (rules.empty() ? "" : ",") + name + (on ? "=on" : "=off");
    }
    const std::string path = base + ".choices";
    const std::string text =
        "# repartsim choices\n# scenario=" + campaign::HeaderValue(a.scenario) +
        " seed=" + std::to_string(config.seed) + " profile=" + profile +
        " rules=" + (rules.empty() ? "-" : rules) + "\n" + list.ToText();
    if (WriteTextFile(path, text).ok()) {
      std::fprintf(stderr, "explore: the decisions of the path that broke it: %s (replay: %s)\n",
                   path.c_str(),
                   campaign::ShellCommand({"replay", a.scenario, "--choices", path}).c_str());
    }
  };
  Stopwatch clock;
  config.progress = [&](const sim::explore::ExploreStats& st) {
    if (!a.quiet && clock.EverySecond()) {
      std::fprintf(stderr, "%s\n", report::ExploreProgressLine(st, clock.Seconds()).c_str());
    }
    return a.seconds_max <= 0 || clock.Seconds() < a.seconds_max;
  };
  auto explored = run::ExploreScenario(s.value(), config);
  if (!explored.ok()) return ReportInputError(explored.error());
  const run::ExploreReport& x = explored.value();
  const report::ExploreSummary summary{&s.value(), a.scenario, profile,
                                       &config,    &x,         clock.Seconds()};
  // A JSON report on stdout keeps stdout for itself: the text goes to stderr.
  std::FILE* out = a.json == "-" ? stderr : stdout;
  std::fputs(report::ExploreText(summary).c_str(), out);
  nlohmann::json j = report::ExploreJson(summary);
  int exit_code = kExitPass;
  if (x.stats.stop_reason.rfind("nondeterminism", 0) == 0) exit_code = kExitNondeterminism;
  if (x.counterexample) {
    exit_code = WriteCounterexample(out, a, s.value(), config, profile, base, x, j);
  }
  if (!a.json.empty()) {
    sim::Status w = WriteTextFile(a.json, sim::JsonText(j, 2) + "\n");
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
  sub->add_option("--max-depth", a->depth_max, "Branching decisions per path (default: no bound)")
      ->check(IntegerIn(0, UINT32_MAX));
  sub->add_option("--max-states", a->states_max, "Stop after this many states")
      ->check(IntegerIn(1, UINT64_MAX));
  sub->add_option("--max-memory-mb", a->memory_max_mb,
                  "Stop when the search's queue and tables hold about this much (default 1024)")
      ->check(IntegerIn(1, uint64_t{1} << 24));
  sub->add_option("--max-seconds", a->seconds_max, "Stop after this much wall time (seconds)")
      ->check(SecondsUpTo(kSecondsFlagMax));
  sub->add_option("--time-budget", a->seconds_max,
                  "The same as a duration, as sweep takes it (e.g. 20s, 5m)")
      ->transform(DurationAsSeconds(kSecondsFlagMax));
  sub->add_option("--crash-budget", a->crash_budget,
                  "Crash points that may fire per path (default 1)")
      ->check(IntegerIn(0, 1000));
  sub->add_option("--fault-budget", a->fault_budget,
                  "Network faults (drop, delay, reset, pause, lease gap) per path (default 1)")
      ->check(IntegerIn(0, 1000));
  sub->add_option("--values", a->values_max,
                  "A numeric choice (delay length, ...) explores this many spread values "
                  "(default 3; 0 = all)")
      ->check(IntegerIn(0, 1000));
  sub->add_option("--json", a->json,
                  "Write the JSON report to FILE ('-' = stdout; the text then goes to stderr)");
  sub->add_option("--out", a->out,
                  "Counterexample file prefix (default repartsim-<name>-<profile>-explore)");
  sub->add_flag("--quiet,-q", a->quiet, "No progress line");
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
