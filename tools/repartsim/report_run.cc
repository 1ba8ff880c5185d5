#include "tools/repartsim/report_run.h"

#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/protocol.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"

namespace repartsim::tools {

namespace {

sim::Error FlagError(const std::vector<std::string>& args, const std::string& token,
                     std::string message) {
  return sim::Error{sim::SourceLocation{"<command line>", 1, ArgumentColumn(args, token)},
                    std::move(message)};
}

std::optional<uint64_t> ParseU64(std::string_view text, int base = 10) {
  if (base == 16 && text.substr(0, 2) == "0x") text.remove_prefix(2);
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
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

std::string Hex64(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%016llx", static_cast<unsigned long long>(value));
  return buf;
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

std::string ChoicesPath(const std::string& choices_flag, const std::string& json_flag,
                        const std::string& scenario_name, uint64_t seed) {
  if (!choices_flag.empty()) return choices_flag;
  if (!json_flag.empty()) {
    const size_t dot = json_flag.rfind(".json");
    if (dot != std::string::npos && dot + 5 == json_flag.size()) {
      return json_flag.substr(0, dot) + ".choices";
    }
    return json_flag + ".choices";
  }
  return "repartsim-" + scenario_name + "-" + std::to_string(seed) + ".choices";
}

sim::Status WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (out) out << text;
  if (!out) return sim::Error{sim::SourceLocation{path, 0, 0}, "cannot write " + path};
  return sim::Ok{};
}

sim::Status WriteChoicesFile(const std::string& path, const scenario::RunReport& report) {
  std::string text = "# repartsim choices\n# scenario=" + report.path +
                     " seed=" + std::to_string(report.summary.seed) + " profile=" +
                     report.profile + " rules=" + (report.rules.empty() ? "-" : report.rules) +
                     " trace_hash=" + Hex64(report.summary.trace_hash) + "\n";
  text += report.choices.ToText();
  return WriteTextFile(path, text);
}

sim::Result<ChoicesFile> ReadChoicesFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return sim::Error{sim::SourceLocation{path, 0, 0}, "choices: cannot read file"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  auto list = sim::ChoiceList::Parse(text, path);
  if (!list.ok()) return list.error();
  ChoicesFile file;
  file.choices = std::move(list).value();
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# scenario=", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    std::string word;
    while (words >> word) {
      const size_t eq = word.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = word.substr(0, eq);
      const std::string value = word.substr(eq + 1);
      if (key == "scenario") file.scenario = value;
      if (key == "seed") file.seed = ParseU64(value);
      if (key == "profile") file.profile = value;
      if (key == "trace_hash") file.trace_hash = ParseU64(value, 16);
      if (key == "rules" && value != "-") {
        std::istringstream items(value);
        std::string item;
        while (std::getline(items, item, ',')) {
          const size_t q = item.find('=');
          if (q != std::string::npos) file.rules.emplace_back(item.substr(0, q), item.substr(q + 1) == "on");
        }
      }
    }
  }
  return file;
}

std::string TraceLineJson(const std::string& line) {
  // "<step> <time_ms> <node> <kind> [<detail>]"
  std::string fields[4];
  size_t pos = 0;
  for (std::string& f : fields) {
    const size_t space = line.find(' ', pos);
    f = line.substr(pos, space == std::string::npos ? std::string::npos : space - pos);
    pos = space == std::string::npos ? line.size() : space + 1;
  }
  nlohmann::json j;
  j["step"] = ParseU64(fields[0]).value_or(0);
  j["time_ms"] = ParseU64(fields[1]).value_or(0);
  j["node"] = fields[2];
  j["kind"] = fields[3];
  j["detail"] = pos < line.size() ? line.substr(pos) : "";
  return j.dump();
}

sim::Status WriteTraceFile(const std::string& path, const std::string& format,
                           const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) {
    text += format == "jsonl" ? TraceLineJson(line) : line;
    text += '\n';
  }
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return sim::Ok{};
  }
  return WriteTextFile(path, text);
}

void PrintRunReport(std::FILE* out, const scenario::Scenario& s,
                    const scenario::RunReport& r, size_t violations_max) {
  std::fprintf(out, "scenario %s (%s) profile=%s rules=%s faults: %s\n", r.scenario.c_str(),
               r.path.c_str(), r.profile.c_str(), r.rules.empty() ? "-" : r.rules.c_str(),
               r.faults.c_str());
  std::fprintf(out, "%s\n", r.SummaryLine().c_str());
  std::fprintf(out, "end: %s at t=%lld ms (faults healed at t=%lld ms, step %llu)\n",
               r.end_reason.c_str(), static_cast<long long>(r.time_ms),
               static_cast<long long>(r.heal_time_ms), static_cast<unsigned long long>(r.heal_step));
  const auto& h = r.history;
  std::fprintf(out,
               "history: writes=%llu acked=%llu rejected=%llu unknown=%llu pending=%llu "
               "queries=%llu ok=%llu failed=%llu ddls=%llu done=%llu failed=%llu rejected=%llu\n",
               (unsigned long long)h.writes, (unsigned long long)h.acked,
               (unsigned long long)h.rejected, (unsigned long long)h.unknown,
               (unsigned long long)h.pending,
               (unsigned long long)h.queries, (unsigned long long)h.queries_ok,
               (unsigned long long)h.queries_failed, (unsigned long long)h.ddls,
               (unsigned long long)h.ddls_done, (unsigned long long)h.ddls_failed,
               (unsigned long long)h.ddls_rejected);
  std::fprintf(out, "probes: rows=%llu acked=%llu writes=%llu (liveness write probes, in history)\n",
               (unsigned long long)h.probes, (unsigned long long)h.probes_acked,
               (unsigned long long)h.probe_writes);
  if (auto e = s.ExpectationFor(r.profile)) {
    std::fprintf(out, "expect (%s): %s -> %s\n", r.profile.c_str(), e->ToString().c_str(),
                 r.Meets(*e) ? "met" : "NOT met");
  }
  if (!r.nondeterminism.empty()) std::fprintf(out, "nondeterminism: %s\n", r.nondeterminism.c_str());
  for (size_t i = 0; i < r.violations.size() && i < violations_max; ++i) {
    std::fprintf(out, "%s\n", r.violations[i].ToText().c_str());
  }
  if (r.violations.size() > violations_max) {
    std::fprintf(out, "... and %zu more violations (see --json)\n",
                 r.violations.size() - violations_max);
  }
  std::fprintf(out, "violations: %zu\n", r.violations.size());
}

int ExitCodeFor(scenario::Outcome outcome) {
  switch (outcome) {
    case scenario::Outcome::kPass: return kExitPass;
    case scenario::Outcome::kSafety: return kExitSafety;
    case scenario::Outcome::kLiveness: return kExitLiveness;
    case scenario::Outcome::kNondeterminism: return kExitNondeterminism;
  }
  return kExitInternal;
}

}  // namespace repartsim::tools
