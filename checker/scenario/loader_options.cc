// The workload, faults and limits sections of a scenario.
#include <algorithm>

#include "checker/scenario/crash_sites.h"
#include "checker/scenario/loader_internal.h"
#include "checker/scenario/scenario_limits.h"
#include "checker/scenario/swarm_shape.h"
#include "sim/suggest.h"

namespace repartsim::scenario {

namespace {

bool IsIntegerLike(model::ColumnType type) {
  return type != model::ColumnType::kString && type != model::ColumnType::kBool;
}

void ReadColumnDomain(const YAML::Node& key, const YAML::Node& node, LoadContext& ctx, Scenario& s,
                      const std::string& path) {
  const std::string name = ReadString(key, ctx, path);
  if (ctx.failed()) return;
  std::optional<size_t> index = s.table.schema.FindColumn(name);
  if (!index) {
    ctx.Fail(key, path + "." + name,
             "unknown column '" + name + "' of table '" + s.table.schema.name + "'");
    return;
  }
  const model::Column& column = s.table.schema.columns[*index];
  const std::string cpath = path + "." + name;
  Fields f(node, ctx, cpath);
  ColumnDomain domain;
  if (column.type == model::ColumnType::kString) {
    domain.strings = ReadStringList(f.Require("values"), ctx, cpath + ".values");
    if (!ctx.failed() && domain.strings.empty()) ctx.Fail(node, cpath, "values must not be empty");
  } else if (IsIntegerLike(column.type)) {
    domain.min = ReadInt(f.Require("min"), ctx, cpath + ".min", INT64_MIN / 4, INT64_MAX / 4);
    domain.max = ReadInt(f.Require("max"), ctx, cpath + ".max", INT64_MIN / 4, INT64_MAX / 4);
    if (!ctx.failed() && domain.min > domain.max) ctx.Fail(node, cpath, "min exceeds max");
  }
  if (f.Has("nulls")) {
    domain.null = ReadRatio(f.Get("nulls"), ctx, cpath + ".nulls");
    if (!ctx.failed() && !domain.null.IsNever() && !column.nullable) {
      ctx.Fail(node, cpath + ".nulls", "column '" + name + "' is NOT NULL");
    }
  }
  f.Finish(column.type == model::ColumnType::kString
               ? std::vector<std::string>{"values", "nulls"}
               : std::vector<std::string>{"min", "max", "nulls"});
  s.workload.columns[name] = domain;
}

void ReadQueries(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  std::vector<std::string> names = ReadStringList(node, ctx, "workload.queries");
  s.workload.queries.clear();
  for (size_t i = 0; i < names.size() && !ctx.failed(); ++i) {
    bool found = false;
    for (QueryShape shape :
         {QueryShape::kAll, QueryShape::kCount, QueryShape::kPoint, QueryShape::kRange}) {
      if (names[i] == QueryShapeName(shape)) {
        s.workload.queries.push_back(shape);
        found = true;
      }
    }
    if (!found) {
      ctx.Fail(node[i], "workload.queries[" + std::to_string(i) + "]",
               "unknown query shape '" + names[i] + "'; expected all, count, point or range");
    }
  }
  if (!ctx.failed() && s.workload.queries.empty()) {
    ctx.Fail(node, "workload.queries", "at least one query shape is needed");
  }
}

}  // namespace

void ReadShapeOnly(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  if (!s.shape_swarm) {
    ctx.Fail(node, "shape_only", "shape_only needs 'shape: swarm'");
    return;
  }
  if (!node.IsMap()) {
    ctx.Fail(node, "shape_only", "expected a mapping of swarm feature to a list of its values");
    return;
  }
  const auto& features = SwarmFeatureValues();
  for (const auto& item : node) {
    if (ctx.failed()) return;
    const std::string name = ReadString(item.first, ctx, "shape_only");
    const auto feature = std::find_if(features.begin(), features.end(),
                                      [&](const auto& f) { return f.first == name; });
    if (!ctx.failed() && feature == features.end()) {
      ctx.Fail(item.first, "shape_only", "unknown swarm feature '" + name + "'");
      return;
    }
    const std::string path = "shape_only." + name;
    std::vector<std::string> values = ReadStringList(item.second, ctx, path);
    for (size_t i = 0; i < values.size() && !ctx.failed(); ++i) {
      const std::string& v = values[i];
      if (std::find(feature->second.begin(), feature->second.end(), v) == feature->second.end()) {
        ctx.Fail(item.second[i], path + "[" + std::to_string(i) + "]",
                 "'" + v + "' is not a value of swarm feature '" + name + "'");
      }
    }
    if (!ctx.failed() && values.empty()) ctx.Fail(item.second, path, "expected at least one value");
    s.shape_only[name] = std::move(values);
  }
}

void ReadWorkload(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  Fields f(node, ctx, "workload");
  Workload& w = s.workload;
  w.enabled = true;
  if (f.Has("writers"))
    w.writers_per_frontend = ReadInt(f.Get("writers"), ctx, "workload.writers", 0, 64);
  if (f.Has("readers"))
    w.readers_per_frontend = ReadInt(f.Get("readers"), ctx, "workload.readers", 0, 64);
  if (f.Has("frontends")) {
    w.frontend_count = ReadInt(f.Get("frontends"), ctx, "workload.frontends", 1, s.frontend_count);
  }
  if (f.Has("start_ms"))
    w.start_ms = ReadInt(f.Get("start_ms"), ctx, "workload.start_ms", 0, kScenarioTimeMsMax);
  if (f.Has("end_ms"))
    w.end_ms = ReadInt(f.Get("end_ms"), ctx, "workload.end_ms", 0, kScenarioTimeMsMax);
  if (f.Has("write_interval_ms")) {
    w.write_interval_ms =
        ReadInt(f.Get("write_interval_ms"), ctx, "workload.write_interval_ms", 1, 3600000);
  }
  if (f.Has("read_interval_ms")) {
    w.read_interval_ms =
        ReadInt(f.Get("read_interval_ms"), ctx, "workload.read_interval_ms", 1, 3600000);
  }
  if (f.Has("rows_per_write")) {
    w.rows_per_write_max = ReadInt(f.Get("rows_per_write"), ctx, "workload.rows_per_write", 1, 100);
  }
  if (f.Has("bulk")) w.bulk = ReadRatio(f.Get("bulk"), ctx, "workload.bulk");
  if (f.Has("flight")) w.flight = ReadRatio(f.Get("flight"), ctx, "workload.flight");
  if (f.Has("columns")) {
    const YAML::Node columns = f.Get("columns");
    if (!columns.IsMap()) {
      ctx.Fail(columns, "workload.columns", "expected a mapping of column name to domain");
    } else {
      for (const auto& item : columns) {
        if (ctx.failed()) break;
        ReadColumnDomain(item.first, item.second, ctx, s, "workload.columns");
      }
    }
  }
  if (f.Has("queries")) ReadQueries(f.Get("queries"), ctx, s);
  if (w.end_ms == 0 || w.end_ms > s.limits.time_ms_max) w.end_ms = s.limits.time_ms_max;
  if (!ctx.failed() && w.start_ms >= w.end_ms) {
    ctx.Fail(node, "workload",
             "the workload starts at or after its end (" + std::to_string(w.end_ms) + " ms)");
  }
  f.Finish({"writers", "readers", "frontends", "start_ms", "end_ms", "write_interval_ms",
            "read_interval_ms", "rows_per_write", "bulk", "flight", "columns", "queries"});
}

void ReadFaults(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  Fields f(node, ctx, "faults");
  Faults& x = s.faults;
  if (f.Has("drop")) x.drop = ReadRatio(f.Get("drop"), ctx, "faults.drop");
  if (f.Has("duplicate")) {
    ctx.Fail(f.Get("duplicate"), "faults.duplicate",
             "the network never duplicates a message (a gRPC call or stream delivers each at "
             "most once); copies come only from application retries, or from a scripted "
             "`duplicate` step");
  }
  if (f.Has("delay")) x.delay = ReadRatio(f.Get("delay"), ctx, "faults.delay");
  if (f.Has("delay_ms_max"))
    x.delay_ms_max = ReadInt(f.Get("delay_ms_max"), ctx, "faults.delay_ms_max", 0, 600000);
  if (f.Has("latency_ms"))
    x.latency_ms = ReadInt(f.Get("latency_ms"), ctx, "faults.latency_ms", 0, 60000);
  if (f.Has("reset")) x.reset = ReadRatio(f.Get("reset"), ctx, "faults.reset");
  if (f.Has("pause")) x.pause = ReadRatio(f.Get("pause"), ctx, "faults.pause");
  if (f.Has("pause_ms_max"))
    x.pause_ms_max = ReadInt(f.Get("pause_ms_max"), ctx, "faults.pause_ms_max", 0, 600000);
  if (f.Has("lease_gap")) x.lease_gap = ReadRatio(f.Get("lease_gap"), ctx, "faults.lease_gap");
  if (f.Has("lease_gap_ms_max")) {
    x.lease_gap_ms_max =
        ReadInt(f.Get("lease_gap_ms_max"), ctx, "faults.lease_gap_ms_max", 0, 600000);
  }
  if (f.Has("leader_start_ms_max")) {
    x.leader_start_ms_max =
        ReadInt(f.Get("leader_start_ms_max"), ctx, "faults.leader_start_ms_max", 0, 600000);
  }
  if (f.Has("replay_fail")) {
    x.replay_fail = ReadRatio(f.Get("replay_fail"), ctx, "faults.replay_fail");
  }
  if (f.Has("compact")) x.compact = ReadRatio(f.Get("compact"), ctx, "faults.compact");
  if (f.Has("gc")) x.gc = ReadRatio(f.Get("gc"), ctx, "faults.gc");
  if (f.Has("migrate")) x.migrate = ReadRatio(f.Get("migrate"), ctx, "faults.migrate");
  if (f.Has("checkpoint_race")) {
    x.checkpoint_race = ReadRatio(f.Get("checkpoint_race"), ctx, "faults.checkpoint_race");
  }
  if (f.Has("crash")) x.crash = ReadRatio(f.Get("crash"), ctx, "faults.crash");
  if (f.Has("restart_after_ms")) {
    x.restart_after_ms =
        ReadInt(f.Get("restart_after_ms"), ctx, "faults.restart_after_ms", 0, 3600000);
  }
  if (f.Has("swarm")) x.swarm = ReadBool(f.Get("swarm"), ctx, "faults.swarm");
  auto site_ok = [&](const YAML::Node& n, const std::string& site, const std::string& path) {
    if (ctx.failed() || IsKnownCrashSite(site)) return !ctx.failed();
    ctx.Fail(n, path,
             "unknown crash site '" + site + "'" + sim::DidYouMean(site, KnownCrashSites()) +
                 "; `repartsim run --list-crash-sites` prints the known ones");
    return false;
  };
  if (f.Has("crash_sites")) {
    const YAML::Node sites = f.Get("crash_sites");
    if (!sites.IsMap()) {
      ctx.Fail(sites, "faults.crash_sites", "expected a mapping of crash site to ratio");
    } else {
      for (const auto& item : sites) {
        const std::string site = ReadString(item.first, ctx, "faults.crash_sites");
        const std::string path = "faults.crash_sites." + site;
        if (!site_ok(item.first, site, path)) break;
        x.crash_sites[site] = ReadRatio(item.second, ctx, path);
      }
    }
  }
  if (f.Has("crash_at")) {
    Fields c(f.Get("crash_at"), ctx, "faults.crash_at");
    const YAML::Node site_node = c.Require("site");
    const std::string site = ReadString(site_node, ctx, "faults.crash_at.site");
    uint64_t hit = 1;
    if (c.Has("hit")) hit = ReadInt(c.Get("hit"), ctx, "faults.crash_at.hit", 1, 1000000);
    if (site_ok(site_node, site, "faults.crash_at.site")) x.crash_at = std::make_pair(site, hit);
    c.Finish({"site", "hit"});
  }
  if (f.Has("decisions")) {
    const YAML::Node list = f.Get("decisions");
    if (ExpectSequence(list, ctx, "faults.decisions")) {
      for (size_t i = 0; i < list.size() && !ctx.failed(); ++i) {
        const std::string path = "faults.decisions[" + std::to_string(i) + "]";
        Fields d(list[i], ctx, path);
        sim::ScriptedDecision decision;
        decision.index = static_cast<uint64_t>(
            ReadInt(d.Require("index"), ctx, path + ".index", 0, int64_t{1} << 40));
        decision.label = ReadString(d.Require("label"), ctx, path + ".label");
        if (d.Has("value")) {
          decision.value = static_cast<uint32_t>(
              ReadInt(d.Get("value"), ctx, path + ".value", 0, int64_t{1} << 31));
        }
        d.Finish({"index", "label", "value"});
        if (!ctx.failed() && !x.decisions.empty() && x.decisions.back().index >= decision.index) {
          ctx.Fail(list[i], path + ".index", "decision indices must increase");
        }
        x.decisions.push_back(std::move(decision));
      }
    }
  }
  if (!ctx.failed() && !x.delay.IsNever() && x.delay_ms_max == 0) {
    ctx.Fail(node, "faults.delay_ms_max", "a delay ratio needs delay_ms_max > 0");
  }
  if (!ctx.failed() && !x.pause.IsNever() && x.pause_ms_max == 0) {
    ctx.Fail(node, "faults.pause_ms_max", "a pause ratio needs pause_ms_max > 0");
  }
  if (!ctx.failed() && !x.lease_gap.IsNever() && x.lease_gap_ms_max == 0) {
    ctx.Fail(node, "faults.lease_gap_ms_max", "a lease_gap ratio needs lease_gap_ms_max > 0");
  }
  f.Finish({"drop",
            "duplicate",
            "delay",
            "delay_ms_max",
            "latency_ms",
            "reset",
            "pause",
            "pause_ms_max",
            "lease_gap",
            "lease_gap_ms_max",
            "leader_start_ms_max",
            "replay_fail",
            "compact",
            "gc",
            "migrate",
            "checkpoint_race",
            "crash",
            "crash_sites",
            "crash_at",
            "restart_after_ms",
            "swarm",
            "decisions"});
}

void ReadLimits(const YAML::Node& node, LoadContext& ctx, Scenario& s) {
  Fields f(node, ctx, "limits");
  Limits& l = s.limits;
  if (f.Has("steps_max"))
    l.steps_max = ReadInt(f.Get("steps_max"), ctx, "limits.steps_max", 1, kRunStepsMax);
  if (f.Has("time_ms_max")) {
    l.time_ms_max =
        ReadInt(f.Get("time_ms_max"), ctx, "limits.time_ms_max", 1000, kScenarioTimeMsMax);
  }
  if (f.Has("liveness_ms")) {
    l.liveness_ms = ReadInt(f.Get("liveness_ms"), ctx, "limits.liveness_ms", 0, kScenarioTimeMsMax);
  }
  if (f.Has("settle_ms"))
    l.settle_ms = ReadInt(f.Get("settle_ms"), ctx, "limits.settle_ms", 0, kScenarioTimeMsMax);
  if (!ctx.failed() && l.settle_ms > l.liveness_ms) {
    ctx.Fail(node, "limits.settle_ms", "settle_ms exceeds liveness_ms");
  }
  f.Finish({"steps_max", "time_ms_max", "liveness_ms", "settle_ms"});
}

}  // namespace repartsim::scenario
