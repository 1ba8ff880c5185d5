#include "checker/campaign/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "sim/assert.h"

namespace repartsim::campaign {

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
  REPARTSIM_ASSERT(!path.empty());
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

std::optional<std::string> OutputPathProblem(const std::string& path) {
  REPARTSIM_ASSERT(!path.empty());
  if (path == "-") return std::nullopt;
  auto problem = [&](int error) { return "cannot write " + path + ": " + std::strerror(error); };
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return problem(EISDIR);
    if (!S_ISREG(st.st_mode)) {  // a device or FIFO: written in place
      const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0 && errno != ENXIO) return problem(errno);
      if (fd >= 0) ::close(fd);
      return std::nullopt;
    }
  }
  // The report goes to a temporary file next to `path`: try creating one (access() says
  // yes to root even where nothing can be created).
  const std::string probe = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return problem(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return std::nullopt;
}

std::optional<OutputProblem> CheckOutputFiles(const std::vector<OutputFile>& outputs) {
  std::vector<std::pair<std::string, size_t>> seen;  // resolved path, output index
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& out = outputs[i];
    if (out.path.empty()) continue;
    REPARTSIM_ASSERT(!out.flag.empty());
    if (std::optional<std::string> problem = OutputPathProblem(out.path)) {
      return OutputProblem{i, true, std::move(*problem)};
    }
    std::error_code ec;
    std::string resolved =
        out.path == "-" ? "-" : std::filesystem::weakly_canonical(out.path, ec).string();
    if (ec) resolved = out.path;
    for (const auto& [other, first] : seen) {
      if (other != resolved) continue;
      const std::string& first_flag = outputs[first].flag;
      return OutputProblem{
          i, false,
          out.path == "-"
              ? out.flag + " - and " + first_flag + " - cannot both write to stdout"
              : out.flag + " names the same file as " + first_flag + " (" + out.path + ")"};
    }
    seen.emplace_back(std::move(resolved), i);
  }
  return std::nullopt;
}

}  // namespace repartsim::campaign
