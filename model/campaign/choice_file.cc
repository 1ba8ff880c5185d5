#include "model/campaign/choice_file.h"

#include <filesystem>
#include <sstream>

#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/parse_u64.h"

namespace repartsim::campaign {

std::string ChoicesText(const run::RunReport& report) {
  REPARTSIM_ASSERT(!report.path.empty());
  REPARTSIM_ASSERT(!report.profile.empty());
  return "# repartsim choices\n# scenario=" + report.path +
         " seed=" + std::to_string(report.summary.seed) + " profile=" + report.profile +
         " rules=" + (report.rules.empty() ? "-" : report.rules) +
         " trace_hash=" + sim::Hex64(report.summary.trace_hash) + "\n" + report.choices.ToText();
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
  return "repartsim-" + scenario_name + "-" + profile + "-" + std::to_string(seed) + ".choices";
}

namespace {

// "a=off,b=on" -> {{"a", false}, {"b", true}}; items without '=' are skipped.
std::vector<std::pair<std::string, bool>> ParseRules(const std::string& value) {
  std::vector<std::pair<std::string, bool>> rules;
  std::istringstream items(value);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t q = item.find('=');
    if (q != std::string::npos) rules.emplace_back(item.substr(0, q), item.substr(q + 1) == "on");
  }
  return rules;
}

}  // namespace

sim::Result<ChoicesFile> ParseChoicesFile(const std::string& text, const std::string& file) {
  auto list = sim::ChoiceList::Parse(text, file);
  if (!list.ok()) return list.error();
  ChoicesFile out;
  out.choices = std::move(list).value();
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# scenario=", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    std::string word;
    while (words >> word) {
      const size_t eq = word.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = word.substr(0, eq);
      const std::string value = word.substr(eq + 1);
      if (key == "scenario") out.scenario = value;
      if (key == "seed") out.seed = sim::ParseU64(value);
      if (key == "profile") out.profile = value;
      if (key == "trace_hash") out.trace_hash = sim::ParseU64(value, 16);
      if (key == "rules" && value != "-") out.rules = ParseRules(value);
    }
  }
  return out;
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
                               scenario_path + "' (" + verb + ": repartsim " + verb + " " +
                               file.scenario + " --choices " + name + ")"};
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
