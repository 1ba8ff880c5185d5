// Setup and scripted steps: each at a virtual time or after a named procedure state, with one
// action: SQL statements from a frontend (loader_sql.cc), flushes, compactions, crash/restart
// of a named node, partitions, heal, stale caches, per-kind message rules (loader_rules.cc) and
// lease expiry.
#include <algorithm>

#include "checker/scenario/crash_sites.h"
#include "checker/scenario/loader_internal.h"
#include "checker/scenario/scenario_limits.h"
#include "sim/suggest.h"

namespace repartsim::scenario {

namespace {

const std::vector<std::string> kStepKeys = {
    "at_ms",       "after",   "delay_ms",  "occurrence",   "sql",         "frontend", "flush",
    "crash",       "restart", "partition", "heal",         "stale_cache", "drop",     "delay",
    "duplicate",   "hold",    "reorder",   "expire_lease", "bulk",        "validate", "flight",
    "replay_fail", "compact", "gc",        "migrate"};
const std::vector<std::string> kActions = {
    "sql",   "flush",     "crash", "restart", "partition",    "heal",    "stale_cache", "drop",
    "delay", "duplicate", "hold",  "reorder", "expire_lease", "compact", "gc",          "migrate"};
const std::vector<std::string> kRuleKeys = {"kind", "from", "to", "count", "ms", "until"};

std::string NodeList(const Scenario& s) {
  return "metasrv, dn1..dn" + std::to_string(s.datanode_count) + ", fe1..fe" +
         std::to_string(s.frontend_count);
}

// `flush: all` (each region the table was created with, on its first leader), `flush:
// writable` (every writable region of every datanode up when the step runs, regions a
// repartition made included) or `flush: {region: N, node: dnK}` (node defaults to the initial
// placement); `compact:` `all` (every writable region when the step runs) or the mapping.
void ReadRegionStep(const std::string& action, const YAML::Node& node, int64_t at_ms,
                    LoadContext& ctx, Scenario& s, const std::string& path,
                    std::vector<ScriptedStep>& out) {
  const bool compact = action == "compact";
  const size_t regions = std::max<size_t>(1, s.table.rule.exprs.size());
  auto leader = [&](size_t region) {
    uint32_t dn = region < s.placement.size() ? s.placement[region] : static_cast<uint32_t>(region);
    return model::NodeId{1 + dn % s.datanode_count};
  };
  auto region_id = [&](size_t region) {
    return model::RegionId::Of(s.table_id(), model::RegionNumber{static_cast<uint32_t>(region)});
  };
  if (node.IsScalar() && node.Scalar() == "all" && compact) {
    out.push_back(MakeStep(at_ms, model::CompactOp{{}, {}, /*every_region=*/true}, ctx.At(node)));
    return;
  }
  if (node.IsScalar() && node.Scalar() == "writable" && !compact) {
    out.push_back(MakeStep(at_ms, model::FlushOp{{}, {}, /*every_region=*/true}, ctx.At(node)));
    return;
  }
  if (node.IsScalar() && node.Scalar() == "all") {
    for (size_t r = 0; r < regions; ++r) {
      out.push_back(MakeStep(at_ms, model::FlushOp{leader(r), region_id(r)}, ctx.At(node)));
    }
    return;
  }
  if (!node.IsMap()) {
    ctx.Fail(node, path,
             compact ? "expected 'all' or a mapping {region: N, node: dnK}"
                     : "expected 'all', 'writable' or a mapping {region: N, node: dnK}");
    return;
  }
  Fields f(node, ctx, path);
  const uint32_t region =
      static_cast<uint32_t>(ReadInt(f.Require("region"), ctx, path + ".region", 0, 1u << 30));
  model::NodeId on = leader(region);
  if (f.Has("node")) {
    if (auto n = ReadNode(f.Get("node"), ctx, s, path + ".node")) on = *n;
    if (!ctx.failed() && (on.value == 0 || on.value > s.datanode_count)) {
      ctx.Fail(f.Get("node"), path + ".node", action + " needs a datanode");
    }
  }
  f.Finish({"region", "node"});
  if (compact) {
    out.push_back(MakeStep(at_ms, model::CompactOp{on, region_id(region)}, ctx.At(node)));
  } else {
    out.push_back(MakeStep(at_ms, model::FlushOp{on, region_id(region)}, ctx.At(node)));
  }
}

// `migrate: {region: N, from: dnK, to: dnJ, timeout_ms: T}` (timeout_ms default 10000, the
// serde default of GreptimeDB's migration timeout): from and to are two different datanodes.
void ReadMigrateStep(const YAML::Node& node, int64_t at_ms, LoadContext& ctx, Scenario& s,
                     const std::string& path, std::vector<ScriptedStep>& out) {
  if (!node.IsMap()) {
    ctx.Fail(node, path, "expected a mapping {region: N, from: dnK, to: dnJ, timeout_ms: T}");
    return;
  }
  Fields f(node, ctx, path);
  const uint32_t region =
      static_cast<uint32_t>(ReadInt(f.Require("region"), ctx, path + ".region", 0, 1u << 30));
  model::NodeId ends[2];
  const char* keys[2] = {"from", "to"};
  for (int i = 0; i < 2; ++i) {
    const YAML::Node end = f.Require(keys[i]);
    if (ctx.failed()) return;
    if (auto n = ReadNode(end, ctx, s, path + "." + keys[i])) ends[i] = *n;
    if (!ctx.failed() && (ends[i].value == 0 || ends[i].value > s.datanode_count)) {
      ctx.Fail(end, path + "." + keys[i], std::string("migrate ") + keys[i] + " needs a datanode");
    }
  }
  if (!ctx.failed() && ends[0] == ends[1]) {
    ctx.Fail(f.Get("to"), path + ".to", "migrate needs two different datanodes");
  }
  int64_t timeout_ms = 10000;
  if (f.Has("timeout_ms"))
    timeout_ms = ReadInt(f.Get("timeout_ms"), ctx, path + ".timeout_ms", 1, 3600000);
  f.Finish({"region", "from", "to", "timeout_ms"});
  if (ctx.failed()) return;
  const model::RegionId id = model::RegionId::Of(s.table_id(), model::RegionNumber{region});
  out.push_back(MakeStep(
      at_ms, model::MigrateRegionOp{id, ends[0], ends[1], timeout_ms, std::nullopt}, ctx.At(node)));
}

std::vector<model::NodeId> ReadNodeList(const YAML::Node& node, LoadContext& ctx, const Scenario& s,
                                        const std::string& path) {
  std::vector<model::NodeId> out;
  if (!ExpectSequence(node, ctx, path)) return out;
  for (size_t i = 0; i < node.size(); ++i) {
    if (auto n = ReadNode(node[i], ctx, s, path + "[" + std::to_string(i) + "]")) out.push_back(*n);
  }
  return out;
}

// `replay_fail: N` on a restart step: the first N WAL entries the datanode replays when it
// reopens its regions fail to apply (GreptimeDB #8809); 0 when absent.
uint32_t ReadReplayFail(Fields& f, model::NodeId node, LoadContext& ctx, const Scenario& s) {
  if (!f.Has("replay_fail")) return 0;
  const int64_t n = ReadInt(f.Get("replay_fail"), ctx, f.PathOf("replay_fail"), 1, 1000000);
  if (!ctx.failed() && (node.value == 0 || node.value > s.datanode_count)) {
    ctx.Fail(f.Get("replay_fail"), f.PathOf("replay_fail"),
             "replay_fail applies to a restart step of a datanode only");
  }
  return static_cast<uint32_t>(n);
}

void ReadAction(const YAML::Node& node, int64_t at_ms, bool is_setup, LoadContext& ctx, Scenario& s,
                const std::string& path, std::vector<ScriptedStep>& out) {
  Fields f(node, ctx, path);
  if (!is_setup) {
    for (const char* key : {"at_ms", "after", "delay_ms", "occurrence"}) f.Get(key);  // ReadSteps
  }
  std::vector<std::string> present;
  for (const std::string& a : kActions) {
    if (f.Has(a)) present.push_back(a);
  }
  if (present.size() != 1) {
    ctx.Fail(node, path,
             present.empty()
                 ? "a step needs one action: sql, flush, compact, gc, crash, restart, partition, "
                   "heal, stale_cache, drop, delay, duplicate, hold, reorder, "
                   "expire_lease or migrate"
                 : "a step has one action, found '" + present[0] + "' and '" + present[1] + "'");
    return;
  }
  const std::string& action = present[0];
  const std::string apath = f.PathOf(action);
  uint32_t frontend = 0;
  if (f.Has("frontend")) frontend = ReadFrontend(f.Get("frontend"), ctx, s, f.PathOf("frontend"));
  if (is_setup && action != "sql" && action != "flush") {
    ctx.Fail(node, path, "setup allows only sql and flush; put '" + action + "' in steps");
    return;
  }
  const YAML::Node value = f.Get(action);
  const sim::SourceLocation where = ctx.At(node);
  // `bulk: true` sends the step's INSERTs through the pending-rows batcher, `flight: true`
  // through the Flight bulk insert (as the workload's `bulk` and `flight`).
  model::WritePath write_path = model::WritePath::kRow;
  for (model::WritePath candidate : {model::WritePath::kBatcher, model::WritePath::kFlight}) {
    const char* key = model::WritePathName(candidate);
    if (ctx.failed() || !f.Has(key)) continue;
    if (!ReadBool(f.Get(key), ctx, f.PathOf(key)) || ctx.failed()) continue;
    if (action != "sql") {
      ctx.Fail(f.Get(key), f.PathOf(key), std::string(key) + " applies to an sql step only");
    } else if (write_path != model::WritePath::kRow) {
      ctx.Fail(f.Get(key), f.PathOf(key), "a step takes one write path: bulk or flight, not both");
    }
    write_path = candidate;
  }
  if (f.Has("replay_fail") && action != "restart") {
    ctx.Fail(f.Get("replay_fail"), f.PathOf("replay_fail"),
             "replay_fail applies to a restart step of a datanode only");
    return;
  }
  if (action == "sql") {
    const size_t before = out.size();
    ReadSql(value, frontend, write_path, at_ms, ctx, s, apath, out);
    if (out.size() == before && !ctx.failed()) {
      ctx.Fail(value, apath, "an sql step needs at least one statement");
      return;
    }
    // `validate: false`: an ALTER submitted without the frontend's rule check.
    if (f.Has("validate") && !ctx.failed()) {
      const bool validate = ReadBool(f.Get("validate"), ctx, f.PathOf("validate"));
      for (size_t i = before; !ctx.failed() && i < out.size(); ++i) {
        auto* alter =
            std::get_if<model::RepartitionOp>(&std::get<model::ClientStatement>(out[i].op));
        if (alter == nullptr) {
          ctx.Fail(f.Get("validate"), f.PathOf("validate"),
                   "validate applies to an ALTER TABLE ... REPARTITION, SPLIT or MERGE step only");
        } else {
          alter->validate = validate;
        }
      }
    }
  } else if (action == "flush" || action == "compact") {
    ReadRegionStep(action, value, at_ms, ctx, s, apath, out);
  } else if (action == "crash" || action == "restart") {
    if (auto n = ReadNode(value, ctx, s, apath)) {
      if (action == "crash") {
        out.push_back(MakeStep(at_ms, model::CrashNodeOp{*n}, where));
      } else {
        out.push_back(
            MakeStep(at_ms, model::RestartNodeOp{*n, ReadReplayFail(f, *n, ctx, s)}, where));
      }
    }
  } else if (action == "partition") {
    Fields p(value, ctx, apath);
    model::PartitionOp op;
    op.side_a = ReadNodeList(p.Require("a"), ctx, s, apath + ".a");
    op.side_b = ReadNodeList(p.Require("b"), ctx, s, apath + ".b");
    if (p.Has("symmetric")) op.symmetric = ReadBool(p.Get("symmetric"), ctx, apath + ".symmetric");
    p.Finish({"a", "b", "symmetric"});
    out.push_back(MakeStep(at_ms, op, where));
  } else if (action == "heal") {
    if (!ReadBool(value, ctx, apath) && !ctx.failed()) {
      ctx.Fail(value, apath, "heal takes 'true'");
    }
    out.push_back(MakeStep(at_ms, model::HealOp{}, where));
  } else if (action == "stale_cache") {
    const uint32_t fe = ReadFrontend(value, ctx, s, apath);
    out.push_back(MakeStep(at_ms, model::StaleCacheOp{fe, s.table_id(), true}, where));
    s.stale_frontends.push_back(fe);
  } else if (action == "gc") {
    if (!ReadBool(value, ctx, apath) && !ctx.failed()) {
      ctx.Fail(value, apath, "gc takes 'true' (a GC pass now)");
    }
    out.push_back(MakeStep(at_ms, model::GcOp{}, where));
  } else if (action == "migrate") {
    ReadMigrateStep(value, at_ms, ctx, s, apath, out);
  } else if (action == "expire_lease") {
    if (auto n = ReadNode(value, ctx, s, apath)) {
      if (!ctx.failed() && !(n->value >= 1 && n->value <= s.datanode_count)) {
        ctx.Fail(value, apath, "expire_lease needs a datanode");
      }
      out.push_back(MakeStep(at_ms, model::ExpireLeaseOp{*n}, where));
    }
  } else {
    model::MessageRule rule = ReadMessageRule(action, value, ctx, s, apath);
    out.push_back(MakeStep(at_ms, model::MessageRuleOp{std::move(rule)}, where));
  }
  f.Finish(kStepKeys);
}

}  // namespace

ScriptedStep MakeStep(int64_t at_ms, model::ScheduledOp op, sim::SourceLocation where) {
  ScriptedStep step;
  step.at_ms = at_ms;
  step.op = std::move(op);
  step.location = std::move(where);
  return step;
}

// "Type.State" of a persisted procedure state; records an error naming the known ones.
std::string ReadProcedureState(const YAML::Node& node, LoadContext& ctx, const std::string& path) {
  std::string state = ReadString(node, ctx, path);
  if (ctx.failed() || IsKnownProcedureState(state)) return state;
  std::string known;
  for (const std::string& k : KnownProcedureStates()) known += (known.empty() ? "" : ", ") + k;
  ctx.Fail(node, path,
           "unknown procedure state '" + state + "'" +
               sim::DidYouMean(state, KnownProcedureStates()) + "; states are " + known);
  return state;
}

std::optional<model::NodeId> ReadNode(const YAML::Node& node, LoadContext& ctx, const Scenario& s,
                                      const std::string& path) {
  const std::string name = ReadString(node, ctx, path);
  if (ctx.failed()) return std::nullopt;
  if (name == "metasrv") return model::NodeId{0};
  auto number = [&](size_t prefix) -> int64_t {
    if (name.size() <= prefix || name.size() > prefix + 3) return -1;
    int64_t n = 0;
    for (size_t i = prefix; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return -1;
      n = n * 10 + (name[i] - '0');
    }
    return n;
  };
  if (name.rfind("dn", 0) == 0) {
    int64_t n = number(2);
    if (n >= 1 && n <= s.datanode_count) return model::NodeId{static_cast<uint32_t>(n)};
  } else if (name.rfind("fe", 0) == 0) {
    int64_t n = number(2);
    if (n >= 1 && n <= s.frontend_count) {
      return model::NodeId{s.datanode_count + static_cast<uint32_t>(n)};
    }
  }
  ctx.Fail(node, path, "unknown node '" + name + "'; nodes are " + NodeList(s));
  return std::nullopt;
}

uint32_t ReadFrontend(const YAML::Node& node, LoadContext& ctx, const Scenario& s,
                      const std::string& path) {
  if (node.IsScalar() && node.Scalar().rfind("fe", 0) == 0) {
    std::optional<model::NodeId> id = ReadNode(node, ctx, s, path);
    if (!id) return 0;
    if (id->value <= s.datanode_count) {
      ctx.Fail(node, path, "'" + node.Scalar() + "' is not a frontend");
      return 0;
    }
    return id->value - s.datanode_count - 1;
  }
  const int64_t index = ReadInt(node, ctx, path, 0, INT32_MAX);
  if (!ctx.failed() && index >= s.frontend_count) {
    ctx.Fail(node, path,
             "frontend " + std::to_string(index) + " out of range: the cluster has " +
                 std::to_string(s.frontend_count) + " frontends (0-based indices 0.." +
                 std::to_string(s.frontend_count - 1) + ")");
    return 0;
  }
  return static_cast<uint32_t>(index);
}

namespace {

// Setup and steps together hold at most kScenarioStepEntriesMax entries.
bool CheckEntryCount(const YAML::Node& node, LoadContext& ctx, const Scenario& s,
                     const std::string& path) {
  if (s.setup.size() + s.steps.size() + node.size() <= kScenarioStepEntriesMax) return true;
  ctx.Fail(
      node, path,
      "too many entries: setup and steps hold at most " + std::to_string(kScenarioStepEntriesMax));
  return false;
}

}  // namespace

void ReadSetup(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  if (!ExpectSequence(node, ctx, "setup") || !CheckEntryCount(node, ctx, s, "setup")) return;
  for (size_t i = 0; i < node.size() && !ctx.failed(); ++i) {
    // Setup runs after CREATE TABLE has finished, 10 ms apart, in order.
    ReadAction(node[i], 1000 + 10 * static_cast<int64_t>(i), true, ctx, s,
               "setup[" + std::to_string(i) + "]", s.setup);
  }
}

void ReadSteps(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  if (!ExpectSequence(node, ctx, "steps") || !CheckEntryCount(node, ctx, s, "steps")) return;
  for (size_t i = 0; i < node.size() && !ctx.failed(); ++i) {
    const std::string path = "steps[" + std::to_string(i) + "]";
    if (!node[i].IsMap()) {
      ctx.Fail(node[i], path, std::string("expected a mapping, got a ") + NodeKindName(node[i]));
      return;
    }
    Fields f(node[i], ctx, path);
    std::string after_state;
    uint32_t occurrence = 1;
    int64_t at_ms = 0;
    if (f.Has("after")) {
      // Placed after a procedure state: at_ms is not allowed, delay_ms is the offset.
      if (f.Has("at_ms")) {
        ctx.Fail(f.Get("at_ms"), path + ".at_ms", "a step has either 'at_ms' or 'after', not both");
        return;
      }
      after_state = ReadProcedureState(f.Get("after"), ctx, path + ".after");
      if (f.Has("delay_ms")) {
        at_ms = ReadInt(f.Get("delay_ms"), ctx, path + ".delay_ms", 0, kScenarioTimeMsMax);
      }
      if (f.Has("occurrence")) {
        occurrence =
            static_cast<uint32_t>(ReadInt(f.Get("occurrence"), ctx, path + ".occurrence", 1, 1000));
      }
    } else {
      for (const char* key : {"delay_ms", "occurrence"}) {
        if (f.Has(key)) {
          ctx.Fail(f.Get(key), path + "." + key, std::string("'") + key + "' needs 'after'");
          return;
        }
      }
      if (!f.Has("at_ms")) {
        ctx.Fail(node[i], path,
                 "a step needs 'at_ms' (a virtual time) or 'after' (a procedure state)");
        return;
      }
      const YAML::Node at = f.Get("at_ms");
      at_ms = ReadInt(at, ctx, path + ".at_ms", 0, kScenarioTimeMsMax);
      if (!ctx.failed() && at_ms > s.limits.time_ms_max) {
        ctx.Fail(at, path + ".at_ms",
                 "step at " + std::to_string(at_ms) + " ms lies after the safety phase (" +
                     "limits.time_ms_max = " + std::to_string(s.limits.time_ms_max) + ")");
      }
    }
    if (ctx.failed()) return;
    const size_t first = s.steps.size();
    ReadAction(node[i], at_ms, false, ctx, s, path, s.steps);
    for (size_t k = first; k < s.steps.size(); ++k) {
      s.steps[k].after_state = after_state;
      s.steps[k].occurrence = occurrence;
    }
  }
}

}  // namespace repartsim::scenario
