#include "checker/campaign/mutation_report.h"

#include <algorithm>
#include <cstdio>

#include "checker/campaign/exit_code.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::campaign {

namespace {

std::string Seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f s", static_cast<double>(ms) / 1000.0);
  return buf;
}

using ull = unsigned long long;

std::string Row(const MutantRow& row) {
  char line[512];
  std::snprintf(line, sizeof line, "%-30s %-9s %-13s %-60s %7llu %10llu %8s\n",
                row.rule.empty() ? "(reference: all on)" : row.rule.c_str(), row.result.c_str(),
                row.Found() ? row.invariant.c_str() : "-", FoundBy(row).c_str(),
                static_cast<ull>(row.runs), static_cast<ull>(row.steps), Seconds(row.ms).c_str());
  return line;
}

// "  switch: message (repro: ...); documented: ..." for each mutant that found something.
std::string Kills(const std::vector<MutantRow>& rows) {
  std::string text;
  for (const MutantRow& row : rows) {
    if (row.rule.empty() || !row.Found()) continue;
    std::string guard = "not named in the scenario's expect.with_rules";
    if (!row.annotation.empty()) {
      guard = (row.annotation_met ? "documented: expect.with_rules says "
                                  : "NOT as documented: expect.with_rules says ") +
              row.annotation;
    }
    text += "  " + row.rule + ": " + row.message + " (repro: " + row.repro + "); " + guard + "\n";
  }
  return text;
}

// "  finding switch: path INV seeds 1,2; documented (...)" for --every-finding.
std::string Findings(const std::vector<MutantRow>& rows) {
  std::string text;
  for (const MutantRow& row : rows) {
    for (const MutantRow::Finding& f : row.findings) {
      std::string seeds;
      for (uint64_t seed : f.seeds) seeds += (seeds.empty() ? "" : ",") + std::to_string(seed);
      std::string names;
      for (const std::string& n : f.invariants) names += (names.empty() ? "" : ",") + n;
      const std::string status = f.annotation.empty() ? "undocumented"
                                 : f.Met()            ? "documented (" + f.annotation + ")"
                                                      : "NOT as documented (" + f.annotation + ")";
      text += "  finding " + (row.rule.empty() ? std::string("(reference)") : row.rule) + ": " +
              f.path + " " + names + " seeds " + seeds + "; " + status + "\n";
    }
  }
  return text;
}

// How many runs of the reference and of each capped mutant reached steps_max before their
// liveness phase ended ("" when none did).
std::string CappedText(const std::vector<MutantRow>& rows) {
  std::string text;
  const MutantRow& reference = rows.front();
  if (reference.capped > 0) {
    text += "reference: " + std::to_string(reference.capped) + " of " +
            std::to_string(reference.runs) +
            " runs capped at steps_max before their liveness phase ended (liveness not judged; "
            "not a finding)\n";
  }
  for (const MutantRow& row : rows) {
    if (row.result != "capped") continue;
    text += "capped " + row.rule + ": nothing found, but " + std::to_string(row.capped) + " of " +
            std::to_string(row.runs) +
            " runs were capped at steps_max (reference: " + std::to_string(reference.capped) +
            "): the cap may hide what it breaks; raise --steps-max\n";
  }
  return text;
}

// "  survivor X: every feature value was drawn" or "... no run drew: a=b, c=d" for each
// mutant that found nothing in a budget with `shape: swarm` scenarios.
std::string Undrawn(const std::vector<MutantRow>& rows) {
  std::string text;
  for (const MutantRow& row : rows) {
    if (row.rule.empty() || !row.shapes) continue;
    std::string missing;
    for (const std::string& f : row.features_not_drawn)
      missing += (missing.empty() ? "" : ", ") + f;
    text += "  " + row.result + " " + row.rule + ": " +
            (missing.empty() ? "its runs drew every shape feature value"
                             : "shape features no run drew: " + missing) +
            "\n";
  }
  return text;
}

}  // namespace

bool MutationScore::Below(std::optional<double> min_score) const {
  return min_score.has_value() && percent + 1e-9 < *min_score;
}

int MutationScore::ExitCode(std::optional<double> min_score) const {
  if (died) return kExitInternal;
  return !reference_clean || Below(min_score) ? kExitSafety : kExitPass;
}

std::string MutationScore::Line() const {
  char line[240];
  const std::string capped_text =
      capped == 0 ? "" : ", " + std::to_string(capped) + " capped (not killed; see above)";
  std::snprintf(line, sizeof(line),
                "mutation score: %zu/%zu killed (%.1f%%), %zu documented by the killing "
                "scenario's expect.with_rules%s%s",
                killed, total, percent, documented, capped_text.c_str(),
                reference_clean ? "" : "; reference NOT clean");
  return line;
}

MutationScore Score(const std::vector<MutantRow>& rows) {
  REPARTSIM_ASSERT(!rows.empty());
  REPARTSIM_ASSERT(rows.front().rule.empty());
  MutationScore score;
  for (const MutantRow& row : rows) {
    score.killed += row.result == "killed";
    score.documented += row.Documented();
    score.capped += row.result == "capped";
    score.died = score.died || row.result == "error";
  }
  score.total = rows.size() - 1;
  score.reference_clean = rows.front().result == "clean";
  if (score.total > 0) {
    score.percent = 100.0 * static_cast<double>(score.killed) / static_cast<double>(score.total);
  }
  return score;
}

std::string FoundBy(const MutantRow& row) {
  if (!row.error.empty()) return row.error;
  if (!row.Found()) return "-";
  if (row.stage == "explore") {
    return "explore " + row.path + " (run " + std::to_string(row.explore_runs) + ")";
  }
  return row.path + " seed " + std::to_string(row.seed);
}

const std::vector<DeadProtection>& DeadProtections() {
  static const std::vector<DeadProtection> kDead = {
      {"gc-positive-proof",
       "GC runs, but no flow offers it a file that only a staging manifest or remap blob "
       "names (reference with it off passes every seed of every random scenario)"},
  };
  return kDead;
}

namespace {

bool IsDead(const std::string& name) {
  const std::vector<DeadProtection>& dead = DeadProtections();
  return std::any_of(dead.begin(), dead.end(),
                     [&](const DeadProtection& d) { return d.name == name; });
}

// The dead protections that a full search (no --only) left out; none for a search of some
// switches only.
std::vector<const DeadProtection*> Unmutated(const std::vector<MutantRow>& rows) {
  std::vector<const DeadProtection*> out;
  std::string bad;
  const std::optional<std::vector<std::string>> full = MutatedSwitches({}, &bad);
  REPARTSIM_ASSERT(full.has_value());
  for (const std::string& name : *full) {
    const bool mutated = std::any_of(rows.begin(), rows.end(),
                                     [&](const MutantRow& row) { return row.rule == name; });
    if (!mutated) return out;
  }
  for (const DeadProtection& d : DeadProtections()) {
    const bool mutated = std::any_of(rows.begin(), rows.end(),
                                     [&](const MutantRow& row) { return row.rule == d.name; });
    if (!mutated) out.push_back(&d);
  }
  return out;
}

}  // namespace

std::string MutantsText(const Budget& budget, const std::vector<MutantRow>& rows) {
  REPARTSIM_ASSERT(!rows.empty());
  char header[256];
  std::snprintf(header, sizeof header, "%-30s %-9s %-13s %-60s %7s %10s %8s\n", "switch", "result",
                "invariant", "found by", "runs", "steps", "time");
  std::string text = budget.Describe() + "\n" + header;
  for (const MutantRow& row : rows) text += Row(row);
  const MutantRow& reference = rows.front();
  if (reference.result != "clean") {
    text += "reference is NOT clean: " +
            (reference.Found() ? reference.invariant + " by " + FoundBy(reference) + ": " +
                                     reference.message + " (repro: " + reference.repro + ")"
                               : reference.error) +
            "\n";
  }
  text += CappedText(rows);
  for (const DeadProtection* d : Unmutated(rows)) {
    text += "not a mutant: " + d->name + " (" + d->why + "; docs/rules.md#" + d->name + ")\n";
  }
  return text + Kills(rows) + Findings(rows) + Undrawn(rows) + Score(rows).Line() + "\n";
}

nlohmann::ordered_json MutantsJson(const std::string& version, const std::string& binary,
                                   const Budget& budget, const std::vector<MutantRow>& rows,
                                   std::optional<double> min_score, int exit_code,
                                   int64_t wall_ms) {
  REPARTSIM_ASSERT(!rows.empty());
  const MutationScore score = Score(rows);
  nlohmann::ordered_json out;
  out["version"] = version;
  out["binary"] = binary;
  out["budget"] = budget.ToJson();
  out["reference"] = rows.front().ToJson();
  nlohmann::ordered_json mutants = nlohmann::ordered_json::array();
  for (size_t i = 1; i < rows.size(); ++i) mutants.push_back(rows[i].ToJson());
  out["mutants"] = mutants;
  nlohmann::ordered_json dead = nlohmann::ordered_json::array();
  for (const DeadProtection* d : Unmutated(rows))
    dead.push_back({{"rule", d->name}, {"why", d->why}});
  out["not_mutants"] = dead;
  out["score"] = {{"killed", score.killed},
                  {"total", score.total},
                  {"capped", score.capped},
                  {"percent", score.percent},
                  {"documented", score.documented}};
  out["min_score"] = min_score ? nlohmann::ordered_json(*min_score) : nlohmann::ordered_json();
  out["wall_ms"] = wall_ms;
  out["exit_code"] = exit_code;
  return out;
}

std::optional<std::vector<std::string>> MutatedSwitches(const std::vector<std::string>& only,
                                                        std::string* bad) {
  REPARTSIM_ASSERT(bad != nullptr);
  std::vector<std::string> mutated, on;
  for (const model::RuleInfo& info : model::AllRules()) {
    if (!info.reference) continue;
    on.push_back(info.name);
    if (!IsDead(info.name)) mutated.push_back(info.name);
  }
  REPARTSIM_ASSERT(on.size() == mutated.size() + DeadProtections().size());
  if (only.empty()) return mutated;
  mutated = on;
  std::vector<std::string> picked;
  for (const std::string& name : only) {
    if (std::find(mutated.begin(), mutated.end(), name) == mutated.end()) {
      *bad = name;
      return std::nullopt;
    }
    if (std::find(picked.begin(), picked.end(), name) == picked.end()) picked.push_back(name);
  }
  return picked;
}

void AddToBudget(Budget& budget, scenario::Scenario scenario) {
  REPARTSIM_ASSERT(budget.steps_max > 0);
  scenario.limits.steps_max = std::min(scenario.limits.steps_max, budget.steps_max);
  if (std::find(scenario.tags.begin(), scenario.tags.end(), "explore") != scenario.tags.end()) {
    budget.explore.push_back(budget.scenarios.size());
  }
  budget.scenarios.push_back(std::move(scenario));
}

}  // namespace repartsim::campaign
