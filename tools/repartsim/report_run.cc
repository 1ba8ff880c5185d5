#include "tools/repartsim/report_run.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/campaign/parse_u64.h"
#include "model/check/violation.h"
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

std::string ChoicesPath(const std::string& choices_flag, const std::string& json_flag,
                        const std::string& scenario_name, const std::string& profile,
                        uint64_t seed) {
  if (!choices_flag.empty()) return choices_flag;
  if (!json_flag.empty()) {
    const size_t dot = json_flag.rfind(".json");
    if (dot != std::string::npos && dot + 5 == json_flag.size()) {
      return json_flag.substr(0, dot) + ".choices";
    }
    return json_flag + ".choices";
  }
  return "repartsim-" + scenario_name + "-" + profile + "-" + std::to_string(seed) + ".choices";
}

namespace {

sim::Error WriteError(const std::string& path, int error) {
  return sim::Error{sim::SourceLocation{path, 0, 0},
                    std::string("cannot write the report: ") + std::strerror(error)};
}

// Writes all of `text` to `fd`, then fsyncs (when `sync`) and closes it; returns errno or 0.
int WriteAll(int fd, const std::string& text, bool sync) {
  for (size_t off = 0; off < text.size();) {
    const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      return error;
    }
    off += static_cast<size_t>(n);
  }
  if (sync && ::fsync(fd) != 0 && errno != EINVAL) {
    const int error = errno;
    ::close(fd);
    return error;
  }
  return ::close(fd) == 0 ? 0 : errno;
}

}  // namespace

sim::Status WriteTextFile(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fflush(stdout);
    const int error = WriteAll(::dup(1), text, false);
    if (error != 0) return WriteError("<stdout>", error);
    return sim::Ok{};
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return WriteError(path, errno);
    const int error = WriteAll(fd, text, true);
    if (error != 0) return WriteError(path, error);
    return sim::Ok{};
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return WriteError(path, errno);
  int error = WriteAll(fd, text, true);
  if (error == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(tmp.c_str());
    return WriteError(path, error);
  }
  return sim::Ok{};
}

sim::Status CheckOutputPath(const std::string& path, const std::vector<std::string>& args) {
  if (path == "-") return sim::Ok{};
  auto fail = [&](int error) {
    return FlagError(args, path, "cannot write " + path + ": " + std::strerror(error));
  };
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return fail(EISDIR);
    if (!S_ISREG(st.st_mode)) {  // a device or FIFO: written in place
      const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0 && errno != ENXIO) return fail(errno);
      if (fd >= 0) ::close(fd);
      return sim::Ok{};
    }
  }
  // The report goes to a temporary file next to `path`: try creating one (access() says
  // yes to root even where nothing can be created).
  const std::string probe = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return fail(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return sim::Ok{};
}

int ReportWriteError(const sim::Error& error, int verdict) {
  std::fprintf(stderr, "%s\n", error.Format().c_str());
  return verdict != kExitPass ? verdict : kExitCantCreate;
}

sim::Result<uint64_t> ParseSeedFlag(const std::string& flag, const std::string& text,
                                    const std::vector<std::string>& args) {
  std::optional<uint64_t> seed = campaign::ParseU64(text);
  if (!seed) {
    return FlagError(args, text,
                     flag + " expects a non-negative integer below 2^64, got '" + text + "'");
  }
  return *seed;
}

sim::Status WriteChoicesFile(const std::string& path, const scenario::RunReport& report) {
  std::string text = "# repartsim choices\n# scenario=" + report.path +
                     " seed=" + std::to_string(report.summary.seed) + " profile=" + report.profile +
                     " rules=" + (report.rules.empty() ? "-" : report.rules) +
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
      if (key == "seed") file.seed = campaign::ParseU64(value);
      if (key == "profile") file.profile = value;
      if (key == "trace_hash") file.trace_hash = campaign::ParseU64(value, 16);
      if (key == "rules" && value != "-") {
        std::istringstream items(value);
        std::string item;
        while (std::getline(items, item, ',')) {
          const size_t q = item.find('=');
          if (q != std::string::npos)
            file.rules.emplace_back(item.substr(0, q), item.substr(q + 1) == "on");
        }
      }
    }
  }
  return file;
}

namespace {

// The detail's words, a parenthesised group kept in one word ("4398046511104(1024, 0)").
// Splits a detail into words at spaces outside parentheses and double quotes (a region id
// "4398046511104(1024, 0)" and a quoted value `sql="SELECT 1"` are one word each).
std::vector<std::string> DetailWords(const std::string& detail) {
  std::vector<std::string> words;
  std::string word;
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < detail.size(); ++i) {
    const char c = detail[i];
    if (quoted) {
      word += c;
      if (c == '\\' && i + 1 < detail.size()) {
        word += detail[++i];
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == ' ' && depth == 0) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    if (c == '"') quoted = true;
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    word += c;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// A value as JSON: a decimal integer as a number, a double-quoted text as its unescaped
// string (a text cut at the trace's capacity has no closing quote), anything else as a string.
nlohmann::json TypedValue(const std::string& text) {
  if (!text.empty() && text[0] == '"') {
    std::string out;
    for (size_t i = 1; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (text[i] == '"' && i + 1 == text.size()) {
        break;
      } else {
        out += text[i];
      }
    }
    return out;
  }
  if (auto n = campaign::ParseU64(text)) return *n;
  if (text.size() > 1 && text[0] == '-') {
    if (auto n = campaign::ParseU64(text.substr(1)); n && *n <= static_cast<uint64_t>(INT64_MAX)) {
      return -static_cast<int64_t>(*n);
    }
  }
  return text;
}

}  // namespace

std::vector<std::string_view> TracePositionalNames(std::string_view kind) {
  struct Names {
    std::string_view kind;
    std::vector<std::string_view> names;
  };
  static const std::vector<Names> kNames = {
      {"recv", {"msg"}},
      {"net.cut", {"msg"}},
      {"net.rule", {"action", "msg", "link"}},
      {"net.release", {"msg", "link"}},
      {"net.behind_held", {"msg", "link"}},
      {"net.reconnect", {"link"}},
      {"net.reset", {"link"}},
      {"op", {"op"}},
      {"op.disarmed", {"op"}},
      {"crash", {"name"}},
      {"restart", {"name"}},
      {"crash_point", {"site"}},
      {"ms.submit", {"type"}},
      {"ms.state_passed", {"state"}},
      {"ms.region_request", {"op"}},
      {"dn.region_op", {"op", "region", "code"}},
      {"dn.flush", {"region", "code"}},
      {"dn.lease_expired", {"region"}},
      {"dn.close_region", {"region"}},
      {"dn.accepted_outside", {"region"}},
      {"dn.stale_lease_ignored", {"region"}},
      {"fe.write_done", {"status"}},
      {"fe.ddl_done", {"ddl"}},
      {"fe.ddl_rejected", {"ddl"}},
      {"fe.ddl_resubmit", {"ddl"}},
  };
  for (const Names& n : kNames) {
    if (n.kind == kind) return n.names;
  }
  return {};
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
  j["step"] = campaign::ParseU64(fields[0]).value_or(0);
  j["time_ms"] = campaign::ParseU64(fields[1]).value_or(0);
  j["node"] = fields[2];
  j["kind"] = fields[3];
  const std::string detail = pos < line.size() ? line.substr(pos) : "";
  // The detail, typed: key=value words as fields (integers as numbers, quoted text
  // unescaped); the leading bare words of a kind get their names (TracePositionalNames); the
  // remaining bare words, free text with no structure, join as "text".
  nlohmann::json typed = nlohmann::json::object();
  const std::vector<std::string_view> names = TracePositionalNames(fields[3]);
  size_t positional = 0;
  std::string text;
  for (const std::string& word : DetailWords(detail)) {
    const size_t eq = word.find('=');
    if (eq != std::string::npos && eq > 0 && word.find('(') > eq && word.find('"') > eq) {
      typed[word.substr(0, eq)] = TypedValue(word.substr(eq + 1));
    } else if (text.empty() && positional < names.size()) {
      std::string value = word;
      if (value.size() > 1 && value.back() == ':') value.pop_back();  // "failed: <error>"
      typed[std::string(names[positional++])] = TypedValue(value);
    } else {
      text += (text.empty() ? "" : " ") + word;
    }
  }
  j["fields"] = typed;
  if (!text.empty()) j["text"] = text;
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

void PrintRunReport(std::FILE* out, const scenario::Scenario& s, const scenario::RunReport& r,
                    size_t violations_max) {
  std::fprintf(out, "scenario %s (%s) profile=%s rules=%s faults: %s\n", r.scenario.c_str(),
               r.path.c_str(), r.profile.c_str(), r.rules.empty() ? "-" : r.rules.c_str(),
               r.faults.c_str());
  std::fprintf(out, "%s\n", r.SummaryLine().c_str());
  std::fprintf(out, "end: %s at t=%lld ms (faults healed at t=%lld ms, step %llu)\n",
               r.end_reason.c_str(), static_cast<long long>(r.time_ms),
               static_cast<long long>(r.heal_time_ms),
               static_cast<unsigned long long>(r.heal_step));
  const auto& h = r.history;
  std::fprintf(out,
               "history: writes=%llu acked=%llu rejected=%llu unknown=%llu pending=%llu "
               "queries=%llu ok=%llu failed=%llu ddls=%llu done=%llu failed=%llu rejected=%llu "
               "unknown=%llu\n",
               (unsigned long long)h.writes, (unsigned long long)h.acked,
               (unsigned long long)h.rejected, (unsigned long long)h.unknown,
               (unsigned long long)h.pending, (unsigned long long)h.queries,
               (unsigned long long)h.queries_ok, (unsigned long long)h.queries_failed,
               (unsigned long long)h.ddls, (unsigned long long)h.ddls_done,
               (unsigned long long)h.ddls_failed, (unsigned long long)h.ddls_rejected,
               (unsigned long long)h.ddls_unknown);
  std::fprintf(out,
               "probes: rows=%llu acked=%llu writes=%llu (liveness write probes, in history)\n",
               (unsigned long long)h.probes, (unsigned long long)h.probes_acked,
               (unsigned long long)h.probe_writes);
  if (auto e = s.ExpectationFor(r.profile, r.rules)) {
    std::string why;
    for (const std::string& name : r.Unexpected(*e))
      why += (why.empty() ? " (unexpected " : ", ") + name;
    if (!why.empty()) why += ")";
    const std::string whose = s.RuleExpectationFor(r.profile, r.rules) != nullptr
                                  ? r.profile + " with " + r.rules
                                  : r.profile;
    std::fprintf(out, "expect (%s): %s -> %s%s\n", whose.c_str(), e->ToString().c_str(),
                 r.Meets(*e) ? "met" : "NOT met", why.c_str());
  }
  if (!r.nondeterminism.empty())
    std::fprintf(out, "nondeterminism: %s\n", r.nondeterminism.c_str());
  // Decisive violations come first (RunReport::violations is sorted so); the rest are counted.
  // Each violation's context shows only the related lines no earlier violation showed; the
  // others are referred to by count.
  std::set<std::string> shown;
  for (size_t i = 0; i < r.violations.size() && i < violations_max; ++i) {
    check::Violation v = r.violations[i];
    const size_t related = v.trace.size();
    std::erase_if(v.trace, [&](const std::string& line) { return !shown.insert(line).second; });
    std::string again;
    if (v.trace.size() < related) {
      again = "  trace: (" + std::string(v.trace.empty() ? "the " : "and ") +
              std::to_string(related - v.trace.size()) +
              " related lines shown under earlier violations)\n";
    }
    std::fprintf(out, "%s%s\n", v.ToText().c_str(), again.c_str());
  }
  if (r.violations.size() > violations_max) {
    std::map<std::string, size_t> rest;
    for (size_t i = violations_max; i < r.violations.size(); ++i) {
      ++rest[std::string(check::InvariantName(r.violations[i].invariant))];
    }
    std::string counts;
    for (const auto& [name, n] : rest)
      counts += (counts.empty() ? "" : ", ") + name + " " + std::to_string(n);
    std::fprintf(out, "... and %zu more violations: %s (see --json, or --violations-max)\n",
                 r.violations.size() - violations_max, counts.c_str());
  }
  check::Report all;
  all.Add(r.violations);
  const std::string summary = all.ToText();
  std::fprintf(out, "%s", summary.substr(summary.rfind("violations: ")).c_str());
}

int ExitCodeFor(scenario::Outcome outcome) {
  switch (outcome) {
    case scenario::Outcome::kPass:
      return kExitPass;
    case scenario::Outcome::kSafety:
      return kExitSafety;
    case scenario::Outcome::kLiveness:
      return kExitLiveness;
    case scenario::Outcome::kNondeterminism:
      return kExitNondeterminism;
  }
  return kExitInternal;
}

}  // namespace repartsim::tools
