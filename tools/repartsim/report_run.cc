#include "tools/repartsim/report_run.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/campaign/run_text.h"
#include "model/campaign/trace_format.h"
#include "model/check/violation.h"
#include "model/protocol.h"
#include "sim/parse_u64.h"
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

sim::Status CheckOutputPaths(const std::vector<OutputFile>& outputs,
                             const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, const OutputFile*>> seen;  // resolved path, output
  for (const OutputFile& out : outputs) {
    if (out.path.empty()) continue;
    REPARTSIM_ASSERT(!out.flag.empty());
    sim::Status st = CheckOutputPath(out.path, args);
    if (!st.ok()) return st;
    std::error_code ec;
    const std::string resolved =
        out.path == "-" ? "-" : std::filesystem::weakly_canonical(out.path, ec).string();
    for (const auto& [other, first] : seen) {
      if (other != (ec ? out.path : resolved)) continue;
      if (out.path == "-") {
        return FlagError(args, out.flag,
                         out.flag + " - and " + first->flag + " - cannot both write to stdout");
      }
      return FlagError(args, out.flag,
                       out.flag + " names the same file as " + first->flag + " (" + out.path + ")");
    }
    seen.emplace_back(ec ? out.path : resolved, &out);
  }
  return sim::Ok{};
}

int ReportWriteError(const sim::Error& error, int verdict) {
  std::fprintf(stderr, "%s\n", error.Format().c_str());
  return verdict != kExitPass ? verdict : kExitCantCreate;
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
  const std::string text = campaign::TraceText(lines, format);
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return sim::Ok{};
  }
  return WriteTextFile(path, text);
}

void PrintRunReport(std::FILE* out, const scenario::Scenario& s, const run::RunReport& r,
                    size_t violations_max) {
  const std::string text = campaign::RunReportText(s, r, violations_max);
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace repartsim::tools
