#include "checker/campaign/counterexample.h"

#include <yaml-cpp/yaml.h>

#include "checker/campaign/choice_file.h"
#include "checker/campaign/output_files.h"
#include "checker/scenario/loader.h"
#include "sim/assert.h"

namespace repartsim::campaign {

std::vector<sim::ScriptedDecision> NonDefaultDecisions(const sim::ChoiceList& choices) {
  std::vector<sim::ScriptedDecision> out;
  for (size_t i = 0; i < choices.size(); ++i) {
    const sim::Choice& c = choices.at(i);
    if (c.value == 0) continue;
    out.push_back(sim::ScriptedDecision{i, std::string(choices.label(c)), c.value});
  }
  return out;
}

YAML::Node DecisionsNode(const std::vector<sim::ScriptedDecision>& decisions) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (const sim::ScriptedDecision& d : decisions) {
    YAML::Node entry;
    entry["index"] = d.index;
    entry["label"] = d.label;
    entry["value"] = d.value;
    entry.SetStyle(YAML::EmitterStyle::Flow);
    list.push_back(entry);
  }
  return list;
}

sim::Result<std::string> CounterexampleYaml(const CounterexampleSpec& spec,
                                            const std::vector<sim::ScriptedDecision>& decisions) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(spec.scenario_path);
  } catch (const YAML::Exception& e) {
    return sim::Error{{spec.scenario_path, 1, 1}, std::string("cannot read scenario: ") + e.what()};
  }
  const std::string name = root["name"] ? root["name"].as<std::string>() : "scenario";
  root["name"] = name + "-counterexample";
  std::string description = "Counterexample of " + name + " (" + spec.scenario_path +
                            ") found by " + spec.origin + ": seed " + std::to_string(spec.seed) +
                            ", profile " + spec.profile;
  if (!spec.invariants.empty()) description += ", violates " + spec.invariants.front();
  description += ". faults.decisions pins every non-default decision of the failing run (" +
                 std::to_string(decisions.size()) + "); all others take the default (no fault).";
  root["description"] = description;
  root["profile"] = spec.profile;
  if (!spec.rules.empty()) {
    YAML::Node rules = root["rules"] ? root["rules"] : YAML::Node(YAML::NodeType::Map);
    for (const auto& [rule, on] : spec.rules) rules[rule] = on ? "on" : "off";
    root["rules"] = rules;
  }
  YAML::Node faults = root["faults"] ? root["faults"] : YAML::Node(YAML::NodeType::Map);
  faults["decisions"] = DecisionsNode(decisions);
  faults.remove("swarm");
  root["faults"] = faults;
  root["seeds"] = std::to_string(spec.seed) + ".." + std::to_string(spec.seed);
  YAML::Node expect = root["expect"] ? root["expect"] : YAML::Node(YAML::NodeType::Map);
  if (!spec.invariants.empty()) {
    YAML::Node e;
    e["violation"] = spec.invariants.front();
    if (spec.invariants.size() > 1) {
      YAML::Node tolerate(YAML::NodeType::Sequence);
      for (size_t i = 1; i < spec.invariants.size(); ++i) tolerate.push_back(spec.invariants[i]);
      tolerate.SetStyle(YAML::EmitterStyle::Flow);
      e["tolerate"] = tolerate;
    }
    e.SetStyle(YAML::EmitterStyle::Flow);
    expect[spec.profile] = e;
  }
  root["expect"] = expect;
  YAML::Emitter emitter;
  emitter << root;
  return "# Written by repartsim " + spec.origin + "; `repartsim run` on this file reproduces " +
         "the violation.\n" + std::string(emitter.c_str()) + "\n";
}

sim::Result<run::RunReport> RunScenarioFile(const std::string& path, uint64_t seed) {
  auto s = scenario::LoadScenarioFile(path);
  if (!s.ok()) return s.error();
  run::RunConfig config;
  config.seed = seed;
  config.keep_trace = true;
  return run::RunScenario(s.value(), config);
}

std::vector<std::string> InvariantsDecisiveFirst(const run::RunReport& report) {
  std::vector<std::string> out;
  for (const check::Violation& v : report.violations) {
    const std::string name(check::InvariantName(v.invariant));
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

SavedCounterexample SaveCounterexample(CounterexampleSpec spec, const run::RunReport& report,
                                       const std::string& base) {
  REPARTSIM_ASSERT(!base.empty());
  SavedCounterexample saved;
  saved.choices_path = base + ".choices";
  saved.yaml_path = base + ".yaml";
  saved.invariants = InvariantsDecisiveFirst(report);
  const std::vector<sim::ScriptedDecision> decisions = NonDefaultDecisions(report.choices);
  saved.decisions = decisions.size();
  sim::Status written = WriteTextFile(saved.choices_path, ChoicesText(report));
  if (!written.ok()) {
    saved.write_error = written.error();
    return saved;
  }
  spec.invariants = saved.invariants;
  auto yaml = CounterexampleYaml(spec, decisions);
  if (!yaml.ok()) {
    saved.input_error = yaml.error();
    return saved;
  }
  written = WriteTextFile(saved.yaml_path, yaml.value());
  if (!written.ok()) {
    saved.write_error = written.error();
    return saved;
  }
  auto check = RunScenarioFile(saved.yaml_path, spec.seed);
  if (!check.ok()) return saved;
  const std::vector<std::string> again = InvariantsDecisiveFirst(check.value());
  saved.reproduced =
      !saved.invariants.empty() && !again.empty() && again.front() == saved.invariants.front();
  return saved;
}

}  // namespace repartsim::campaign
