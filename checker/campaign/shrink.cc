#include "checker/campaign/shrink.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/campaign/counterexample.h"
#include "checker/check/violation.h"
#include "checker/run/runner.h"
#include "checker/run/workload.h"
#include "checker/scenario/loader.h"
#include "sim/assert.h"
#include "sim/prng.h"

namespace repartsim::campaign {

namespace {

// One scripted step of a candidate: the YAML mapping, and for an INSERT its row literals
// (so rows can be dropped one by one).
struct Unit {
  std::string node;               // the step as YAML text (a YAML::Node would alias on assignment)
  std::vector<std::string> rows;  // INSERT value tuples "(...)"; empty: not a shrinkable insert
  std::string insert_head;        // "INSERT INTO t VALUES "
  bool statement = false;
  std::optional<int64_t> at_ms;  // the step's time, when it has one (not `after`)
};

std::string InsertSql(const Unit& u) {
  std::string sql = u.insert_head;
  for (size_t i = 0; i < u.rows.size(); ++i) sql += (i ? ", " : "") + u.rows[i];
  return sql;
}

YAML::Node StepNode(const Unit& u) {
  YAML::Node n = YAML::Load(u.node);
  if (!u.rows.empty()) n["sql"] = InsertSql(u);
  return n;
}

class Shrinker {
 public:
  Shrinker(const ShrinkConfig& config, YAML::Node root, std::string invariant)
      : config_(config), root_(std::move(root)), invariant_(std::move(invariant)) {}

  // The YAML of a candidate.
  std::string Yaml(const std::vector<Unit>& units,
                   const std::vector<sim::ScriptedDecision>& decisions) const {
    YAML::Node root = YAML::Clone(root_);
    root.remove("workload");
    YAML::Node steps(YAML::NodeType::Sequence);
    for (const Unit& u : units) {
      YAML::Node n = StepNode(u);
      n.SetStyle(YAML::EmitterStyle::Flow);
      steps.push_back(n);
    }
    if (units.empty()) {
      root.remove("steps");
    } else {
      root["steps"] = steps;
    }
    YAML::Node faults = root["faults"] ? root["faults"] : YAML::Node(YAML::NodeType::Map);
    faults.remove("decisions");
    if (!decisions.empty()) {
      faults["decisions"] = DecisionsNode(decisions);
    }
    if (faults.size() > 0) root["faults"] = faults;
    YAML::Emitter out;
    out << root;
    return std::string(out.c_str()) + "\n";
  }

  // True iff the candidate's run reports the kept invariant.
  bool Fails(const std::vector<Unit>& units, const std::vector<sim::ScriptedDecision>& d) {
    ++candidates_;
    if (stopped_) return false;
    if (config_.progress && !config_.progress(candidates_)) stopped_ = true;
    const std::optional<std::vector<std::string>> reported = Reported(units, d);
    return reported && std::find(reported->begin(), reported->end(), invariant_) != reported->end();
  }

  // The invariants the candidate's run reports (sorted), nullopt when it does not load or is
  // nondeterministic.
  std::optional<std::vector<std::string>> Reported(
      const std::vector<Unit>& units, const std::vector<sim::ScriptedDecision>& d) const {
    auto s = scenario::ParseScenario(Yaml(units, d), config_.scenario_path);
    if (!s.ok()) return std::nullopt;
    run::RunConfig rc;
    rc.seed = config_.seed;
    rc.profile = config_.profile;
    rc.rules = config_.rules;
    auto r = run::RunScenario(s.value(), rc);
    if (!r.ok() || !r.value().nondeterminism.empty()) return std::nullopt;
    return r.value().InvariantNames();
  }

  // ddmin over `items`: the smallest subset (1-minimal at the finest granularity tried) for
  // which `test` holds. REQUIRES: test(items).
  template <class T>
  std::vector<T> Ddmin(std::vector<T> items,
                       const std::function<bool(const std::vector<T>&)>& test) {
    size_t n = 2;
    while (items.size() >= 2 && !stopped_) {
      const size_t chunk = (items.size() + n - 1) / n;
      bool reduced = false;
      for (size_t start = 0; start < items.size(); start += chunk) {
        std::vector<T> complement;
        for (size_t i = 0; i < items.size(); ++i) {
          if (i < start || i >= start + chunk) complement.push_back(items[i]);
        }
        if (test(complement)) {
          items = std::move(complement);
          n = std::max<size_t>(n - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (n >= items.size()) break;
        n = std::min(items.size(), n * 2);
      }
    }
    if (items.size() == 1 && !stopped_ && test({})) items.clear();
    return items;
  }

  uint64_t candidates() const { return candidates_; }

 private:
  const ShrinkConfig& config_;
  YAML::Node root_;
  std::string invariant_;
  uint64_t candidates_ = 0;
  bool stopped_ = false;
};

ShrinkSize SizeOf(const std::vector<Unit>& units, size_t decisions) {
  ShrinkSize z;
  z.steps = units.size();
  for (const Unit& u : units) {
    z.statements += u.statement;
    z.faults += !u.statement;
    z.rows += u.rows.size();
  }
  z.decisions = decisions;
  return z;
}

// Splits "INSERT INTO t VALUES (..), (..)" into its head and row tuples (parenthesis depth,
// quotes respected). Returns false when the text is not a single plain INSERT.
bool SplitInsert(const std::string& sql, std::string& head, std::vector<std::string>& rows) {
  const size_t values = sql.find(" VALUES ");
  if (sql.rfind("INSERT INTO ", 0) != 0 || values == std::string::npos) return false;
  head = sql.substr(0, values + 8);
  int depth = 0;
  bool quoted = false;
  std::string current;
  for (size_t i = values + 8; i < sql.size(); ++i) {
    const char c = sql[i];
    if (c == '\'') quoted = !quoted;
    if (!quoted && c == '(') ++depth;
    if (depth > 0) current += c;
    if (!quoted && c == ')' && --depth == 0) {
      rows.push_back(current);
      current.clear();
    }
    if (!quoted && c == ';') return false;
  }
  return !rows.empty() && depth == 0;
}

Unit UnitOf(const YAML::Node& node) {
  Unit u;
  YAML::Emitter text;
  text << YAML::Flow << node;
  u.node = text.c_str();
  u.statement = bool(node["sql"]);
  if (node["at_ms"]) u.at_ms = node["at_ms"].as<int64_t>();
  if (u.statement) {
    const std::string sql = node["sql"].as<std::string>();
    std::string head;
    std::vector<std::string> rows;
    if (SplitInsert(sql, head, rows)) {
      u.insert_head = head;
      u.rows = rows;
    }
  }
  return u;
}

// "fe2" for frontend index 1: the name the scenario's other steps use.
std::string FrontendName(uint32_t index) { return "fe" + std::to_string(index + 1); }

// The run's workload drawn from `seed` as scripted sql steps, appended to `units`.
void AppendWorkloadUnits(const scenario::Scenario& s, uint64_t seed, std::vector<Unit>& units) {
  sim::Prng prng_root(seed);
  sim::Prng workload_prng = prng_root.Fork();
  for (const run::WorkloadOp& op : run::DrawWorkload(s, workload_prng)) {
    YAML::Node n;
    n["at_ms"] = op.at_ms;
    if (const auto* insert = std::get_if<model::InsertOp>(&op.statement)) {
      std::string sql = "INSERT INTO " + s.table.schema.name + " VALUES ";
      for (size_t i = 0; i < insert->rows.size(); ++i) {
        sql += i ? ", (" : "(";
        for (size_t c = 0; c < insert->rows[i].size(); ++c) {
          sql += (c ? ", " : "") + insert->rows[i][c].ToSql();
        }
        sql += ")";
      }
      n["sql"] = sql;
      if (insert->frontend_index != 0) n["frontend"] = FrontendName(insert->frontend_index);
      if (insert->path != model::WritePath::kRow) n[model::WritePathName(insert->path)] = true;
    } else if (const auto* query = std::get_if<model::QueryOp>(&op.statement)) {
      n["sql"] = query->sql;
      if (query->frontend_index != 0) n["frontend"] = FrontendName(query->frontend_index);
    }
    units.push_back(UnitOf(n));
  }
}

// Shrinks `units` and `decisions` while the run still fails: ddmin of each, one more pass of
// single removals (the decisions may have freed steps), then fewer rows per INSERT.
void Minimize(Shrinker& shrinker, std::vector<Unit>& units,
              std::vector<sim::ScriptedDecision>& decisions) {
  units = shrinker.Ddmin<Unit>(
      units, [&](const std::vector<Unit>& u) { return shrinker.Fails(u, decisions); });
  decisions = shrinker.Ddmin<sim::ScriptedDecision>(
      decisions,
      [&](const std::vector<sim::ScriptedDecision>& d) { return shrinker.Fails(units, d); });
  for (size_t i = units.size(); i-- > 0;) {
    std::vector<Unit> fewer = units;
    fewer.erase(fewer.begin() + static_cast<ptrdiff_t>(i));
    if (shrinker.Fails(fewer, decisions)) units = std::move(fewer);
  }
  for (size_t i = 0; i < units.size(); ++i) {
    for (size_t row = units[i].rows.size(); units[i].rows.size() > 1 && row-- > 0;) {
      std::vector<Unit> fewer = units;
      fewer[i].rows.erase(fewer[i].rows.begin() + static_cast<ptrdiff_t>(row));
      if (shrinker.Fails(fewer, decisions)) units = std::move(fewer);
    }
  }
  // In time order, as a person writes steps, when every step has a time and the run in that
  // order still fails (equal times keep their order).
  if (!std::all_of(units.begin(), units.end(), [](const Unit& u) { return u.at_ms; })) return;
  std::vector<Unit> sorted = units;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Unit& a, const Unit& b) { return *a.at_ms < *b.at_ms; });
  if (shrinker.Fails(sorted, decisions)) units = std::move(sorted);
}

// Renames the scenario `root` as shrunk and describes it, pins its profile, rules and seed,
// and expects the shrunk run's invariant, tolerating the others that run reports (`reported`).
void MarkShrunk(const ShrinkConfig& config, const ShrinkResult& out,
                const std::vector<std::string>& reported, YAML::Node& root) {
  REPARTSIM_ASSERT(!out.invariant.empty());
  const std::string name = root["name"] ? root["name"].as<std::string>() : "scenario";
  root["name"] = name + "-shrunk";
  root["description"] =
      "Shrunk by repartsim shrink from " + name + " (" + config.scenario_path + ") seed " +
      std::to_string(config.seed) + ", profile " + out.profile + ": " +
      std::to_string(out.after.statements) + " statements, " + std::to_string(out.after.faults) +
      " scripted faults and " + std::to_string(out.after.decisions) +
      " pinned decisions remain (from " + std::to_string(out.before.statements) + ", " +
      std::to_string(out.before.faults) + " and " + std::to_string(out.before.decisions) +
      "); the run still reports " + out.invariant + ".";
  root["profile"] = out.profile;
  if (!config.rules.empty()) {
    YAML::Node rules = root["rules"] ? root["rules"] : YAML::Node(YAML::NodeType::Map);
    for (const auto& [rule, on] : config.rules) rules[rule] = on ? "on" : "off";
    root["rules"] = rules;
  }
  root["seeds"] = std::to_string(config.seed) + ".." + std::to_string(config.seed);
  YAML::Node expect = root["expect"] ? root["expect"] : YAML::Node(YAML::NodeType::Map);
  YAML::Node e;
  e["violation"] = out.invariant;
  YAML::Node tolerate(YAML::NodeType::Sequence);
  for (const std::string& inv : reported) {
    if (inv != out.invariant && inv != "READ-ANOMALY") tolerate.push_back(inv);
  }
  tolerate.SetStyle(YAML::EmitterStyle::Flow);
  if (tolerate.size() > 0) e["tolerate"] = tolerate;
  e.SetStyle(YAML::EmitterStyle::Flow);
  expect[out.profile] = e;
  root["expect"] = expect;
}

}  // namespace

sim::Result<ShrinkResult> Shrink(const ShrinkConfig& config) {
  auto s = scenario::LoadScenarioFile(config.scenario_path);
  if (!s.ok()) return s.error();
  run::RunConfig rc;
  rc.seed = config.seed;
  rc.profile = config.profile;
  rc.rules = config.rules;
  rc.replay = config.replay;
  auto first = run::RunScenario(s.value(), rc);
  if (!first.ok()) return first.error();
  const run::RunReport& r = first.value();
  const sim::SourceLocation here{config.scenario_path, 1, 1};
  if (r.violations.empty() || r.outcome == run::Outcome::kPass ||
      r.outcome == run::Outcome::kNondeterminism || r.outcome == run::Outcome::kCapped) {
    return sim::Error{here, "seed " + std::to_string(config.seed) +
                                " passes (nothing to shrink): " + r.SummaryLine()};
  }
  ShrinkResult out;
  out.invariant = std::string(check::InvariantName(r.violations.front().invariant));
  out.profile = r.profile;

  YAML::Node root;
  try {
    root = YAML::LoadFile(config.scenario_path);
  } catch (const YAML::Exception& e) {
    return sim::Error{here, std::string("cannot read scenario: ") + e.what()};
  }
  // The scripted steps, then the workload as sql steps (ScheduleScript schedules steps
  // before the runner draws the workload, so ties keep their order).
  std::vector<Unit> units;
  if (root["steps"]) {
    for (const YAML::Node& step : root["steps"]) units.push_back(UnitOf(YAML::Clone(step)));
  }
  AppendWorkloadUnits(s.value(), config.seed, units);
  const sim::ChoiceList& choices = config.replay != nullptr ? *config.replay : r.choices;
  std::vector<sim::ScriptedDecision> decisions = NonDefaultDecisions(choices);
  out.before = SizeOf(units, decisions.size());

  // Swarm draws its mix from the seed: pin it by keeping the seed; the candidates run it.
  Shrinker shrinker(config, root, out.invariant);
  if (!shrinker.Fails(units, decisions)) {
    return sim::Error{here, "the run as a scripted scenario no longer reports " + out.invariant +
                                " (a statement the workload draws cannot be scripted)"};
  }
  Minimize(shrinker, units, decisions);
  out.after = SizeOf(units, decisions.size());
  out.candidates = shrinker.candidates();
  const std::optional<std::vector<std::string>> reported = shrinker.Reported(units, decisions);
  REPARTSIM_ASSERT_MSG(reported.has_value(), "the shrunk scenario no longer runs");
  MarkShrunk(config, out, *reported, root);
  NarrowedExpectations narrowed =
      NarrowRuleExpectations(s.value(), config.rules, config.seed, root);
  out.dropped = std::move(narrowed.dropped);
  auto shrunk = scenario::ParseScenario(
      Shrinker(config, root, out.invariant).Yaml(units, decisions), config.scenario_path);
  if (!shrunk.ok()) return shrunk.error();
  const std::string keep = "expect." + out.profile;
  const std::vector<ExpectationCheck> checks = CheckExpectations(shrunk.value(), config.seed);
  for (const ExpectationCheck& c : checks) {
    if (c.name == keep && !c.met) {
      return sim::Error{here, "the shrunk scenario's run gives " + c.found + ", not " +
                                  out.invariant + " (" + c.statement + ")"};
    }
  }
  for (DroppedExpectation& d : DropUnmet(checks, keep, narrowed.source_index, root)) {
    out.dropped.push_back(std::move(d));
  }
  out.yaml = "# Written by repartsim shrink; `repartsim run` on this file reproduces " +
             out.invariant + ".\n";
  for (const DroppedExpectation& d : out.dropped) {
    out.yaml += "# Left out of expect: " + d.name + " of the source (" + d.statement +
                "): " + d.reason + ".\n";
  }
  out.yaml += Shrinker(config, root, out.invariant).Yaml(units, decisions);
  return out;
}

}  // namespace repartsim::campaign
