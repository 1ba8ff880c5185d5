#include "sim/input_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace repartsim::sim {

namespace {

Error FileError(const std::string& path, std::string message) {
  return Error{SourceLocation{path, 0, 0}, std::move(message)};
}

// Closes a descriptor on every return path.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Result<std::string> ReadInputFile(const std::string& path, size_t max_bytes,
                                  std::string_view what) {
  REPARTSIM_ASSERT(max_bytes > 0);
  REPARTSIM_ASSERT(!what.empty());
  const std::string kind(what);
  // O_NONBLOCK so that opening a FIFO with no writer does not hang; cleared below.
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return FileError(path, "cannot read " + kind + ": " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) {
    return FileError(path, "cannot read " + kind + ": " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return FileError(path, "is a directory, not a " + kind);
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) {
    return FileError(path, kind + " of " + std::to_string(st.st_size) +
                               " bytes exceeds the limit of " + std::to_string(max_bytes) +
                               " bytes");
  }
  if (S_ISFIFO(st.st_mode)) {
    // Opened without waiting for a writer, a FIFO read at once gives end of file: a scenario
    // written into it a moment later read as "empty scenario". Wait for the writer's first
    // bytes or its close (Linux reports no hangup for a writer that never came), bounded.
    struct pollfd ready {
      fd.get(), POLLIN, 0
    };
    int n = 0;
    do {
      n = ::poll(&ready, 1, kFifoWriterWaitMs);
    } while (n < 0 && errno == EINTR);
    if (n == 0) {
      return FileError(path, kind + " is a FIFO that no writer opened within " +
                                 std::to_string(kFifoWriterWaitMs / 1000) + " s");
    }
  }
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  std::string text;
  text.resize(S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) + 1 : 64 * 1024);
  size_t used = 0;
  for (;;) {
    if (used == text.size()) {
      if (text.size() > max_bytes) break;
      text.resize(std::min(text.size() * 2, max_bytes + 1));
    }
    const ssize_t n = ::read(fd.get(), text.data() + used, text.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return FileError(path, "cannot read " + kind + ": " + std::strerror(errno));
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  if (used > max_bytes) {
    return FileError(path,
                     kind + " is longer than the limit of " + std::to_string(max_bytes) + " bytes");
  }
  text.resize(used);
  REPARTSIM_ASSERT(text.size() <= max_bytes);
  return text;
}

}  // namespace repartsim::sim
