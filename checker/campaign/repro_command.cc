#include "checker/campaign/repro_command.h"

#include <utility>

#include "sim/assert.h"

namespace repartsim::campaign {

namespace {

std::string& Name() {
  static std::string name = "repartsim";
  return name;
}

bool Plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_./=:,+-@%").find(c) != std::string_view::npos;
}

}  // namespace

void SetCommandName(std::string name) { Name() = name.empty() ? "repartsim" : std::move(name); }

std::string CommandName() { return ShellQuote(Name()); }

std::string ShellQuote(std::string_view word) {
  bool plain = !word.empty();
  for (const char c : word) plain = plain && Plain(c);
  if (plain) return std::string(word);
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";  // close, an escaped quote, reopen
    } else {
      out += c;
    }
  }
  out += "'";
  REPARTSIM_ASSERT(out.size() >= word.size() + 2);
  return out;
}

std::string ShellCommand(const std::vector<std::string>& words) {
  std::string out = CommandName();
  for (const std::string& word : words) out += " " + ShellQuote(word);
  return out;
}

std::string ReproCommand(const std::string& path, uint64_t seed, const std::string& profile,
                         const std::string& rules) {
  std::vector<std::string> words = {"run", path, "--seed", std::to_string(seed)};
  if (!profile.empty()) words.insert(words.end(), {"--profile", profile});
  size_t start = 0;
  while (start < rules.size()) {
    size_t comma = rules.find(',', start);
    if (comma == std::string::npos) comma = rules.size();
    words.insert(words.end(), {"--rule", rules.substr(start, comma - start)});
    start = comma + 1;
  }
  return ShellCommand(words);
}

std::string RunReproCommand(const std::string& path, uint64_t seed, const std::string& profile,
                            const std::vector<std::pair<std::string, bool>>& rules) {
  std::string joined;
  for (const auto& [name, on] : rules) {
    joined += (joined.empty() ? "" : ",") + name + (on ? "=on" : "=off");
  }
  REPARTSIM_ASSERT(!profile.empty());
  return ReproCommand(path, seed, profile, joined);
}

}  // namespace repartsim::campaign
