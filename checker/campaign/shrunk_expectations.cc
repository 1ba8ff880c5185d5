#include "checker/campaign/shrunk_expectations.h"

#include <algorithm>
#include <string>
#include <vector>

#include "checker/run/runner.h"

namespace repartsim::campaign {

namespace {

std::string RulesText(const std::vector<std::pair<std::string, bool>>& rules) {
  std::string out;
  for (const auto& [name, on] : rules) {
    out += (out.empty() ? "" : ",") + name + (on ? "=on" : "=off");
  }
  return out;
}

std::string RuleStatement(const scenario::RuleExpectation& r) {
  return r.profile + " with " + RulesText(r.rules) + ": " + r.expectation.ToString();
}

std::string RuleName(size_t index) { return "expect.with_rules[" + std::to_string(index) + "]"; }

// What the run gave, for a check's `found`.
std::string Found(const sim::Result<run::RunReport>& r) {
  if (!r.ok()) return "error: " + r.error().Format();
  std::string names;
  for (const std::string& name : r.value().InvariantNames()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  const std::string outcome = run::OutcomeName(r.value().outcome);
  return names.empty() ? outcome : names + " (outcome=" + outcome + ")";
}

ExpectationCheck Judge(const scenario::Scenario& s, uint64_t seed, const std::string& profile,
                       const std::vector<std::pair<std::string, bool>>& rules,
                       const scenario::Expectation& expectation) {
  run::RunConfig config;
  config.seed = seed;
  config.profile = profile;
  config.rules = rules;
  const sim::Result<run::RunReport> r = run::RunScenario(s, config);
  ExpectationCheck check;
  check.profile = profile;
  check.met = r.ok() && r.value().Meets(expectation);
  check.found = Found(r);
  return check;
}

}  // namespace

std::vector<ExpectationCheck> CheckExpectations(const scenario::Scenario& s, uint64_t seed) {
  std::vector<ExpectationCheck> checks;
  for (const auto& [profile, expectation] : s.expect) {
    ExpectationCheck check = Judge(s, seed, profile, {}, expectation);
    check.name = "expect." + profile;
    check.statement = profile + ": " + expectation.ToString();
    checks.push_back(std::move(check));
  }
  for (size_t i = 0; i < s.rule_expect.size(); ++i) {
    const scenario::RuleExpectation& r = s.rule_expect[i];
    if (r.by_explore) continue;
    scenario::Scenario capped = s;
    capped.limits.steps_max = std::min(capped.limits.steps_max, kRuleCheckStepsMax);
    ExpectationCheck check = Judge(capped, seed, r.profile, r.rules, r.expectation);
    check.name = RuleName(i);
    check.rule_index = i;
    check.statement = RuleStatement(r);
    checks.push_back(std::move(check));
  }
  return checks;
}

NarrowedExpectations NarrowRuleExpectations(
    const scenario::Scenario& source, const std::vector<std::pair<std::string, bool>>& extra_rules,
    uint64_t seed, YAML::Node& root) {
  NarrowedExpectations out;
  YAML::Node expect = root["expect"];
  if (!expect || !expect.IsMap() || !expect["with_rules"]) return out;
  const YAML::Node entries = expect["with_rules"];
  YAML::Node kept(YAML::NodeType::Sequence);
  std::vector<std::string> kept_overrides;  // "profile overrides" of the entries kept
  for (size_t i = 0; i < source.rule_expect.size() && i < entries.size(); ++i) {
    const scenario::RuleExpectation& r = source.rule_expect[i];
    std::vector<std::pair<std::string, bool>> rules = extra_rules;
    rules.insert(rules.end(), r.rules.begin(), r.rules.end());
    const std::string overrides = source.OverridesFor(r.profile, rules);
    const std::string key = r.profile + " " + overrides;
    std::string reason;
    if (r.seeds && (seed < r.seeds->first || seed > r.seeds->second)) {
      reason = "its seeds " + std::to_string(r.seeds->first) + ".." +
               std::to_string(r.seeds->second) + " exclude seed " + std::to_string(seed);
    } else if (r.by_explore) {
      reason = "it is found by explore; shrink checks runs";
    } else if (overrides == source.OverridesFor(r.profile, extra_rules)) {
      reason = "the shrunk file's rules have these already";
    } else if (std::find(kept_overrides.begin(), kept_overrides.end(), key) !=
               kept_overrides.end()) {
      reason = "with the shrunk file's rules it repeats an entry kept";
    }
    if (!reason.empty()) {
      out.dropped.push_back({RuleName(i), RuleStatement(r), reason});
      continue;
    }
    YAML::Node entry = YAML::Clone(entries[i]);
    entry.remove("seeds");
    kept.push_back(entry);
    kept_overrides.push_back(key);
    out.source_index.push_back(i);
  }
  if (kept.size() == 0) {
    expect.remove("with_rules");
  } else {
    expect["with_rules"] = kept;
  }
  return out;
}

std::vector<DroppedExpectation> DropUnmet(const std::vector<ExpectationCheck>& checks,
                                          const std::string& keep,
                                          const std::vector<size_t>& source_index,
                                          YAML::Node& root) {
  std::vector<DroppedExpectation> dropped;
  YAML::Node expect = root["expect"];
  std::vector<bool> rule_unmet(source_index.size(), false);
  for (const ExpectationCheck& c : checks) {
    if (c.met || c.name == keep) continue;
    const std::string reason = "its run in the shrunk scenario gives " + c.found;
    if (!c.rule_index) {
      expect.remove(c.profile);
      dropped.push_back({c.name, c.statement, reason});
    } else if (*c.rule_index < source_index.size()) {
      rule_unmet[*c.rule_index] = true;
      dropped.push_back({RuleName(source_index[*c.rule_index]), c.statement, reason});
    }
  }
  if (!expect["with_rules"]) return dropped;
  const YAML::Node entries = expect["with_rules"];
  YAML::Node kept(YAML::NodeType::Sequence);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i >= rule_unmet.size() || !rule_unmet[i]) kept.push_back(YAML::Clone(entries[i]));
  }
  if (kept.size() == 0) {
    expect.remove("with_rules");
  } else {
    expect["with_rules"] = kept;
  }
  return dropped;
}

}  // namespace repartsim::campaign
