#include "tools/repartsim/report_run.h"

#include <algorithm>
#include <fstream>

#include "checker/check/violation.h"
#include "checker/report/run_text.h"
#include "checker/report/trace_format.h"
#include "model/protocol/protocol.h"
#include "sim/parse_u64.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/colour.h"
#include "tools/repartsim/exit_code.h"

namespace repartsim::tools {

namespace {

sim::Error FlagError(const std::vector<std::string>& args, const std::string& token,
                     std::string message) {
  return sim::Error{sim::SourceLocation{"<command line>", 1, ArgumentColumn(args, token)},
                    std::move(message)};
}

}  // namespace

std::vector<std::string> CommandLineArgs() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
  if (!args.empty()) args.erase(args.begin());
  return args;
}

sim::Result<std::vector<std::pair<std::string, bool>>> ParseRuleFlags(
    const std::vector<std::string>& flags, const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, bool>> out;
  for (const std::string& flag : flags) {
    const size_t eq = flag.find('=');
    const std::string value = eq == std::string::npos ? "" : flag.substr(eq + 1);
    std::optional<bool> on;
    if (value == "on" || value == "true" || value == "1") on = true;
    if (value == "off" || value == "false" || value == "0") on = false;
    if (eq == std::string::npos || eq == 0 || !on) {
      return FlagError(args, flag, "--rule expects name=on|off, got '" + flag + "'");
    }
    out.emplace_back(flag.substr(0, eq), *on);
  }
  return out;
}

sim::Status ValidateOverrides(const std::optional<std::string>& profile,
                              const std::vector<std::pair<std::string, bool>>& rules,
                              const std::vector<std::string>& args) {
  if (profile && !model::Protocol::FromProfileName(*profile).ok()) {
    return FlagError(args, *profile,
                     "unknown profile '" + *profile + "'; expected greptime or reference");
  }
  model::Protocol probe;
  for (const auto& [name, on] : rules) {
    sim::Status status = probe.SetByName(name, on);
    if (!status.ok()) {
      return FlagError(args, name + (on ? "=on" : "=off"), status.error().message);
    }
  }
  return sim::Ok{};
}

sim::Status CheckOutputPath(const std::string& flag, const std::string& path,
                            const std::vector<std::string>& args,
                            const std::vector<std::string>& inputs) {
  return CheckOutputPaths({{flag, path}}, args, inputs);
}

namespace {

// The argument a problem with `out` points at: its path as given; for a path the verb made
// from the flag's value (explore's PREFIX.choices), that value; else the flag.
std::string OutputArgument(const std::vector<std::string>& args, const OutputFile& out,
                           bool at_path) {
  if (!at_path) return out.flag;
  if (std::find(args.begin(), args.end(), out.path) != args.end()) return out.path;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == out.flag && i + 1 < args.size()) return args[i + 1];
    if (args[i].rfind(out.flag + "=", 0) == 0) return args[i].substr(out.flag.size() + 1);
  }
  return out.flag;
}

}  // namespace

sim::Status CheckOutputPaths(const std::vector<OutputFile>& outputs,
                             const std::vector<std::string>& args,
                             const std::vector<std::string>& inputs) {
  if (std::optional<campaign::OutputProblem> p = campaign::CheckOutputFiles(outputs, inputs)) {
    const OutputFile& out = outputs[p->index];
    return FlagError(args, OutputArgument(args, out, p->at_path), p->message);
  }
  return sim::Ok{};
}

int ReportWriteError(const sim::Error& error, int verdict) {
  std::fprintf(stderr, "%s\n", error.Format().c_str());
  return verdict != kExitPass ? verdict : kExitCantCreate;
}

int ReportWriteErrors(const std::vector<sim::Error>& errors, int verdict) {
  for (const sim::Error& error : errors) std::fprintf(stderr, "%s\n", error.Format().c_str());
  return errors.empty() || verdict != kExitPass ? verdict : kExitCantCreate;
}

sim::Result<uint64_t> ParseSeedFlag(const std::string& flag, const std::string& text,
                                    const std::vector<std::string>& args) {
  std::optional<uint64_t> seed = sim::ParseU64(text);
  if (!seed) {
    return FlagError(args, text,
                     flag + " expects a non-negative integer below 2^64, got '" + text + "'");
  }
  return *seed;
}

sim::Status WriteChoicesFile(const std::string& path, const run::RunReport& report) {
  return WriteTextFile(path, campaign::ChoicesText(report));
}

sim::Status WriteTraceFile(const std::string& path, const std::string& format,
                           const std::vector<std::string>& lines) {
  const std::string text = report::TraceText(lines, format);
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return sim::Ok{};
  }
  return WriteTextFile(path, text);
}

void PrintRunReport(std::FILE* out, const scenario::Scenario& s, const run::RunReport& r,
                    size_t violations_max) {
  WriteColoured(out, report::RunReportText(s, r, violations_max));
}

}  // namespace repartsim::tools
