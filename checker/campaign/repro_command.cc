#include "checker/campaign/repro_command.h"

#include <algorithm>
#include <utility>

#include "sim/assert.h"
#include "sim/utf8.h"

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
  const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  if (std::any_of(word.begin(), word.end(), control)) {
    // $'...' (bash, zsh, ksh, POSIX.1-2024 sh): the control bytes written as \xHH escapes, so
    // the command neither reaches the terminal raw nor breaks across lines.
    std::string out = "$'";
    for (const char c : word) {
      if (c == '\'' || c == '\\') out += '\\';
      out += control(c) ? sim::VisibleText(std::string_view(&c, 1)) : std::string(1, c);
    }
    return out + "'";
  }
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
