// `repartsim sql [SCRIPT|-]`: a SQL console on a simulated cluster (checker/console). Runs the
// statements of SCRIPT (or stdin) in order and prints each with its answer in sqlness
// `.result` form, the answers as GreptimeDB's MySQL-protocol client prints them
// (checker/report/console_text.h). On a terminal it reads statement by statement and prints
// the answers only. --scenario FILE takes the cluster, profile, rules and faults of a
// scenario; --trace and --json write the trace and the answers as `run` does.
// Exit: 0 every statement ran (its answer may be an error, as in a sqlness case), 64 a
// statement did not parse or is not one the console runs (each also printed as
// file:line:col: error: on stderr; a script runs to its end first; a terminal session goes on and
// exits 0), or bad flags, 73 an output could not be written.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/console/console_session.h"
#include "checker/console/script.h"
#include "checker/report/console_text.h"
#include "checker/scenario/loader.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct SqlArgs {
  std::string script;
  std::string scenario;
  std::string seed = "0";
  std::string profile;
  std::vector<std::string> rules;
  std::string trace;
  std::string trace_format;
  std::string json;
};

// What the statements of a session gave: the JSON records and whether one was refused.
struct Transcript {
  nlohmann::json statements = nlohmann::json::array();
  bool refused = false;
};

// Runs one statement and records it; returns the answer's text, "" when nothing answered.
std::string RunStatement(console::Session& session, const console::ScriptStatement& s,
                         Transcript& transcript) {
  std::optional<console::StatementResult> result = session.Run(s.text, s.location);
  if (!result) return "";
  if (result->refused) {
    transcript.refused = true;
    std::fprintf(stderr, "%s\n", sim::Error{result->location, result->detail}.Format().c_str());
  }
  nlohmann::json j;
  j["sql"] = s.text;
  j["line"] = s.location.line;
  j["answer"] = report::AnswerJson(result->answer);
  transcript.statements.push_back(std::move(j));
  return report::RenderAnswer(result->answer);
}

// The script's statements in sqlness `.result` form, on `out`.
void RunScript(console::Session& session, const std::string& text, const std::string& file,
               std::FILE* out, Transcript& transcript) {
  for (const console::ScriptStatement& s : console::SplitScript(text, file)) {
    const std::string answer = RunStatement(session, s, transcript);
    if (answer.empty()) continue;  // comments only
    std::fprintf(out, "%s\n\n%s\n\n", s.text.c_str(), answer.c_str());
    std::fflush(out);
  }
}

// A terminal: a prompt, then each statement's answer as soon as its ';' is typed.
void RunInteractive(console::Session& session, std::FILE* out, Transcript& transcript) {
  std::string pending;
  uint32_t line_number = 0;
  uint32_t pending_line = 1;
  std::fputs("repartsim> ", out);
  std::fflush(out);
  for (std::string line; std::getline(std::cin, line);) {
    ++line_number;
    if (pending.find_first_not_of(" \t\r\n") == std::string::npos) {
      pending.clear();
      pending_line = line_number;
    }
    pending += line + "\n";
    std::vector<console::ScriptStatement> statements = console::SplitScript(pending, "<stdin>");
    std::string rest;
    for (console::ScriptStatement& s : statements) {
      if (!s.complete) {
        rest = s.text + "\n";
        continue;
      }
      s.location.line += pending_line - 1;
      const std::string answer = RunStatement(session, s, transcript);
      if (!answer.empty()) std::fprintf(out, "%s\n\n", answer.c_str());
    }
    pending = rest;
    std::fputs(pending.empty() ? "repartsim> " : "        -> ", out);
    std::fflush(out);
  }
  std::fputs("\n", out);
}

// Writes --trace and --json; returns `verdict`, or the exit code of an output not written.
int WriteOutputs(const SqlArgs& a, const console::Session& session, Transcript transcript,
                 int verdict) {
  std::vector<sim::Error> errors;
  if (!a.trace.empty()) {
    sim::Status st = WriteTraceFile(a.trace, a.trace_format.empty() ? "text" : a.trace_format,
                                    session.trace_lines());
    if (!st.ok()) errors.push_back(st.error());
  }
  if (!a.json.empty()) {
    const sim::RunSummary summary = session.Summary();
    nlohmann::json j;
    j["profile"] = session.profile();
    j["scenario"] = a.scenario;
    j["statements"] = std::move(transcript.statements);
    j["summary"] = {{"seed", summary.seed},
                    {"steps", summary.steps},
                    {"prng_draws", summary.prng_draws},
                    {"trace_hash", Hex64(summary.trace_hash)},
                    {"time_ms", session.now_ms()}};
    sim::Status st = WriteTextFile(a.json, sim::JsonText(j, 2) + "\n");
    if (!st.ok()) errors.push_back(st.error());
  }
  return ReportWriteErrors(errors, verdict);
}

int RunSql(const SqlArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  auto seed = ParseSeedFlag("--seed", a.seed, args);
  if (!seed.ok()) return ReportInputError(seed.error());
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  if (!a.trace_format.empty() && a.trace.empty()) {
    return ReportFlagError(args, "--trace-format needs --trace FILE");
  }
  std::optional<std::string> profile;
  if (!a.profile.empty()) profile = a.profile;
  sim::Status valid = ValidateOverrides(profile, rules.value(), args);
  if (!valid.ok()) return ReportInputError(valid.error());
  std::vector<std::string> inputs = {a.scenario};
  if (a.script != "-") inputs.push_back(a.script);
  sim::Status outputs = CheckOutputPaths({{"--trace", a.trace}, {"--json", a.json}}, args, inputs);
  if (!outputs.ok()) return ReportInputError(outputs.error());
  std::optional<scenario::Scenario> loaded;
  if (!a.scenario.empty()) {
    auto s = scenario::LoadScenarioFile(a.scenario);
    if (!s.ok()) return ReportInputError(s.error());
    loaded = std::move(s).value();
  }
  const bool from_stdin = a.script.empty() || a.script == "-";
  std::string text;
  if (!from_stdin) {
    std::FILE* f = std::fopen(a.script.c_str(), "rb");
    if (f == nullptr) return ReportInputError({{a.script, 0, 0}, "cannot read the script"});
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
  }
  console::SessionConfig config;
  config.seed = seed.value();
  config.scenario = loaded ? &*loaded : nullptr;
  config.profile = profile;
  config.rules = rules.value();
  config.keep_trace = !a.trace.empty();
  auto session = console::Session::Start(config);
  if (!session.ok()) return ReportInputError(session.error());
  Transcript transcript;
  // `--json -` or `--trace -` takes stdout; the answers then go to stderr, as with `run`.
  std::FILE* out = a.json == "-" || a.trace == "-" ? stderr : stdout;
  const bool interactive = from_stdin && ::isatty(STDIN_FILENO);
  if (interactive) {
    RunInteractive(*session.value(), out, transcript);
  } else {
    if (from_stdin) {
      std::stringstream in;
      in << std::cin.rdbuf();
      text = in.str();
    }
    RunScript(*session.value(), text, from_stdin ? "<stdin>" : a.script, out, transcript);
  }
  // A terminal session went on past a refused statement; a script says so in its exit code.
  const int verdict = transcript.refused && !interactive ? kExitUsage : kExitPass;
  return WriteOutputs(a, *session.value(), std::move(transcript), verdict);
}

}  // namespace

void AddSqlVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<SqlArgs>();
  CLI::App* sub = app.add_subcommand(
      "sql", "A SQL console on a simulated cluster, answering as GreptimeDB's client prints");
  sub->add_option("script", a->script,
                  "SQL script ('-' or none: stdin; read statement by statement on a terminal)");
  sub->add_option("--scenario", a->scenario,
                  "Take the cluster, profile, rules and faults of this scenario (not its table "
                  "or steps); default: 3 datanodes, 2 frontends, no faults, greptime profile");
  sub->add_option("--seed", a->seed, "Seed of the session, 0 to 2^64-1 (default 0)");
  sub->add_option("--profile", a->profile,
                  "Protocol profile: greptime or reference (default: the scenario's, else "
                  "greptime)");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--trace", a->trace,
                  "Write the session's trace to FILE ('-' = stdout; the answers then go to "
                  "stderr)");
  sub->add_option("--trace-format", a->trace_format, "text (default) or jsonl")
      ->check(CLI::IsMember({"text", "jsonl"}));
  sub->add_option("--json", a->json,
                  "Write the statements, their answers and the summary line's fields to FILE "
                  "as JSON ('-' = stdout; the answers then go to stderr)");
  sub->footer(
      "Exit codes: 0 every statement ran (an answer may be an error, as in a sqlness case),\n"
      "64 a statement did not parse or is not one the console runs (printed as GreptimeDB's\n"
      "error and on stderr as file:line:col; a script still runs to its end, a terminal\n"
      "session goes on and exits 0), or bad flags,\n"
      "73 an output could not be written.");
  sub->callback([a, exit_code] { *exit_code = RunSql(*a); });
}

}  // namespace repartsim::tools
