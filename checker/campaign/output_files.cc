#include "checker/campaign/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

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

// N when `name` is /dev/fd/N or /proc/self/fd/N, or 0, 1, 2 for /dev/stdin, /dev/stdout and
// /dev/stderr: a descriptor this process already holds.
std::optional<int> DescriptorName(const std::string& name) {
  if (name == "/dev/stdin") return 0;
  if (name == "/dev/stdout") return 1;
  if (name == "/dev/stderr") return 2;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) continue;
    int fd = 0;
    for (size_t i = prefix.size(); i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9' || fd > 100000) return std::nullopt;
      fd = fd * 10 + (name[i] - '0');
    }
    return fd;
  }
  return std::nullopt;
}

// The names `path` goes through when each symlink of it is followed, `path` first: at most 40
// (the kernel's limit); a loop or an unreadable link ends the list.
std::vector<std::string> LinkChain(const std::string& path) {
  std::vector<std::string> chain = {path};
  for (int hops = 0; hops < 40; ++hops) {
    const std::string& name = chain.back();
    std::error_code ec;
    if (!std::filesystem::is_symlink(name, ec)) break;
    const std::filesystem::path target = std::filesystem::read_symlink(name, ec);
    if (ec) break;
    chain.push_back(
        (target.is_absolute() ? target : std::filesystem::path(name).parent_path() / target)
            .lexically_normal()
            .string());
  }
  return chain;
}

}  // namespace

std::optional<int> OutputDescriptor(const std::string& path) {
  if (path == "-") return 1;
  for (const std::string& name : LinkChain(path)) {
    if (std::optional<int> fd = DescriptorName(name)) return fd;
  }
  return std::nullopt;
}

std::string OutputTarget(const std::string& path) { return LinkChain(path).back(); }

sim::Status WriteTextFile(const std::string& given, const std::string& text) {
  REPARTSIM_ASSERT(!given.empty());
  if (const std::optional<int> descriptor = OutputDescriptor(given)) {
    if (*descriptor == 1) std::fflush(stdout);
    if (*descriptor == 2) std::fflush(stderr);
    const int fd = ::dup(*descriptor);
    if (fd < 0) return WriteError(given == "-" ? "<stdout>" : given, errno);
    const int error = WriteAll(fd, text, false);
    if (error != 0) return WriteError(given == "-" ? "<stdout>" : given, error);
    return sim::Ok{};
  }
  // Through a symlink: the file it names is replaced, the link stays.
  const std::string path = OutputTarget(given);
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

std::optional<std::string> OutputPathProblem(const std::string& given) {
  REPARTSIM_ASSERT(!given.empty());
  auto problem = [&](int error) { return "cannot write " + given + ": " + std::strerror(error); };
  if (const std::optional<int> descriptor = OutputDescriptor(given)) {
    const int flags = ::fcntl(*descriptor, F_GETFL);
    if (flags < 0) return problem(errno);
    if ((flags & O_ACCMODE) == O_RDONLY) return problem(EBADF);
    return std::nullopt;
  }
  const std::string path = OutputTarget(given);
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

std::optional<OutputProblem> CheckOutputFiles(const std::vector<OutputFile>& outputs,
                                              const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, size_t>> seen;  // resolved path, output index
  std::vector<std::string> read;                     // the inputs, resolved
  for (const std::string& in : inputs) {
    std::error_code ec;
    const std::string resolved = std::filesystem::weakly_canonical(in, ec).string();
    if (!ec && !in.empty() && in != "-") read.push_back(resolved);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& out = outputs[i];
    if (out.path.empty()) continue;
    REPARTSIM_ASSERT(!out.flag.empty());
    if (std::optional<std::string> problem = OutputPathProblem(out.path)) {
      return OutputProblem{i, true, std::move(*problem)};
    }
    std::error_code ec;
    const std::optional<int> descriptor = OutputDescriptor(out.path);
    std::string resolved = descriptor
                               ? (*descriptor == 1 ? "-" : "fd " + std::to_string(*descriptor))
                               : std::filesystem::weakly_canonical(out.path, ec).string();
    if (ec) resolved = out.path;
    if (!descriptor && std::find(read.begin(), read.end(), resolved) != read.end()) {
      return OutputProblem{i, false,
                           out.flag + " names an input file (" + out.path +
                               "): writing it would overwrite what is read; choose another name"};
    }
    for (const auto& [other, first] : seen) {
      if (other != resolved) continue;
      const std::string& first_flag = outputs[first].flag;
      return OutputProblem{
          i, false,
          resolved == "-"
              ? out.flag + " " + out.path + " and " + first_flag + " " + outputs[first].path +
                    " cannot both write to stdout"
              : out.flag + " names the same file as " + first_flag + " (" + out.path + ")"};
    }
    seen.emplace_back(std::move(resolved), i);
  }
  return std::nullopt;
}

}  // namespace repartsim::campaign
