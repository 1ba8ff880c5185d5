#include "checker/campaign/choice_file.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "checker/campaign/repro_command.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/input_file.h"
#include "sim/parse_u64.h"

namespace repartsim::campaign {

std::string HeaderValue(std::string_view value) {
  const auto plain = [](char c) {
    return static_cast<unsigned char>(c) > ' ' && c != '"' && c != '\\' && c != 0x7f;
  };
  if (!value.empty() && value[0] != '"' && std::all_of(value.begin(), value.end(), plain)) {
    return std::string(value);
  }
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < ' ' || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string ChoicesText(const run::RunReport& report) {
  REPARTSIM_ASSERT(!report.path.empty());
  REPARTSIM_ASSERT(!report.profile.empty());
  return "# repartsim choices\n# scenario=" + HeaderValue(report.path) +
         " seed=" + std::to_string(report.summary.seed) + " profile=" + report.profile +
         " rules=" + (report.rules.empty() ? "-" : report.rules) +
         " trace_hash=" + sim::Hex64(report.summary.trace_hash) + "\n" + report.choices.ToText();
}

std::string FileNamePart(std::string_view text) {
  constexpr size_t kBytesMax = 64;
  std::string out;
  for (const char c : text.substr(0, kBytesMax)) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    out += keep ? c : '_';
  }
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  REPARTSIM_ASSERT(out.size() <= kBytesMax + 1);
  return out;
}

std::string ChoicesPath(const std::string& choices_flag, const std::string& json_flag,
                        const std::string& scenario_name, const std::string& profile,
                        uint64_t seed) {
  if (!choices_flag.empty()) return choices_flag;
  if (!json_flag.empty()) {
    const size_t dot = json_flag.rfind(".json");
    if (dot != std::string::npos && dot + 5 == json_flag.size()) {
      return json_flag.substr(0, dot) + ".choices";
    }
    return json_flag + ".choices";
  }
  return "repartsim-" + FileNamePart(scenario_name) + "-" + FileNamePart(profile) + "-" +
         std::to_string(seed) + ".choices";
}

namespace {

// "a=off,b=on" -> {{"a", false}, {"b", true}}; nullopt when an item is not NAME=on|off.
std::optional<std::vector<std::pair<std::string, bool>>> ParseRules(const std::string& value) {
  std::vector<std::pair<std::string, bool>> rules;
  std::istringstream items(value);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t q = item.find('=');
    if (q == 0 || q == std::string::npos) return std::nullopt;
    const std::string state = item.substr(q + 1);
    if (state != "on" && state != "off") return std::nullopt;
    rules.emplace_back(item.substr(0, q), state == "on");
  }
  return rules;
}

// One word of the header line: KEY=VALUE into `out`; an error names the word's column.
std::optional<sim::Error> HeaderWord(const std::string& key, const std::string& value,
                                     sim::SourceLocation at, ChoicesFile& out) {
  if (key == "scenario") {
    out.scenario = value;
  } else if (key == "seed") {
    out.seed = sim::ParseU64(value);
    if (!out.seed) return sim::Error{at, "seed must be an unsigned integer, got '" + value + "'"};
  } else if (key == "profile") {
    out.profile = value;
  } else if (key == "trace_hash") {
    if (value.size() == 18 && value.rfind("0x", 0) == 0) {
      out.trace_hash = sim::ParseU64(value.substr(2), 16);
    }
    if (!out.trace_hash) {
      return sim::Error{at, "trace_hash must be 0x and 16 hex digits, got '" + value + "'"};
    }
  } else if (key == "rules") {
    if (value == "-") return std::nullopt;
    std::optional<std::vector<std::pair<std::string, bool>>> rules = ParseRules(value);
    if (!rules) return sim::Error{at, "rules must be - or NAME=on|off,..., got '" + value + "'"};
    out.rules = std::move(*rules);
  }
  return std::nullopt;
}

// The quoted header value that starts at line[*pos] == '"' (HeaderValue's form); *pos moves
// past its closing quote. nullopt when the quote is not closed or an escape is unknown.
std::optional<std::string> UnquoteHeaderValue(const std::string& line, size_t* pos) {
  REPARTSIM_ASSERT(*pos < line.size() && line[*pos] == '"');
  std::string out;
  for (size_t i = *pos + 1; i < line.size(); ++i) {
    if (line[i] == '"') {
      *pos = i + 1;
      return out;
    }
    if (line[i] != '\\') {
      out += line[i];
      continue;
    }
    if (++i == line.size()) return std::nullopt;
    const char e = line[i];
    if (e == '"' || e == '\\') {
      out += e;
    } else if (e == 'n') {
      out += '\n';
    } else if (e == 't') {
      out += '\t';
    } else if (e == 'x' && i + 2 < line.size()) {
      std::optional<uint64_t> byte = sim::ParseU64(line.substr(i + 1, 2), 16);
      if (!byte || *byte > 0xff) return std::nullopt;
      out += static_cast<char>(*byte);
      i += 2;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

sim::Result<ChoicesFile> ParseChoicesFile(const std::string& text, const std::string& file) {
  auto list = sim::ChoiceList::Parse(text, file);
  if (!list.ok()) return list.error();
  ChoicesFile out;
  out.choices = std::move(list).value();
  std::istringstream lines(text);
  std::string line;
  uint32_t line_no = 0;
  while (std::getline(lines, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a file saved with CRLF
    if (line.rfind("# scenario=", 0) != 0) continue;
    size_t pos = 2;
    while (pos < line.size()) {
      size_t end = std::min(line.find(' ', pos), line.size());
      const size_t eq = line.find('=', pos);
      if (eq >= end) {  // a word without '=' is skipped
        pos = end + 1;
        continue;
      }
      const sim::SourceLocation at{file, line_no, static_cast<uint32_t>(eq + 2)};
      std::string value = line.substr(eq + 1, end - eq - 1);
      if (eq + 1 < line.size() && line[eq + 1] == '"') {
        end = eq + 1;
        std::optional<std::string> unquoted = UnquoteHeaderValue(line, &end);
        if (!unquoted || (end < line.size() && line[end] != ' ')) {
          return sim::Error{at,
                            "a quoted header value must end in '\"' before a space or the "
                            "line's end, with escapes \\\" \\\\ \\n \\t \\xHH only"};
        }
        value = std::move(*unquoted);
      }
      if (auto error = HeaderWord(line.substr(pos, eq - pos), value, at, out)) return *error;
      pos = end + 1;
    }
    if (out.scenario.empty()) {
      return sim::Error{{file, line_no, 12}, "the header's scenario= names no file"};
    }
  }
  if (out.scenario.empty()) {
    // Without it, replay and shrink could only say the file records "scenario ''".
    return sim::Error{{file, 1, 1},
                      "no header line '# scenario=PATH seed=N profile=P rules=R': a choice file "
                      "names the run it records (run --choices writes one)"};
  }
  return out;
}

sim::Result<ChoicesFile> ReadChoicesFile(const std::string& path) {
  auto text = sim::ReadInputFile(path, sim::kChoiceFileBytesMax, "choice file");
  if (!text.ok()) return text.error();
  return ParseChoicesFile(text.value(), path);
}

std::optional<ChoicesMismatch> CheckChoicesFor(
    const ChoicesFile& file, const std::string& name, const std::string& verb,
    const std::string& scenario_path, const std::string& profile,
    const std::vector<std::pair<std::string, bool>>& rules) {
  REPARTSIM_ASSERT(!name.empty() && !verb.empty());
  std::error_code ec;  // a path that does not exist is simply not the same file
  const bool same_file = file.scenario == scenario_path ||
                         std::filesystem::equivalent(file.scenario, scenario_path, ec);
  if (file.scenario.empty() || !same_file) {
    return ChoicesMismatch{ChoicesMismatch::Field::kScenario,
                           name + " records a run of scenario '" + file.scenario + "', not '" +
                               scenario_path + "' (" + verb + ": " +
                               ShellCommand({verb, file.scenario, "--choices", name}) + ")"};
  }
  if (!profile.empty() && file.profile && *file.profile != profile) {
    return ChoicesMismatch{ChoicesMismatch::Field::kProfile,
                           name + " records a run under profile " + *file.profile + ", not " +
                               profile + " (drop --profile)"};
  }
  if (!rules.empty() && rules != file.rules) {
    return ChoicesMismatch{ChoicesMismatch::Field::kRules,
                           name + " records its own rule overrides; drop --rule"};
  }
  return std::nullopt;
}

}  // namespace repartsim::campaign
