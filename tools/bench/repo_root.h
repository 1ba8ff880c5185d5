// The repository root for benchmarks, which get no REPARTSIM_SOURCE_DIR: `file` is the
// benchmark's __FILE__, under tools/bench/ of the root. ccache's base-dir rewriting may make
// __FILE__ relative to the build directory, which is the executable's parent (build/bench/..),
// so a relative path is resolved from the executable's directory, not the working directory.
#pragma once

#include <unistd.h>

#include <string>

namespace repartsim::bench {

inline std::string RepoRoot(const std::string& file) {
  std::string root = file.substr(0, file.rfind("/tools/bench/"));
  if (!root.empty() && root[0] == '/') return root;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return root;
  std::string dir(exe, static_cast<size_t>(n));
  dir = dir.substr(0, dir.rfind('/'));  // build/bench
  return dir + "/../" + root;
}

}  // namespace repartsim::bench
