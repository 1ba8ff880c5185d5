#include "checker/campaign/scenario_files.h"

#include <algorithm>
#include <filesystem>

#include "sim/assert.h"

namespace repartsim::campaign {

sim::Result<std::vector<std::string>> ScenarioFiles(const std::vector<std::string>& named,
                                                    std::string* culprit) {
  REPARTSIM_ASSERT(culprit != nullptr);
  std::vector<std::string> out;
  for (const std::string& path : named) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().extension() != ".yaml") continue;
      // The error_code form: a symlink loop (or a dangling link) must not throw.
      std::error_code entry;
      const bool file = it->is_regular_file(entry);
      if (entry) {
        *culprit = path;
        return sim::Error{{}, "cannot read " + it->path().string() + ": " + entry.message()};
      }
      if (!file && !it->is_directory(entry)) {  // a FIFO, a socket, a device
        *culprit = path;
        return sim::Error{{}, "cannot read " + it->path().string() + ": not a regular file"};
      }
      if (file) found.push_back(it->path().lexically_normal().string());
    }
    if (ec) {
      *culprit = path;
      return sim::Error{{}, "cannot read directory " + path + ": " + ec.message()};
    }
    if (found.empty()) {
      *culprit = path;
      return sim::Error{{}, "directory " + path + " holds no *.yaml scenario"};
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace repartsim::campaign
