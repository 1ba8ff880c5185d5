// `repartsim shrink SCENARIO --seed N | --choices FILE`: shrinks a failing run to a small
// scripted scenario (checker/campaign/shrink.h) that still reports the same invariant, writes
// it (--out, default repartsim-<name>-<profile>-<seed>-shrunk.yaml), runs it once to verify,
// and reports the size before and after (steps, statements, faults, decisions, rows) and the
// time taken. Verified: the written file loads, its run at the seed reports the invariant and
// every expectation it states holds there. Exit: 0 shrunk and verified, 64 bad input or a
// passing run, 70 the written scenario did not verify.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>

#include "checker/campaign/repro_command.h"
#include "checker/campaign/shrink.h"
#include "checker/campaign/shrunk_expectations.h"
#include "checker/check/check_at.h"
#include "checker/check/violation.h"
#include "checker/report/decisive_decisions.h"
#include "checker/scenario/loader.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/stopwatch.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct ShrinkArgs {
  std::string scenario;
  std::string seed;
  std::string choices;
  std::string profile;
  std::vector<std::string> rules;
  std::string out;
  double seconds_max = 0;
  bool quiet = false;
};

std::string SizeText(const campaign::ShrinkSize& z) {
  return check::Plural(z.steps, "step") + " (" + check::Plural(z.statements, "statement") + ", " +
         check::Plural(z.faults, "fault") + "), " + check::Plural(z.decisions, "pinned decision") +
         ", " + check::Plural(z.rows, "row");
}

// Verifies the written scenario and prints the before/after report: the file must load, the
// run of its profile at `seed` must report the invariant the original run did, and every
// expectation the file states must hold at `seed` (campaign::CheckExpectations). Prints what
// it compared, each expectation checked and each one shrink left out, then the run's story.
bool Verified(const std::string& scenario, const std::string& out_path, uint64_t seed,
              const campaign::ShrinkResult& r, double seconds) {
  std::printf("shrink %s seed %llu profile %s: %s\n", scenario.c_str(),
              static_cast<unsigned long long>(seed), r.profile.c_str(), r.invariant.c_str());
  std::printf("before: %s\n", SizeText(r.before).c_str());
  std::printf("after:  %s\n", SizeText(r.after).c_str());
  std::printf("candidates=%llu time=%.2fs\n", static_cast<unsigned long long>(r.candidates),
              seconds);
  std::printf("scenario: %s (repro: %s) ", out_path.c_str(),
              campaign::ShellCommand({"run", out_path}).c_str());
  auto loaded = scenario::LoadScenarioFile(out_path);
  if (!loaded.ok()) {
    std::printf("NOT verified: the file does not load: %s\n", loaded.error().Format().c_str());
    return false;
  }
  auto told = report::TellScenarioFile(out_path, seed, 20);
  if (!told.ok()) {
    std::printf("NOT verified: the run fails: %s\n", told.error().Format().c_str());
    return false;
  }
  const std::vector<std::string> names = told.value().report.InvariantNames();
  const bool reproduced = std::find(names.begin(), names.end(), r.invariant) != names.end();
  const std::vector<campaign::ExpectationCheck> checks =
      campaign::CheckExpectations(loaded.value(), seed);
  const bool met = std::all_of(checks.begin(), checks.end(),
                               [](const campaign::ExpectationCheck& c) { return c.met; });
  const std::string what =
      "the run of the file at seed " + std::to_string(seed) + " under " + loaded.value().profile;
  std::printf("%s: %s\n", reproduced && met ? "verified" : "NOT verified",
              told.value().report.SummaryLine().c_str());
  std::printf("  compared: %s %s %s, as seed %llu of %s did; %zu expectations of the file %s\n",
              what.c_str(), reproduced ? "reports" : "does not report", r.invariant.c_str(),
              static_cast<unsigned long long>(seed), scenario.c_str(), checks.size(),
              met ? "hold at that seed" : "checked at that seed, not all hold");
  for (const campaign::ExpectationCheck& c : checks) {
    std::printf("  %s %s (%s): gives %s\n", c.met ? "met" : "NOT met", c.name.c_str(),
                c.statement.c_str(), c.found.c_str());
  }
  for (const campaign::DroppedExpectation& d : r.dropped) {
    std::printf("  left out: %s of the source (%s): %s\n", d.name.c_str(), d.statement.c_str(),
                d.reason.c_str());
  }
  std::fputs(told.value().text.c_str(), stdout);
  return reproduced && met;
}

int RunShrink(const ShrinkArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.scenario.empty() || (!a.seed.empty() == !a.choices.empty())) {
    return ReportInputError(
        {{"<command line>", 1, 1},
         "shrink needs SCENARIO and exactly one of --seed N or --choices FILE"});
  }
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  campaign::ShrinkConfig config;
  config.scenario_path = a.scenario;
  config.rules = rules.value();
  if (!a.profile.empty()) config.profile = a.profile;
  std::optional<ChoicesFile> file;
  if (!a.choices.empty()) {
    auto loaded = ReadChoicesFile(a.choices);
    if (!loaded.ok()) return ReportInputError(loaded.error());
    file = std::move(loaded).value();
    if (auto mismatch = campaign::CheckChoicesFor(*file, a.choices, "shrink", a.scenario, a.profile,
                                                  config.rules)) {
      const bool profile = mismatch->field == campaign::ChoicesMismatch::Field::kProfile;
      return ReportInputError(
          {{"<command line>", 1, ArgumentColumn(args, profile ? a.profile : a.choices)},
           mismatch->message});
    }
    config.seed = file->seed.value_or(0);
    if (!config.profile) config.profile = file->profile;
    if (config.rules.empty()) config.rules = file->rules;
    config.replay = &file->choices;
  } else {
    auto seed = ParseSeedFlag("--seed", a.seed, args);
    if (!seed.ok()) return ReportInputError(seed.error());
    config.seed = seed.value();
  }
  sim::Status valid = ValidateOverrides(config.profile, config.rules, args);
  if (!valid.ok()) return ReportInputError(valid.error());
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());
  const std::string out_path =
      a.out.empty() ? "repartsim-" + campaign::FileNamePart(s.value().name) + "-" +
                          campaign::FileNamePart(config.profile.value_or(s.value().profile)) + "-" +
                          std::to_string(config.seed) + "-shrunk.yaml"
                    : a.out;
  sim::Status st = CheckOutputPath("--out", out_path, args, {a.scenario, a.choices});
  if (!st.ok()) return ReportInputError(st.error());

  Stopwatch clock;
  config.progress = [&](uint64_t candidates) {
    if (!a.quiet && clock.EverySecond()) {
      std::fprintf(stderr, "shrink: %llu candidate runs\n",
                   static_cast<unsigned long long>(candidates));
    }
    return a.seconds_max <= 0 || clock.Seconds() < a.seconds_max;
  };
  auto shrunk = campaign::Shrink(config);
  if (!shrunk.ok()) return ReportInputError(shrunk.error());
  const campaign::ShrinkResult& r = shrunk.value();
  const double seconds = clock.Seconds();
  st = WriteTextFile(out_path, r.yaml);
  if (!st.ok()) {
    // The shrink is done and must not be lost: the scenario goes to stdout instead. Exit 73
    // (not 70: nothing failed to reproduce, a file could not be written).
    std::printf("# %s could not be written; the shrunk scenario:\n%s", out_path.c_str(),
                r.yaml.c_str());
    return ReportWriteError(st.error(), kExitPass);
  }
  const bool verified = Verified(a.scenario, out_path, config.seed, r, seconds);
  return verified ? kExitPass : kExitInternal;
}

}  // namespace

void AddShrinkVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ShrinkArgs>();
  CLI::App* sub = app.add_subcommand(
      "shrink", "Shrink a failing run to a small scripted scenario with the same invariant");
  sub->add_option("scenario", a->scenario, "Scenario YAML file");
  sub->add_option("--seed", a->seed, "The failing seed");
  sub->add_option("--choices", a->choices, "The failing run's choice file (written by run)");
  sub->add_option("--profile", a->profile, "Protocol profile (default: the scenario's)");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--out", a->out,
                  "The shrunk scenario (default repartsim-<name>-<profile>-<seed>-shrunk.yaml)");
  sub->add_option("--max-seconds", a->seconds_max,
                  "Stop shrinking after this much wall time (seconds)")
      ->check(SecondsUpTo(kSecondsFlagMax));
  sub->add_option("--time-budget", a->seconds_max,
                  "The same as a duration, as sweep takes it (e.g. 20s, 5m)")
      ->transform(DurationAsSeconds(kSecondsFlagMax));
  sub->add_flag("--quiet,-q", a->quiet, "No progress line");
  sub->footer(
      "Exit codes: 0 shrunk and verified, 64 bad input or a run that passes, 70 the\n"
      "written scenario did not reproduce the invariant.");
  sub->callback([a, exit_code] { *exit_code = RunShrink(*a); });
}

}  // namespace repartsim::tools
