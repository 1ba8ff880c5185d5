// `repartsim run SCENARIO [--seed N] ...`: one run of a scenario. Prints the summary line
// (seed, steps, prng_draws, trace_hash, outcome), the expectation, and every violation with
// its rows and trace excerpt; always writes the choice file needed to replay the run.
// Exit: 0 pass, 1 safety, 2 liveness, 64 bad input (scenario errors as file:line:col).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/scenario/crash_sites.h"
#include "model/scenario/loader.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct RunArgs {
  std::string scenario;
  uint64_t seed = 0;
  std::string profile;
  std::vector<std::string> rules;
  std::string trace;
  std::string trace_format = "text";
  std::string json;
  std::string choices;
  size_t violations_max = 10;
  bool list_crash_sites = false;
};

int RunOnce(const RunArgs& a) {
  if (a.list_crash_sites) {
    for (const std::string& site : scenario::KnownCrashSites()) std::printf("%s\n", site.c_str());
    return kExitPass;
  }
  if (a.scenario.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "run needs a SCENARIO file"});
  }
  const std::vector<std::string> args = CommandLineArgs();
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  std::optional<std::string> profile;
  if (!a.profile.empty()) profile = a.profile;
  sim::Status valid = ValidateOverrides(profile, rules.value(), args);
  if (!valid.ok()) return ReportInputError(valid.error());
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());

  scenario::RunConfig config;
  config.seed = a.seed;
  config.profile = profile;
  config.rules = rules.value();
  config.keep_trace = true;
  std::FILE* trace_out = nullptr;
  if (!a.trace.empty() && a.trace_format == "text") {
    trace_out = a.trace == "-" ? stdout : std::fopen(a.trace.c_str(), "wb");
    if (trace_out == nullptr) {
      return ReportInputError({{a.trace, 0, 0}, "cannot write " + a.trace});
    }
    config.trace_out = trace_out;
  }
  auto report = scenario::RunScenario(s.value(), config);
  if (trace_out != nullptr && trace_out != stdout) std::fclose(trace_out);
  if (!report.ok()) return ReportInputError(report.error());
  const scenario::RunReport& r = report.value();
  if (!a.trace.empty() && a.trace_format == "jsonl") {
    sim::Status st = WriteTraceFile(a.trace, "jsonl", r.trace_lines);
    if (!st.ok()) return ReportInputError(st.error());
  }
  PrintRunReport(stdout, s.value(), r, a.violations_max);
  const std::string choices = ChoicesPath(a.choices, a.json, r.scenario, a.seed);
  sim::Status st = WriteChoicesFile(choices, r);
  if (!st.ok()) return ReportInputError(st.error());
  std::printf("choices: %s (replay: repartsim replay %s --choices %s)\n", choices.c_str(),
              a.scenario.c_str(), choices.c_str());
  if (!a.json.empty()) {
    nlohmann::json j = r.ToJson();
    if (auto e = s.value().ExpectationFor(r.profile)) {
      j["expect"] = e->ToString();
      j["expect_met"] = r.Meets(*e);
    }
    j["choices"] = choices;
    st = WriteTextFile(a.json, j.dump(2) + "\n");
    if (!st.ok()) return ReportInputError(st.error());
  }
  return ExitCodeFor(r.outcome);
}

}  // namespace

void AddRunVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand(
      "run", "Run one scenario with one seed; print the summary line and any violation");
  sub->add_option("scenario", a->scenario, "Scenario YAML file");
  sub->add_option("--seed", a->seed, "Seed of the run (default 0)");
  sub->add_option("--profile", a->profile, "Protocol profile: greptime or reference "
                                           "(default: the scenario's)");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--trace", a->trace, "Write the trace to FILE ('-' = stdout)");
  sub->add_option("--trace-format", a->trace_format, "text (default) or jsonl")
      ->check(CLI::IsMember({"text", "jsonl"}));
  sub->add_option("--json", a->json, "Write the JSON run report to FILE");
  sub->add_option("--choices", a->choices,
                  "Write the replay choice file to FILE (default: next to --json, else "
                  "repartsim-<name>-<seed>.choices)");
  sub->add_option("--violations-max", a->violations_max, "Violations printed (default 10)");
  sub->add_flag("--list-crash-sites", a->list_crash_sites, "Print the known crash sites");
  sub->footer("Exit codes: 0 pass, 1 safety violation, 2 liveness violation, 64 bad input.");
  sub->callback([a, exit_code] { *exit_code = RunOnce(*a); });
}

}  // namespace repartsim::tools
