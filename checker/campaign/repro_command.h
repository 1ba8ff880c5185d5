// The commands a report prints for a person to paste into a shell: `repro: ... run PATH --seed
// N --profile P [--rule name=on|off]...`, `replay: ... replay PATH --choices FILE`. They start
// with the command name the binary was started with (SetCommandName, from argv[0]: the path a
// person typed, such as `build/repartsim`, or `repartsim` when it came from PATH), so a command
// copied from the output runs in the directory where it was printed; every word is quoted for
// a POSIX shell when it needs to be. In process (tests, fuzz targets) the name is `repartsim`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace repartsim::campaign {

// Sets the command name every later repro starts with; "" restores `repartsim`. Called once
// by main before any report is made (forked workers inherit it).
void SetCommandName(std::string name);
// The command name, shell-quoted.
std::string CommandName();

// `word` as one word of a POSIX shell command: unchanged when it holds only characters no
// shell treats specially (letters, digits and `_./=:,+-@%`), else in single quotes.
std::string ShellQuote(std::string_view word);

// CommandName() + " " + each of `words`, quoted.
std::string ShellCommand(const std::vector<std::string>& words);

// The command that reproduces one run: `<name> run PATH --seed N [--profile P] [--rule R]...`;
// `rules` as a sweep records them ("a=off,b=on", "" for none).
std::string ReproCommand(const std::string& path, uint64_t seed, const std::string& profile,
                         const std::string& rules);
// The same with the rules as (name, on) pairs.
std::string RunReproCommand(const std::string& path, uint64_t seed, const std::string& profile,
                            const std::vector<std::pair<std::string, bool>>& rules);

}  // namespace repartsim::campaign
