#include "tools/repartsim/scenario_paths.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <string_view>

#include "model/campaign/parse_u64.h"
#include "tools/repartsim/cli_error.h"

namespace repartsim::tools {

sim::Result<std::pair<uint64_t, uint64_t>> ParseRange(const std::string& text,
                                                      const std::vector<std::string>& args) {
  const size_t dots = text.find("..");
  if (dots != std::string::npos) {
    auto a = campaign::ParseU64(std::string_view(text).substr(0, dots));
    auto b = campaign::ParseU64(std::string_view(text).substr(dots + 2));
    if (a && b && *a <= *b) return std::make_pair(*a, *b);
  }
  return sim::Error{{"<command line>", 1, ArgumentColumn(args, text)},
                    "--seeds expects A..B with 0 <= A <= B < 2^64, got '" + text + "'"};
}

sim::Result<std::vector<std::string>> ExpandScenarioPaths(const std::vector<std::string>& paths,
                                                          const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".yaml") {
        found.push_back(it->path().lexically_normal().string());
      }
    }
    if (ec) {
      return sim::Error{{"<command line>", 1, ArgumentColumn(args, path)},
                        "cannot read directory " + path + ": " + ec.message()};
    }
    if (found.empty()) {
      return sim::Error{{"<command line>", 1, ArgumentColumn(args, path)},
                        "directory " + path + " holds no *.yaml scenario"};
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace repartsim::tools
