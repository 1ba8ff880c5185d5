#include "checker/scenario/loader.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <optional>
#include <sstream>

#include "checker/check/violation.h"
#include "checker/scenario/loader_internal.h"
#include "checker/scenario/scenario_limits.h"
#include "checker/scenario/seed_range.h"
#include "model/protocol/protocol.h"
#include "model/sql/parser.h"
#include "model/sql/repartition_planner.h"
#include "sim/input_file.h"
#include "sim/utf8.h"

namespace repartsim::scenario {

namespace {

const std::vector<std::string> kTopKeys = {
    "name",  "description", "tags",  "shape",    "shape_only", "profile", "rules", "cluster",
    "table", "setup",       "steps", "workload", "faults",     "limits",  "seeds", "expect"};

void ReadRules(const YAML::Node& node, LoadContext& ctx, Scenario& scenario) {
  if (!node.IsMap()) {
    ctx.Fail(node, "rules", std::string("expected a mapping, got a ") + NodeKindName(node));
    return;
  }
  model::Protocol probe = model::Protocol::Reference();
  for (const auto& item : node) {
    const std::string name = ReadString(item.first, ctx, "rules");
    const std::string path = "rules." + name;
    const bool on = ReadBool(item.second, ctx, path);
    if (ctx.failed()) return;
    sim::Status status = probe.SetByName(name, on);
    if (!status.ok()) {
      ctx.Fail(item.first, path, status.error().message);
      return;
    }
    scenario.rules.emplace_back(name, on);
  }
}

void ReadCluster(const YAML::Node& node, LoadContext& ctx, Scenario& scenario) {
  Fields f(node, ctx, "cluster");
  if (f.Has("datanodes")) {
    scenario.datanode_count =
        static_cast<uint32_t>(ReadInt(f.Get("datanodes"), ctx, "cluster.datanodes", 1, 16));
  }
  if (f.Has("frontends")) {
    scenario.frontend_count =
        static_cast<uint32_t>(ReadInt(f.Get("frontends"), ctx, "cluster.frontends", 1, 16));
  }
  if (f.Has("placement")) {
    const YAML::Node list = f.Get("placement");
    if (ExpectSequence(list, ctx, "cluster.placement")) {
      for (size_t i = 0; i < list.size(); ++i) {
        // Datanode names ("dn2") or 0-based datanode indices.
        const std::string path = "cluster.placement[" + std::to_string(i) + "]";
        const std::string text = ReadString(list[i], ctx, path);
        if (ctx.failed()) return;
        if (text.rfind("dn", 0) == 0) {
          std::optional<model::NodeId> id = ReadNode(list[i], ctx, scenario, path);
          if (id) scenario.placement.push_back(id->value - 1);
        } else {
          scenario.placement.push_back(
              static_cast<uint32_t>(ReadInt(list[i], ctx, path, 0, scenario.datanode_count - 1)));
        }
      }
    }
  }
  if (f.Has("gc")) scenario.gc_enabled = ReadBool(f.Get("gc"), ctx, "cluster.gc");
  if (f.Has("checkpoint_distance")) {
    scenario.checkpoint_distance = static_cast<uint64_t>(
        ReadInt(f.Get("checkpoint_distance"), ctx, "cluster.checkpoint_distance", 0, 1000000));
  }
  if (f.Has("gc_lingering_ms")) {
    scenario.gc_lingering_ms =
        ReadInt(f.Get("gc_lingering_ms"), ctx, "cluster.gc_lingering_ms", 0, 86'400'000);
  }
  if (f.Has("gc_interval_ms")) {
    scenario.gc_interval_ms =
        ReadInt(f.Get("gc_interval_ms"), ctx, "cluster.gc_interval_ms", 0, 86'400'000);
  }
  if (f.Has("init_regions_in_background")) {
    scenario.init_regions_in_background =
        ReadBool(f.Get("init_regions_in_background"), ctx, "cluster.init_regions_in_background");
  }
  if (f.Has("region_open_ms")) {
    scenario.region_open_ms =
        ReadInt(f.Get("region_open_ms"), ctx, "cluster.region_open_ms", 1, 600'000);
  }
  f.Finish({"datanodes", "frontends", "placement", "gc", "checkpoint_distance", "gc_lingering_ms",
            "gc_interval_ms", "init_regions_in_background", "region_open_ms"});
}

void ReadTable(const YAML::Node& node, LoadContext& ctx, Scenario& scenario) {
  const std::string sql = ReadString(node, ctx, "table");
  if (ctx.failed()) return;
  auto statements = model::sql::ParseStatements(sql, ctx.file());
  if (!statements.ok()) {
    const sim::SourceLocation& at = statements.error().location;
    ctx.FailAt(ctx.Relocate(node, at.line, at.column), "table", statements.error().message);
    return;
  }
  if (statements.value().size() != 1 ||
      !std::holds_alternative<model::sql::CreateTable>(statements.value()[0].body)) {
    ctx.Fail(node, "table", "expected exactly one CREATE TABLE statement");
    return;
  }
  scenario.table = std::get<model::sql::CreateTable>(statements.value()[0].body);
  scenario.table_sql = statements.value()[0].text;
  if (!scenario.table.physical_table.empty()) {
    ctx.Fail(node, "table",
             "a metric-engine logical table (on_physical_table = '" +
                 scenario.table.physical_table +
                 "') has no regions of its own: its rows live in the physical table's regions; "
                 "a scenario's table must be a physical table (`repartsim plan` shows that "
                 "REPARTITION on a logical table fails)");
    return;
  }
  const size_t regions = std::max<size_t>(1, scenario.table.rule.exprs.size());
  if (!scenario.placement.empty() && scenario.placement.size() != regions) {
    ctx.Fail(node, "cluster.placement",
             "placement lists " + std::to_string(scenario.placement.size()) +
                 " datanodes but the table has " + std::to_string(regions) + " regions");
  }
}

// The run's cost per step grows with the number of regions (docs/limits.md): bound the
// regions the table starts with plus every target an ALTER step could add.
void CheckRegionCount(const YAML::Node& table, LoadContext& ctx, const Scenario& s) {
  size_t regions = std::max<size_t>(1, s.table.rule.exprs.size());
  if (regions > kScenarioRegionsMax) {
    ctx.Fail(table, "table",
             "the table has " + std::to_string(regions) + " regions, more than the limit of " +
                 std::to_string(kScenarioRegionsMax));
    return;
  }
  for (const std::vector<ScriptedStep>* list : {&s.setup, &s.steps}) {
    for (const ScriptedStep& step : *list) {
      const auto* alter = model::OpIf<model::RepartitionOp>(&step.op);
      if (alter == nullptr) continue;
      regions += alter->alter.into.size();
      if (regions > kScenarioRegionsMax) {
        ctx.FailAt(step.location, list == &s.setup ? "setup" : "steps",
                   "the table may reach " + std::to_string(regions) +
                       " regions by this step, more than the limit of " +
                       std::to_string(kScenarioRegionsMax) +
                       " (counting every target of every ALTER)");
        return;
      }
    }
  }
  // Region numbers are never reused, and a repartition numbers its new regions after the
  // highest so far: no region reaches `regions`. A drawn (swarm) shape has DDLs of its own.
  if (s.shape_swarm) return;
  for (const std::vector<ScriptedStep>* list : {&s.setup, &s.steps}) {
    for (const ScriptedStep& step : *list) {
      std::optional<model::RegionId> region;
      if (const auto* flush = model::OpIf<model::FlushOp>(&step.op);
          flush && !flush->every_region) {
        region = flush->region;
      }
      if (const auto* c = model::OpIf<model::CompactOp>(&step.op); c && !c->every_region) {
        region = c->region;
      }
      if (region && region->region_number().value >= regions) {
        ctx.FailAt(step.location, list == &s.setup ? "setup" : "steps",
                   "region " + std::to_string(region->region_number().value) +
                       " never exists: the table's regions are numbered below " +
                       std::to_string(regions) + " (its " +
                       std::to_string(std::max<size_t>(1, s.table.rule.exprs.size())) +
                       " regions plus every target of its ALTER steps)");
        return;
      }
    }
  }
}

// What one run schedules up front and what its checker compares: the workload's operations
// (a client's gaps are at least interval/2 ms, so it issues at most
// span / max(1, interval/2) + 1; an interval of 1 ms averages 2 per ms), the rows of every
// insert (workload and scripted), and queries x rows (each query's result and its check
// cover the rows written before it). docs/limits.md turns these into time and memory.
void CheckRunSize(const YAML::Node& root, LoadContext& ctx, const Scenario& s) {
  uint64_t rows = 0;
  uint64_t queries = 0;
  for (const std::vector<ScriptedStep>* list : {&s.setup, &s.steps}) {
    for (const ScriptedStep& step : *list) {
      if (const auto* insert = model::OpIf<model::InsertOp>(&step.op)) rows += insert->rows.size();
      if (model::OpIf<model::QueryOp>(&step.op) != nullptr) ++queries;
    }
  }
  const Workload& w = s.workload;
  // Copies only (assigning a YAML::Node would rewrite the document).
  const YAML::Node where = w.enabled       ? root["workload"]
                           : root["steps"] ? root["steps"]
                                           : root["setup"];
  if (w.enabled) {
    const uint64_t span_ms = static_cast<uint64_t>(std::max<int64_t>(0, w.end_ms - w.start_ms));
    auto per_client = [&](int64_t interval_ms) {
      return span_ms * (interval_ms == 1 ? 2 : 1) /
                 static_cast<uint64_t>(std::max<int64_t>(1, interval_ms / 2)) +
             1;
    };
    const uint64_t frontends = w.frontend_count == 0 ? s.frontend_count : w.frontend_count;
    const uint64_t writes = frontends * w.writers_per_frontend * per_client(w.write_interval_ms);
    const uint64_t reads = frontends * w.readers_per_frontend * per_client(w.read_interval_ms);
    if (writes + reads > kWorkloadOpsMax) {
      ctx.Fail(where, "workload",
               "the workload may issue " + std::to_string(writes + reads) +
                   " operations, more than the limit of " + std::to_string(kWorkloadOpsMax) +
                   " (use fewer writers or readers, longer intervals or a shorter span)");
      return;
    }
    rows += writes * w.rows_per_write_max;
    queries += reads;
  }
  if (rows > kRunRowsMax) {
    ctx.Fail(where, w.enabled ? "workload" : "steps",
             "the run may insert " + std::to_string(rows) + " rows, more than the limit of " +
                 std::to_string(kRunRowsMax));
    return;
  }
  if (queries * rows > kRunQueryRowsMax) {
    ctx.Fail(where, w.enabled ? "workload" : "steps",
             "the run may check " + std::to_string(queries) + " queries over " +
                 std::to_string(rows) + " rows; queries x rows must stay within " +
                 std::to_string(kRunQueryRowsMax));
  }
}

// A seed range `A..B` (A <= B) at `path`; nullopt (the context failed) otherwise.
std::optional<std::pair<uint64_t, uint64_t>> ReadSeedRange(const YAML::Node& node, LoadContext& ctx,
                                                           const std::string& path) {
  const std::string text = ReadString(node, ctx, path);
  if (ctx.failed()) return std::nullopt;
  const std::optional<std::pair<uint64_t, uint64_t>> range = ParseSeedRange(text);
  if (!range) ctx.Fail(node, path, "expected a seed range A..B with A <= B, got '" + text + "'");
  return range;
}

void ReadSeeds(const YAML::Node& node, LoadContext& ctx, Scenario& scenario) {
  const std::optional<std::pair<uint64_t, uint64_t>> range = ReadSeedRange(node, ctx, "seeds");
  if (!range) return;
  scenario.seed_first = range->first;
  scenario.seed_last = range->second;
  scenario.seeds_location = ctx.At(node);
}

// The `seeds: A..B` of a with_rules entry at `path`: a range inside the scenario's own seeds.
std::optional<std::pair<uint64_t, uint64_t>> ReadEntrySeeds(const YAML::Node& node,
                                                            LoadContext& ctx,
                                                            const std::string& path,
                                                            const Scenario& scenario) {
  const std::optional<std::pair<uint64_t, uint64_t>> range = ReadSeedRange(node, ctx, path);
  if (!range) return std::nullopt;
  if (range->first < scenario.seed_first || range->second > scenario.seed_last) {
    ctx.Fail(node, path,
             "seeds " + node.Scalar() + " lie outside the scenario's seeds " +
                 std::to_string(scenario.seed_first) + ".." + std::to_string(scenario.seed_last));
    return std::nullopt;
  }
  return range;
}

// An invariant name of `expect` (violation or tolerate); fails on an unknown one.
std::string ReadInvariantName(const YAML::Node& node, LoadContext& ctx, const std::string& path) {
  std::string name = ReadString(node, ctx, path);
  if (!ctx.failed() && !check::ParseInvariant(name)) {
    ctx.Fail(
        node, path,
        "unknown invariant '" + name +
            "'; expected one of: INV-RULE, INV-OWN, INV-NOOMIT, INV-NODUP, "
            "INV-NOPHANTOM, INV-ACK, INV-META, INV-LIVE, INV-AVAIL, READ-ANOMALY, DDL-REJECTED");
  }
  return name;
}

// `pass` or {violation: INV-X, tolerate: [...]} at `path`; `extra` keys of the mapping are
// left to the caller (with_rules entries carry `rules` and `profile` too).
Expectation ReadOneExpectation(const YAML::Node& value, LoadContext& ctx, const std::string& path,
                               const std::vector<std::string>& extra, Fields* outer) {
  Expectation e;
  e.location = ctx.At(value);
  const char* shape = "expected 'pass' or a mapping {violation: INV-..., tolerate: [...]}";
  if (outer == nullptr && value.IsScalar() && value.Scalar() == "pass") {
    e.pass = true;
    return e;
  }
  if (!value.IsMap()) {
    ctx.Fail(value, path, shape);
    return e;
  }
  Fields local(value, ctx, path);
  Fields& v = outer != nullptr ? *outer : local;
  if (outer == nullptr && !v.Has("violation") && !v.Has("tolerate")) ctx.Fail(value, path, shape);
  e.pass = !v.Has("violation");
  if (v.Has("violation")) {
    e.invariant = ReadInvariantName(v.Get("violation"), ctx, path + ".violation");
  }
  if (v.Has("tolerate") && !ctx.failed()) {
    const YAML::Node list = v.Get("tolerate");
    if (!list.IsSequence()) {
      ctx.Fail(list, path + ".tolerate", "expected a list of invariant names");
    }
    for (size_t i = 0; !ctx.failed() && i < list.size(); ++i) {
      std::string name = ReadInvariantName(list[i], ctx, path + ".tolerate");
      if (!ctx.failed() && (name == e.invariant || std::find(e.tolerate.begin(), e.tolerate.end(),
                                                             name) != e.tolerate.end())) {
        ctx.Fail(list[i], path + ".tolerate", "invariant '" + name + "' is listed twice");
      }
      e.tolerate.push_back(std::move(name));
    }
    std::sort(e.tolerate.begin(), e.tolerate.end());
  }
  if (outer == nullptr) {
    std::vector<std::string> allowed = {"violation", "tolerate"};
    allowed.insert(allowed.end(), extra.begin(), extra.end());
    v.Finish(allowed);
  }
  return e;
}

// expect.with_rules: [{rules: {name: on|off, ...}, profile: P, violation: X, tolerate: [...],
//                      seeds: A..B, found_by: runs|explore}].
void ReadRuleExpectations(const YAML::Node& list, LoadContext& ctx, Scenario& scenario) {
  const std::string base = "expect.with_rules";
  if (!ExpectSequence(list, ctx, base)) return;
  for (size_t i = 0; !ctx.failed() && i < list.size(); ++i) {
    const std::string path = base + "[" + std::to_string(i) + "]";
    Fields f(list[i], ctx, path);
    if (ctx.failed()) return;
    RuleExpectation r;
    if (f.Has("profile")) {
      const YAML::Node p = f.Get("profile");
      r.profile = ReadString(p, ctx, path + ".profile");
      if (!ctx.failed() && !model::Protocol::FromProfileName(r.profile).ok()) {
        ctx.Fail(p, path + ".profile",
                 "unknown profile '" + r.profile + "'; expected greptime or reference");
      }
    }
    const YAML::Node rules = f.Require("rules");
    if (ctx.failed()) return;
    if (!rules.IsMap() || rules.size() == 0) {
      ctx.Fail(rules, path + ".rules", "expected a non-empty mapping of rule switch to on|off");
      return;
    }
    model::Protocol probe = model::Protocol::Reference();
    for (const auto& item : rules) {
      const std::string name = ReadString(item.first, ctx, path + ".rules");
      const bool on = ReadBool(item.second, ctx, path + ".rules." + name);
      if (ctx.failed()) return;
      sim::Status status = probe.SetByName(name, on);
      if (!status.ok()) {
        ctx.Fail(item.first, path + ".rules." + name, status.error().message);
        return;
      }
      r.rules.emplace_back(name, on);
    }
    if (!f.Has("violation") && !f.Has("tolerate")) {
      ctx.Fail(list[i], path, "expected a violation: INV-... or a tolerate: [...] with the rules");
      return;
    }
    r.expectation = ReadOneExpectation(list[i], ctx, path, {}, &f);
    if (f.Has("seeds")) r.seeds = ReadEntrySeeds(f.Get("seeds"), ctx, path + ".seeds", scenario);
    if (f.Has("found_by") && !ctx.failed()) {
      const YAML::Node by = f.Get("found_by");
      const std::string how = ReadString(by, ctx, path + ".found_by");
      if (!ctx.failed() && how != "runs" && how != "explore") {
        ctx.Fail(by, path + ".found_by", "expected runs or explore, got '" + how + "'");
      } else if (!ctx.failed() && how == "explore" && r.seeds) {
        ctx.Fail(by, path + ".found_by",
                 "an entry found by explore has no seeds (explore starts from the first)");
      }
      r.by_explore = how == "explore";
    }
    f.Finish({"rules", "profile", "violation", "tolerate", "seeds", "found_by"});
    if (ctx.failed()) return;
    r.overrides = scenario.OverridesFor(r.profile, r.rules);
    if (r.overrides == scenario.OverridesFor(r.profile, {})) {
      ctx.Fail(rules, path + ".rules",
               "these rules change nothing: the " + r.profile +
                   " profile with the scenario's rules has them already");
      return;
    }
    for (const RuleExpectation& other : scenario.rule_expect) {
      if (other.profile == r.profile && other.overrides == r.overrides) {
        ctx.Fail(rules, path + ".rules",
                 "a second expectation for " + r.profile + " with " + r.overrides);
        return;
      }
    }
    scenario.rule_expect.push_back(std::move(r));
  }
}

void ReadExpect(const YAML::Node& node, LoadContext& ctx, Scenario& scenario) {
  Fields f(node, ctx, "expect");
  for (const char* profile : {"reference", "greptime"}) {
    if (!f.Has(profile)) continue;
    const std::string path = std::string("expect.") + profile;
    scenario.expect[profile] = ReadOneExpectation(f.Get(profile), ctx, path, {}, nullptr);
    if (ctx.failed()) return;
  }
  if (f.Has("with_rules")) ReadRuleExpectations(f.Get("with_rules"), ctx, scenario);
  f.Finish({"reference", "greptime", "with_rules"});
}

// Whether some profile's expectation (or a with_rules entry) names or tolerates DDL-REJECTED:
// the scenario scripts a statement the cluster refuses on purpose.
bool ExpectsRejectedDdl(const Scenario& s) {
  const auto names = [](const Expectation& e) {
    return e.invariant == "DDL-REJECTED" ||
           std::find(e.tolerate.begin(), e.tolerate.end(), "DDL-REJECTED") != e.tolerate.end();
  };
  for (const auto& [profile, e] : s.expect) {
    if (names(e)) return true;
  }
  return std::any_of(s.rule_expect.begin(), s.rule_expect.end(),
                     [&](const RuleExpectation& r) { return names(r.expectation); });
}

// A scripted ALTER that the frontend's check rejects under both profiles, against the table's
// rule as the scripted ALTERs before it leave it, would only fail at run time (DDL-REJECTED)
// without testing what the scenario says: refused at load, unless the step skips the check
// (`validate: false`) or the scenario expects the rejection. The first rejected ALTER ends the
// check (what follows depends on it).
void CheckScriptedAlters(LoadContext& ctx, const Scenario& s) {
  if (ExpectsRejectedDdl(s)) return;
  model::sql::TableState table = model::sql::TableState::FromCreate(s.table);
  for (const std::vector<ScriptedStep>* list : {&s.setup, &s.steps}) {
    for (const ScriptedStep& step : *list) {
      const auto* alter = model::OpIf<model::RepartitionOp>(&step.op);
      if (alter == nullptr || !alter->validate) continue;
      auto greptime = model::sql::PlanRepartition(table, alter->alter, step.location,
                                                  model::sql::PlanOptions::Greptime());
      auto reference = model::sql::PlanRepartition(table, alter->alter, step.location,
                                                   model::sql::PlanOptions::Reference());
      if (greptime.ok()) {
        table = greptime.value().result;
      } else if (reference.ok()) {
        table = reference.value().result;
      } else {
        ctx.FailAt(step.location, list == &s.setup ? "setup" : "steps",
                   "the scripted `" + alter->sql + "` is rejected against the table's rule " +
                       "at this step: " + greptime.error().message +
                       " (expect DDL-REJECTED if the scenario tests the rejection)");
        return;
      }
    }
  }
}

void ReadTop(const YAML::Node& root, LoadContext& ctx, Scenario& s) {
  Fields f(root, ctx, "");
  f.RejectUnknown(kTopKeys);
  s.name = ReadString(f.Require("name"), ctx, "name");
  if (s.name.empty() && !ctx.failed())
    ctx.Fail(f.Get("name"), "name", "a scenario name is required, got ''");
  if (f.Has("description")) s.description = ReadString(f.Get("description"), ctx, "description");
  if (f.Has("tags")) s.tags = ReadStringList(f.Get("tags"), ctx, "tags");
  if (f.Has("shape")) {
    const YAML::Node shape = f.Get("shape");
    if (ReadString(shape, ctx, "shape") == "swarm") {
      s.shape_swarm = true;
    } else if (!ctx.failed()) {
      ctx.Fail(shape, "shape", "unknown shape; expected swarm");
    }
  }
  if (f.Has("shape_only")) ReadShapeOnly(f.Get("shape_only"), ctx, s);
  if (f.Has("profile")) {
    const YAML::Node p = f.Get("profile");
    s.profile = ReadString(p, ctx, "profile");
    if (!ctx.failed() && !model::Protocol::FromProfileName(s.profile).ok()) {
      ctx.Fail(p, "profile", "unknown profile '" + s.profile + "'; expected greptime or reference");
    }
  }
  if (f.Has("rules")) ReadRules(f.Get("rules"), ctx, s);
  if (f.Has("cluster")) ReadCluster(f.Get("cluster"), ctx, s);
  const YAML::Node table = f.Require("table");
  if (!ctx.failed()) ReadTable(table, ctx, s);
  if (f.Has("limits") && !ctx.failed()) ReadLimits(f.Get("limits"), ctx, s);
  if (f.Has("setup") && !ctx.failed()) ReadSetup(f.Get("setup"), ctx, s);
  if (f.Has("steps") && !ctx.failed()) ReadSteps(f.Get("steps"), ctx, s);
  if (!ctx.failed()) CheckRegionCount(table, ctx, s);
  if (f.Has("workload") && !ctx.failed()) ReadWorkload(f.Get("workload"), ctx, s);
  if (f.Has("faults") && !ctx.failed()) ReadFaults(f.Get("faults"), ctx, s);
  if (!ctx.failed()) CheckRunSize(root, ctx, s);
  if (f.Has("seeds") && !ctx.failed()) ReadSeeds(f.Get("seeds"), ctx, s);
  const YAML::Node expect = f.Require("expect");
  if (!ctx.failed()) ReadExpect(expect, ctx, s);
  if (!ctx.failed()) CheckScriptedAlters(ctx, s);
  f.Finish(kTopKeys);
}

}  // namespace

std::optional<Expectation> Scenario::ExpectationFor(const std::string& profile_name) const {
  auto it = expect.find(profile_name);
  if (it == expect.end()) return std::nullopt;
  return it->second;
}

const RuleExpectation* Scenario::RuleExpectationFor(const std::string& profile_name,
                                                    const std::string& overrides) const {
  if (overrides.empty()) return nullptr;
  for (const RuleExpectation& r : rule_expect) {
    if (r.profile == profile_name && r.overrides == overrides) return &r;
  }
  return nullptr;
}

std::optional<Expectation> Scenario::ExpectationFor(const std::string& profile_name,
                                                    const std::string& overrides) const {
  if (const RuleExpectation* r = RuleExpectationFor(profile_name, overrides)) {
    if (!r->by_explore || r->expectation.pass) return r->expectation;
    // A random run seldom draws what explore finds: it may show the violation, or not.
    Expectation e = r->expectation;
    e.tolerate.push_back(e.invariant);
    std::sort(e.tolerate.begin(), e.tolerate.end());
    e.invariant.clear();
    e.pass = true;
    return e;
  }
  return ExpectationFor(profile_name);
}

std::string Scenario::OverridesFor(const std::string& profile_name,
                                   const std::vector<std::pair<std::string, bool>>& extra) const {
  auto protocol = model::Protocol::FromProfileName(profile_name);
  if (!protocol.ok()) return "";
  for (const auto* list : {&rules, &extra}) {
    for (const auto& [name, on] : *list) {
      if (!protocol.value().SetByName(name, on).ok()) return "";
    }
  }
  return protocol.value().OverridesText();
}

const char* QueryShapeName(QueryShape shape) {
  switch (shape) {
    case QueryShape::kAll:
      return "all";
    case QueryShape::kCount:
      return "count";
    case QueryShape::kPoint:
      return "point";
    case QueryShape::kRange:
      return "range";
  }
  return "?";
}

namespace {

// Notes where a document starts; ignores every other event.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> start;
  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Where a second YAML document of `text` starts, if it has one. Two calls of the parser at
// most, so input on which the parser never ends its stream of documents cannot hang here.
std::optional<YAML::Mark> SecondDocument(std::string_view text) {
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  DocumentStarts first, second;
  if (!parser.HandleNextDocument(first)) return std::nullopt;
  if (!parser.HandleNextDocument(second)) return std::nullopt;
  return second.start;
}

// The first node of `node` (itself, then its keys and values, in document order) that carries
// an explicit tag other than the core schema's (`!foo`, `!!binary`): nullptr when none. A tag
// changes nothing the loader reads, so an unknown one is refused instead of ignored.
const YAML::Node* FirstForeignTag(const YAML::Node& node, std::vector<YAML::Node>& keep,
                                  int depth) {
  const std::string& tag = node.Tag();
  if (!tag.empty() && tag != "?" && tag != "!" && tag != "tag:yaml.org,2002:str" &&
      tag != "tag:yaml.org,2002:int" && tag != "tag:yaml.org,2002:map" &&
      tag != "tag:yaml.org,2002:seq") {
    keep.push_back(node);
    return &keep.back();
  }
  if (depth > 64) return nullptr;  // the readers refuse deeper documents themselves
  if (node.IsMap()) {
    for (const auto& item : node) {
      if (const YAML::Node* found = FirstForeignTag(item.first, keep, depth + 1)) return found;
      if (const YAML::Node* found = FirstForeignTag(item.second, keep, depth + 1)) return found;
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) {
      if (const YAML::Node* found = FirstForeignTag(item, keep, depth + 1)) return found;
    }
  }
  return nullptr;
}

}  // namespace

sim::Result<Scenario> ParseScenario(std::string_view text, const std::string& file) {
  if (text.size() > kScenarioBytesMax) {
    return sim::Error{sim::SourceLocation{file, 1, 1},
                      "scenario of " + std::to_string(text.size()) +
                          " bytes exceeds the limit of " + std::to_string(kScenarioBytesMax) +
                          " bytes"};
  }
  if (const std::optional<size_t> bad = sim::FirstInvalidUtf8(text)) {
    return sim::Error{sim::LocateOffset(text, *bad, file),
                      sim::InvalidUtf8Message(text, *bad) + " (a scenario must be UTF-8)"};
  }
  LoadContext ctx(file, std::string(text));
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
    // A document after the first is refused, not silently dropped. Not YAML::LoadAll: on some
    // malformed input (", x") yaml-cpp 0.7's parser yields empty documents forever.
    if (std::optional<YAML::Mark> second = SecondDocument(text); second && root.IsMap()) {
      return sim::Error{sim::SourceLocation{file, static_cast<uint32_t>(second->line + 1),
                                            static_cast<uint32_t>(second->column + 1)},
                        "a scenario is one YAML document; a second one starts here (remove the "
                        "'---' and what follows, or split the file)"};
    }
  } catch (const YAML::Exception& e) {
    const uint32_t line = e.mark.is_null() ? 0 : static_cast<uint32_t>(e.mark.line + 1);
    const uint32_t column = e.mark.is_null() ? 0 : static_cast<uint32_t>(e.mark.column + 1);
    return sim::Error{sim::SourceLocation{file, line, column}, "YAML: " + e.msg};
  }
  if (root.IsNull() && root.Mark().is_null()) {
    // Nothing but comments and blank lines: yaml-cpp gives a null node without a position.
    return sim::Error{sim::SourceLocation{file, 1, 1},
                      "empty scenario: expected a mapping with at least name, table and expect"};
  }
  Scenario scenario;
  scenario.path = file;
  try {
    std::vector<YAML::Node> keep;
    keep.reserve(1);
    if (const YAML::Node* tagged = FirstForeignTag(root, keep, 0)) {
      ctx.Fail(*tagged, "", "unknown YAML tag '" + tagged->Tag() + "': a scenario uses none");
      return ctx.error();
    }
    ReadTop(root, ctx, scenario);
  } catch (const YAML::Exception& e) {
    // Defensive: the readers check node kinds first, so yaml-cpp should never throw here.
    ctx.FailAt(sim::SourceLocation{file, 0, 0}, "", "YAML: " + e.msg);
  }
  if (ctx.failed()) return ctx.error();
  return scenario;
}

sim::Result<Scenario> LoadScenarioFile(const std::string& path) {
  auto text = sim::ReadInputFile(path, kScenarioBytesMax, "scenario file");
  if (!text.ok()) return text.error();
  return ParseScenario(text.value(), path);
}

}  // namespace repartsim::scenario
