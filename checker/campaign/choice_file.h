// The choice file: every decision a run took (sim::ChoiceList text), preceded by comment lines
// that make it self-contained, so `replay` and `shrink` need nothing else:
//   # repartsim choices
//   # scenario=<path, quoted when needed: HeaderValue> seed=<n> profile=<p> rules=<overrides or ->
//   trace_hash=0x<16 hex>
// A header word that is missing leaves its field empty (the verbs then ask for the flag), but
// for the scenario: a file without it is a located error, as is a header word that is
// unreadable (seed=-3, a short trace_hash, rules=x) and every error in the choice list itself
// (sim::ChoiceList::Parse).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/run/runner.h"
#include "sim/choice_list.h"
#include "sim/result.h"

namespace repartsim::campaign {

struct ChoicesFile {
  sim::ChoiceList choices;
  std::string scenario;
  std::optional<uint64_t> seed;
  std::optional<std::string> profile;
  std::vector<std::pair<std::string, bool>> rules;
  std::optional<uint64_t> trace_hash;
};

// `value` as a header value: unchanged when it is not empty and holds no space, '"', '\\' or
// control byte; else in double quotes, with \" \\ \n \t and \xHH (other control bytes)
// escaped, so a scenario path with a space or a newline stays one header word.
std::string HeaderValue(std::string_view value);

// The file's text for one run: the header, then report.choices.
std::string ChoicesText(const run::RunReport& report);

// `text` (a scenario name, a profile) as one component of a default output file name: ASCII
// letters, digits, '.', '_' and '-' kept, every other byte '_', a leading '.' made '_', at most
// 64 bytes; "_" when empty. A name such as "../x" or one with a newline or a terminal escape
// cannot reach the file system as such.
std::string FileNamePart(std::string_view text);

// `--choices` if given; else next to --json (x.json -> x.choices); else
// "repartsim-<name>-<profile>-<seed>.choices".
std::string ChoicesPath(const std::string& choices_flag, const std::string& json_flag,
                        const std::string& scenario_name, const std::string& profile,
                        uint64_t seed);

// Reads a choice file's `text`; errors are located in `file`.
sim::Result<ChoicesFile> ParseChoicesFile(const std::string& text, const std::string& file);
// Reads (sim::ReadInputFile, at most sim::kChoiceFileBytesMax) and parses the file at `path`.
sim::Result<ChoicesFile> ReadChoicesFile(const std::string& path);

// A choice file only replays the run it recorded. Why `file` (named `name` on the command
// line) cannot stand for a run of `scenario_path` under the --profile flag `profile` ("" none)
// and the --rule flags `rules` (empty none): another scenario (also when the header names
// none), another profile, other rule overrides. nullopt when it can; `verb` names the command
// the message suggests instead.
struct ChoicesMismatch {
  enum class Field : uint8_t { kScenario, kProfile, kRules } field;
  std::string message;
};
std::optional<ChoicesMismatch> CheckChoicesFor(
    const ChoicesFile& file, const std::string& name, const std::string& verb,
    const std::string& scenario_path, const std::string& profile,
    const std::vector<std::pair<std::string, bool>>& rules);

}  // namespace repartsim::campaign
