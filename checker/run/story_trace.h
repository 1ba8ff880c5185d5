// The trace lines a story reads (checker/run/run_story.h, story_findings.h), parsed in place:
// "<step> <time> <node> <event> <rest>", and the `key=value` fields of a line's rest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace repartsim::run {

// One trace line (views into the trace).
struct Line {
  uint64_t step = 0;
  std::string_view node;  // "n5", or "-" for a line of no node
  std::string_view event;
  std::string_view rest;
  std::string_view text;  // the whole line
};

inline uint64_t Number(std::string_view text) {
  return std::strtoull(std::string(text).c_str(), nullptr, 10);
}

inline std::optional<Line> ParseLine(std::string_view text) {
  Line line;
  line.text = text;
  std::string_view parts[4];
  size_t at = 0;
  for (std::string_view& part : parts) {
    size_t end = text.find(' ', at);
    if (end == std::string_view::npos) {  // an event with no rest ends the line
      if (&part != &parts[3] || at >= text.size()) return std::nullopt;
      end = text.size();
    }
    part = text.substr(at, end - at);
    at = std::min(end + 1, text.size());
  }
  line.step = Number(parts[0]);
  line.node = parts[2];
  line.event = parts[3];
  line.rest = text.substr(at);
  return line;
}

// The value of `key=` in `rest` (up to the next space), "" when absent.
inline std::string_view Field(std::string_view rest, std::string_view key) {
  for (size_t at = 0; at < rest.size();) {
    const size_t end = std::min(rest.find(' ', at), rest.size());
    const std::string_view word = rest.substr(at, end - at);
    if (word.size() > key.size() && word.substr(0, key.size()) == key && word[key.size()] == '=') {
      return word.substr(key.size() + 1);
    }
    at = end + 1;
  }
  return {};
}

// "3, 5, 8" (at most six, then "and N more").
inline std::string Steps(const std::vector<uint64_t>& steps) {
  constexpr size_t kListed = 6;
  std::string out;
  for (size_t i = 0; i < steps.size() && i < kListed; ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(steps[i]);
  }
  if (steps.size() > kListed) out += " and " + std::to_string(steps.size() - kListed) + " more";
  return out;
}

}  // namespace repartsim::run
