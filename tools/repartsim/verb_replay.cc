// `repartsim replay SCENARIO --seed N | --choices FILE`: reproduces a run and proves it.
// --seed: runs the seed twice and requires equal trace hashes (the determinism self-check).
// --choices: replays the recorded decisions (seed, profile and rules come from the file's
// header unless given) and requires the recorded trace hash. On any mismatch: exit 3,
// naming the first divergent event (sim::FirstDivergence) or the first divergent choice.
// Otherwise the exit code is the run's (0 pass, 1 safety, 2 liveness).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "checker/report/run_text.h"
#include "checker/scenario/loader.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct ReplayArgs {
  std::string scenario;
  std::string seed;
  std::string choices;
  std::string profile;
  std::vector<std::string> rules;
  std::string trace;
  std::string trace_format;
  std::string json;
  size_t violations_max = 10;
};

int Mismatch(std::FILE* out, const std::string& what, const std::vector<std::string>& a,
             const std::vector<std::string>& b) {
  std::fprintf(out, "NONDETERMINISM: %s\n", what.c_str());
  if (auto d = sim::FirstDivergence(a, b)) {
    std::fprintf(out, "%s\n", d->ToString().c_str());
  } else {
    std::fprintf(out,
                 "this binary reproduces the run identically on its own (replay == fresh run);\n"
                 "the recorded run came from a different binary, scenario or seed\n");
  }
  return kExitNondeterminism;
}

// --choices: reads the file and takes the run it recorded (seed, profile, rules) into
// `config`. A choice file only replays the run it recorded: another scenario, profile or rule
// set is a usage error, not a nondeterminism verdict.
sim::Result<ChoicesFile> FromChoices(const ReplayArgs& a, const std::vector<std::string>& args,
                                     const std::vector<std::pair<std::string, bool>>& rules,
                                     run::RunConfig& config) {
  auto loaded = ReadChoicesFile(a.choices);
  if (!loaded.ok()) return loaded.error();
  ChoicesFile file = std::move(loaded).value();
  if (auto mismatch =
          campaign::CheckChoicesFor(file, a.choices, "replay", a.scenario, a.profile, rules)) {
    const bool profile = mismatch->field == campaign::ChoicesMismatch::Field::kProfile;
    return sim::Error{{"<command line>", 1, ArgumentColumn(args, profile ? a.profile : a.choices)},
                      mismatch->message};
  }
  config.seed = file.seed.value_or(0);
  config.profile = file.profile;
  config.rules = file.rules;
  return file;
}

// The check: a second run (random, same seed) must give the same trace; with --choices, the
// replay must give the recorded trace hash. Returns the exit code. The verdict goes to `out`
// (stderr when stdout carries the JSON report or the trace).
int Verify(std::FILE* out, const ReplayArgs& a, const scenario::Scenario& s,
           const run::RunConfig& config, const std::optional<ChoicesFile>& file,
           const run::RunReport& r) {
  run::RunConfig again = config;
  again.replay = nullptr;
  if (file) {
    if (!r.nondeterminism.empty() ||
        (file->trace_hash && *file->trace_hash != r.summary.trace_hash)) {
      auto b = run::RunScenario(s, again);
      return Mismatch(out,
                      "replaying " + a.choices + " gave trace_hash " + Hex64(r.summary.trace_hash) +
                          ", recorded " + Hex64(file->trace_hash.value_or(0)) +
                          (r.nondeterminism.empty() ? "" : "; " + r.nondeterminism),
                      b.value().trace_lines, r.trace_lines);
    }
    // A replayed run draws once per recorded decision: decisions left over belong to no run
    // of this scenario (an edited or concatenated file), and are not silently ignored.
    if (r.summary.prng_draws < file->choices.size()) {
      return ReportInputError({{a.choices, 0, 0},
                               "the run took " + std::to_string(r.summary.prng_draws) +
                                   " decisions, the file records " +
                                   std::to_string(file->choices.size()) + ": the last " +
                                   std::to_string(file->choices.size() - r.summary.prng_draws) +
                                   " belong to no run of this scenario"});
    }
    std::fprintf(out, "replay: matches the recorded trace_hash %s\n",
                 Hex64(r.summary.trace_hash).c_str());
    return ExitCodeFor(r.outcome);
  }
  auto b = run::RunScenario(s, again);
  if (b.value().summary != r.summary) {
    return Mismatch(out,
                    "seed " + std::to_string(config.seed) + " gave " + r.summary.ToString() +
                        " then " + b.value().summary.ToString(),
                    r.trace_lines, b.value().trace_lines);
  }
  std::fprintf(out, "replay: two runs of seed %llu gave the same trace_hash %s\n",
               static_cast<unsigned long long>(config.seed), Hex64(r.summary.trace_hash).c_str());
  return ExitCodeFor(r.outcome);
}

int Replay(const ReplayArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.scenario.empty() || (!a.seed.empty() == !a.choices.empty())) {
    return ReportInputError(
        {{"<command line>", 1, 1},
         "replay needs SCENARIO and exactly one of --seed N or --choices FILE"});
  }
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  if (!a.trace_format.empty() && a.trace.empty()) {
    return ReportFlagError(args, "--trace-format needs --trace FILE");
  }
  const std::string trace_format = a.trace_format.empty() ? "text" : a.trace_format;
  sim::Status outputs =
      CheckOutputPaths({{"--trace", a.trace}, {"--json", a.json}}, args, {a.scenario, a.choices});
  if (!outputs.ok()) return ReportInputError(outputs.error());
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());
  run::RunConfig config;
  config.keep_trace = true;
  std::optional<ChoicesFile> file;
  if (!a.choices.empty()) {
    auto loaded = FromChoices(a, args, rules.value(), config);
    if (!loaded.ok()) return ReportInputError(loaded.error());
    file = std::move(loaded).value();
  } else {
    auto seed = ParseSeedFlag("--seed", a.seed, args);
    if (!seed.ok()) return ReportInputError(seed.error());
    config.seed = seed.value();
    config.rules = rules.value();
  }
  if (!a.profile.empty()) config.profile = a.profile;
  sim::Status valid = ValidateOverrides(config.profile, config.rules, args);
  if (!valid.ok()) return ReportInputError(valid.error());
  // The reference run: random driver (--seed), or the recorded choices (--choices).
  if (file) config.replay = &file->choices;
  auto first = run::RunScenario(s.value(), config);
  if (!first.ok()) return ReportInputError(first.error());
  const run::RunReport& r = first.value();
  // Stdout carries only the JSON report or the trace when one goes there: the rest to stderr.
  std::FILE* out = a.trace == "-" || a.json == "-" ? stderr : stdout;
  PrintRunReport(out, s.value(), r, a.violations_max);
  // The JSON first; each output is written even when another fails.
  std::vector<sim::Error> errors;
  if (!a.json.empty()) {
    nlohmann::json j = r.ToJson();
    report::StampRunJson(j, BinaryIdentity().first, BinaryIdentity().second);
    sim::Status st = WriteTextFile(a.json, sim::JsonText(j, 2) + "\n");
    if (!st.ok()) errors.push_back(st.error());
  }
  if (!a.trace.empty()) {
    sim::Status st = WriteTraceFile(a.trace, trace_format, r.trace_lines);
    if (!st.ok()) errors.push_back(st.error());
  }
  if (!errors.empty()) return ReportWriteErrors(errors, ExitCodeFor(r.outcome));
  return Verify(out, a, s.value(), config, file, r);
}

}  // namespace

void AddReplayVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ReplayArgs>();
  CLI::App* sub = app.add_subcommand(
      "replay", "Reproduce a run from its seed or choice file and check it is identical");
  sub->add_option("scenario", a->scenario, "Scenario YAML file");
  sub->add_option("--seed", a->seed, "Seed to run twice");
  sub->add_option("--choices", a->choices, "Choice file written by `run`");
  sub->add_option("--profile", a->profile, "Protocol profile (default: the file's or scenario's)");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--trace", a->trace, "Write the trace to FILE ('-' = stdout)");
  sub->add_option("--trace-format", a->trace_format, "text (default) or jsonl")
      ->check(CLI::IsMember({"text", "jsonl"}));
  sub->add_option("--json", a->json, "Write the JSON run report to FILE");
  sub->add_option("--violations-max", a->violations_max, "Violations printed (default 10)")
      ->check(IntegerIn(0, 1000000));
  sub->footer(
      "Exit codes: 0/1/2/4 the run's outcome (4: capped at limits.steps_max), 3\n"
      "nondeterminism (first divergent event\n"
      "printed), 64 bad input (also a choice file of another scenario, profile or rule\n"
      "set), 73 a report could not be written.");
  sub->callback([a, exit_code] { *exit_code = Replay(*a); });
}

}  // namespace repartsim::tools
