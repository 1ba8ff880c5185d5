#include "checker/run/run_check.h"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "checker/check/check_at.h"
#include "checker/check/live_check.h"
#include "checker/check/meta_check.h"
#include "checker/check/oracle.h"
#include "checker/check/ownership.h"
#include "checker/check/probe_rows.h"
#include "checker/check/query_check.h"
#include "checker/check/row_text.h"
#include "checker/check/structural_check.h"
#include "checker/run/run_explain.h"
#include "model/meta/meta_keys.h"
#include "model/meta/table_metadata.h"
#include "model/node/refusal.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::run {

namespace {

using check::Violation;

// INV-OWN at acceptance: each breach the cluster recorded (by the model's filter-path
// evaluator) becomes a violation at its step, after SQLite agrees on exactly its rows.
void CheckAcceptedRows(const CheckInput& in, std::vector<Violation>& out) {
  const std::vector<model::OwnershipBreach>& breaches = in.cluster->history().ownership_breaches;
  if (breaches.empty()) return;
  check::OwnershipChecker checker(in.scenario->table.schema);
  for (const model::OwnershipBreach& b : breaches) {
    std::optional<Violation> v = check::CheckAcceptedWrite(
        checker, b.region, b.current ? &*b.current : nullptr, b.staging ? &*b.staging : nullptr,
        b.rows, check::CheckAt{b.step, b.at.ms});
    REPARTSIM_ASSERT_MSG(v.has_value() && v->rows.size() == b.rows.size(),
                         "SQLite and the model disagree on the rows a region accepted outside "
                         "its expression");
    out.push_back(std::move(*v));
  }
}

// True iff a repartition procedure was in progress at some point of [start_step, end_step]:
// from the DDL's issue to the end of its procedures as the metasrv saw them (one per
// submission; open-ended while one has not ended, e.g. a call a metasrv crash lost, or while a
// pending DDL has none yet); a DDL that never reached a procedure (rejected, or unknown with
// none submitted) ran nothing.
bool OverlapsDdl(const model::History& history, uint64_t start_step, uint64_t end_step) {
  for (const model::DdlRecord& d : history.ddls) {
    if (d.status == model::DdlStatus::kRejected || d.start_step > end_step) continue;
    if (d.procedures.empty()) {
      if (d.status == model::DdlStatus::kPending) return true;
      continue;
    }
    for (uint64_t procedure : d.procedures) {
      const model::ProcedureEnd* end = history.EndOf(procedure);
      if (end == nullptr || end->step >= start_step) return true;
    }
  }
  return false;
}

void CheckQueries(const CheckInput& in, check::Oracle& oracle, std::vector<Violation>& out) {
  const model::History& history = in.cluster->history();
  const bool tolerated = !in.cluster->protocol().On(model::Rule::kFencedReads);
  for (size_t index = history.retired_queries;
       index < history.retired_queries + history.queries.size(); ++index) {
    const model::QueryRecord& q = history.Query(index + 1);
    if (q.table != in.scenario->table_id() || q.status != model::QueryStatus::kOk) continue;
    if (in.query_watch != nullptr && in.query_watch->Passed(index)) continue;
    const check::QuerySpec spec = QuerySpecOf(q);
    check::QueryCheckContext context;
    context.at = check::CheckAt{q.end_step, q.end.ms};
    context.query = q.sql;
    for (model::RegionId r : q.regions) context.regions.push_back(r.ToString());
    context.overlapped_procedure = OverlapsDdl(history, q.start_step, q.end_step);
    context.read_anomaly_tolerated = tolerated;
    std::string scanned;
    for (model::RegionId r : q.regions) {
      if (!scanned.empty()) scanned += ", ";
      scanned += std::to_string(r.region_number().value);
    }
    const std::string note = "query " + std::to_string(q.id) + " from " +
                             in.cluster->NodeName(q.frontend) + " (issued at step " +
                             std::to_string(q.start_step) + ", completed at step " +
                             std::to_string(q.end_step) + ") planned with route version " +
                             std::to_string(q.route_version) + " and scanned " +
                             check::Plural(q.regions.size(), "region") + " (numbers " +
                             (scanned.empty() ? "none" : scanned) + ", listed above)";
    const std::string id = std::to_string(q.id);
    std::vector<Violation> found;
    if (q.count_star) {
      auto v = check::CheckCountQuery(oracle, spec, q.count, context);
      if (v.ok() && v.value()) found.push_back(*v.value());
    } else {
      auto v = check::CheckQuery(oracle, spec, q.rows, context);
      if (v.ok()) found = std::move(v).value();
    }
    for (Violation& v : found) {
      v.notes.push_back(note);
      v.context_needles = {"op query id=" + id + " ", "fe.query_plan id=" + id + " ",
                           "fe.query_done id=" + id + " "};
      ExplainQueryRows(in, q, v);
      out.push_back(std::move(v));
    }
  }
}

// The SQL of an expression's canonical text (GreptimeDB's JSON: {"Expr":{"lhs":..,"op":"Lt",
// "rhs":..}}, operands {"Column":c}, {"Value":{"Int64":5}} or another {"Expr":..}), for
// messages; `text` itself when it is not that.
std::string ExprSql(const std::string& text) {
  static const std::map<std::string, std::string> kOps = {
      {"Lt", "<"}, {"LtEq", "<="},  {"Gt", ">"},    {"GtEq", ">="},
      {"Eq", "="}, {"NotEq", "<>"}, {"And", "AND"}, {"Or", "OR"}};
  bool ok = true;
  std::function<std::string(const nlohmann::json&, bool)> sql = [&](const nlohmann::json& j,
                                                                    bool nested) {
    if (!j.is_object() || j.size() != 1) {
      ok = false;
      return std::string();
    }
    if (j.contains("Column") && j["Column"].is_string()) return j["Column"].get<std::string>();
    if (j.contains("Value") && j["Value"].is_object() && j["Value"].size() == 1) {
      const nlohmann::json& v = j["Value"].begin().value();
      return v.is_string() ? "'" + v.get<std::string>() + "'" : v.is_null() ? "NULL" : v.dump();
    }
    const nlohmann::json* e = j.contains("Expr") ? &j["Expr"] : nullptr;
    if (e == nullptr || !e->is_object() || !e->contains("op") || !(*e)["op"].is_string() ||
        kOps.count((*e)["op"].get<std::string>()) == 0 || !e->contains("lhs") ||
        !e->contains("rhs")) {
      ok = false;
      return std::string();
    }
    const std::string op = kOps.at((*e)["op"].get<std::string>());
    const bool logical = op == "AND" || op == "OR";
    const std::string out = sql((*e)["lhs"], logical) + " " + op + " " + sql((*e)["rhs"], logical);
    return nested && op == "OR" ? "(" + out + ")" : out;
  };
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return text;
  const std::string out = sql(parsed, false);
  return ok ? out : text;  // not the JSON form: the text as it is
}

check::MetaState BuildMetaState(const model::Cluster& cluster, const model::TableRoute& route) {
  check::MetaState state;
  for (const model::RegionRoute& r : route.region_routes) {
    state.routes.push_back({r.region_id, r.leader, r.ExprVersionValue(), r.is_staging()});
    if (r.partition_expr) state.expressions[r.ExprVersionValue()] = ExprSql(r.ExprText());
    state.partitions.push_back({r.region_id, r.ExprVersionValue()});
    state.allocations.push_back(r.region_id);
  }
  for (uint32_t i = 0; i < cluster.config().datanode_count; ++i) {
    const model::Datanode& dn = cluster.datanode(cluster.datanode_id(i));
    for (const auto& [id, region] : dn.regions()) {
      const bool leader = region.state() != model::RegionState::kFollower;
      state.open_regions.push_back({dn.id(), id, leader, region.committed_expr_version(),
                                    region.state() == model::RegionState::kStaging});
      if (!region.committed_expr_text().empty()) {
        state.expressions[region.committed_expr_version()] = ExprSql(region.committed_expr_text());
      }
    }
  }
  return state;
}

bool AlreadyReported(const std::vector<Violation>& reported, const Violation& v) {
  for (const Violation& r : reported) {
    if (r.invariant == v.invariant && r.message == v.message && r.regions == v.regions) return true;
  }
  return false;
}

// INV-LIVE for every probe that finished unacknowledged; the region named is the one of
// `route` (the final route) whose expression covers the probe row.
void CheckProbes(const CheckInput& in, const model::TableRoute* route, check::CheckAt at,
                 std::vector<Violation>& out) {
  const model::TableSchema& schema = in.scenario->table.schema;
  std::vector<check::ProbeRegion> regions;
  if (route != nullptr) {
    for (const model::RegionRoute& r : route->region_routes) {
      regions.push_back({r.region_id, r.partition_expr ? &*r.partition_expr : nullptr});
    }
  }
  check::LivenessState state;
  state.heal_step = in.heal_step;
  for (const ProbeResult& p : in.probes) {
    if (!p.finished || p.acked) continue;
    const check::ProbeRegion* covering = check::RegionCovering(regions, schema, p.row);
    state.probes.push_back(
        {p.row, covering ? covering->region : model::RegionId{}, false, p.error});
  }
  std::vector<Violation> live = check::CheckLiveness(schema, state, at);
  out.insert(out.end(), live.begin(), live.end());
}

void CheckQuiescent(const CheckInput& in, check::Oracle& oracle, std::vector<Violation>& out) {
  const model::Cluster& cluster = *in.cluster;
  const check::CheckAt at{in.end_step, in.end_time_ms};
  const model::TableSchema& schema = in.scenario->table.schema;
  std::optional<model::TableRoute> route =
      model::ReadTableRoute(cluster.metasrv().kv(), in.scenario->table_id());
  if (!route) return;  // CREATE TABLE never committed; queries already reported errors
  check::OwnershipChecker ownership(schema);
  ownership.set_cross_check(in.cross_check);
  std::vector<model::Row> all_rows;
  for (const model::RegionRoute& r : route->region_routes) {
    if (!r.leader || !cluster.IsDatanode(*r.leader)) continue;
    const model::Datanode& dn = cluster.datanode(*r.leader);
    const model::Region* region = dn.FindRegion(r.region_id);
    if (region == nullptr || !dn.is_up()) continue;  // INV-META reports it
    model::ScanReply scan =
        dn.HandleScan(r.region_id, std::nullopt, cluster.protocol(), cluster.object_store());
    if (!scan.ok()) continue;
    const auto& expr = region->version().partition_expr;
    auto own =
        check::CheckRegionOwnership(ownership, r.region_id, expr ? &*expr : nullptr, scan.rows, at);
    if (own) out.push_back(*own);
    all_rows.insert(all_rows.end(), scan.rows.begin(), scan.rows.end());
  }
  std::vector<Violation> ack = check::CheckAckAtQuiescence(oracle, all_rows, at);
  out.insert(out.end(), ack.begin(), ack.end());
  std::optional<model::PartitionRule> rule = PublishedRule(*in.scenario, *route);
  if (rule && !cluster.metasrv().procedures().HasActive()) {
    auto v = check::CheckPublishedRule(*rule, schema, in.scenario->table_id(),
                                       model::CheckMode::kExact, at);
    if (v && !AlreadyReported(in.step_violations, *v)) out.push_back(*v);
  }
  std::vector<Violation> meta = check::CheckMeta(BuildMetaState(cluster, *route), at);
  out.insert(out.end(), meta.begin(), meta.end());
  CheckProbes(in, &*route, at, out);
}

void CheckNotQuiescent(const CheckInput& in, std::vector<Violation>& out) {
  const model::Cluster& cluster = *in.cluster;
  const check::CheckAt at{in.end_step, in.end_time_ms};
  check::LivenessState state;
  state.heal_step = in.heal_step;
  for (const auto& [id, slot] : cluster.metasrv().procedures().slots()) {
    if (slot.status == model::ProcedureStatus::kDone) continue;
    check::ProcedureStatus p;
    p.procedure_id = std::to_string(id.value);
    p.kind = std::string(slot.body.type());
    p.outcome = slot.status == model::ProcedureStatus::kFailed ? check::ProcedureOutcome::kFailed
                                                               : check::ProcedureOutcome::kRunning;
    p.state = slot.body.state_name();
    p.waiting_for = std::string(model::ProcedureStatusName(slot.status)) +
                    (slot.error.empty() ? "" : ": " + slot.error);
    if (p.outcome == check::ProcedureOutcome::kFailed) continue;  // rollback finished
    state.procedures.push_back(std::move(p));
  }
  for (uint32_t i = 0; i < cluster.config().datanode_count; ++i) {
    const model::Datanode& dn = cluster.datanode(cluster.datanode_id(i));
    for (const auto& [id, region] : dn.regions()) {
      if (region.state() == model::RegionState::kStaging) state.staging_regions.push_back(id);
    }
  }
  std::vector<Violation> live = check::CheckLiveness(in.scenario->table.schema, state, at);
  if (live.empty()) {
    Violation v;
    v.invariant = check::Invariant::kLive;
    v.step = at.step;
    v.time_ms = at.time_ms;
    v.message = "the cluster did not become quiescent after faults healed at step " +
                std::to_string(in.heal_step) + ": " + in.not_quiescent_reason;
    live.push_back(std::move(v));
  }
  out.insert(out.end(), live.begin(), live.end());
  std::optional<model::TableRoute> route =
      model::ReadTableRoute(cluster.metasrv().kv(), in.scenario->table_id());
  CheckProbes(in, route ? &*route : nullptr, at, out);
}

// DDL-REJECTED for every scripted DDL that never became a procedure: rejected by the frontend
// (an invalid MERGE, a second ALTER while one runs, an unavailable procedure manager) or a
// call that gave up before the metasrv took it. The scenario then does not test the
// repartition it describes.
void CheckRejectedDdls(const CheckInput& in, std::vector<Violation>& out) {
  for (const model::DdlRecord& d : in.cluster->history().ddls) {
    const bool never_submitted = d.status == model::DdlStatus::kUnknown && d.procedures.empty();
    if (d.status != model::DdlStatus::kRejected && !never_submitted) continue;
    Violation v;
    v.invariant = check::Invariant::kDdlRejected;
    v.step = d.end_step;
    v.time_ms = d.end.ms;
    v.message = "scripted DDL `" + d.sql + "` (ddl " + std::to_string(d.id) + ", issued at step " +
                std::to_string(d.start_step) +
                (never_submitted ? ") never reached the metasrv: " : ") was rejected: ") + d.error;
    out.push_back(std::move(v));
  }
}

// INV-AVAIL for every statement refused with an error that nothing in the run justifies
// (model/node/refusal.h): an insert refused with `Undefined column` while the rule's column
// list and its expressions disagree, a statement failed because the route cache gave up on
// raced fills. Not a data loss, an availability defect; it is judged like INV-LIVE (exit 2).
void CheckUnjustifiedRefusals(const CheckInput& in, std::vector<Violation>& out) {
  const model::History& history = in.cluster->history();
  const auto refused = [&](const char* kind, uint64_t id, model::NodeId frontend,
                           uint64_t start_step, uint64_t end_step, int64_t end_ms,
                           const std::string& error) {
    Violation v;
    v.invariant = check::Invariant::kAvail;
    v.step = end_step;
    v.time_ms = end_ms;
    v.message = std::string(kind) + " " + std::to_string(id) + " from " +
                in.cluster->NodeName(frontend) + " (issued at step " + std::to_string(start_step) +
                ") was refused: " + error +
                "; no crash, fault or protocol state of the run justifies the refusal";
    out.push_back(std::move(v));
  };
  for (const model::WriteRecord& w : history.writes) {
    if (w.status == model::WriteStatus::kRejected && model::IsUnjustifiedRefusal(w.error)) {
      refused("write", w.id, w.frontend, w.start_step, w.end_step, w.end.ms, w.error);
    }
  }
  for (const model::QueryRecord& q : history.queries) {
    if (q.status == model::QueryStatus::kError && model::IsUnjustifiedRefusal(q.error)) {
      refused("query", q.id, q.frontend, q.start_step, q.end_step, q.end.ms, q.error);
    }
  }
  // A procedure that failed for such an error, whether or not its DDL recovered (a parent
  // may dispatch a failed group again): the failure is the defect. One violation per root
  // procedure: its first such failure, with the count of the others.
  std::map<uint64_t, std::pair<uint64_t, size_t>> failed;  // root -> (first procedure, count)
  for (const auto& [id, slot] : in.cluster->metasrv().procedures().slots()) {
    if (slot.status == model::ProcedureStatus::kFailed && model::IsUnjustifiedRefusal(slot.error)) {
      auto [it, inserted] = failed.try_emplace(slot.root.value, id.value, 0);
      ++it->second.second;
    }
  }
  for (const auto& [root, first] : failed) {
    const auto& slot = *in.cluster->metasrv().procedures().Find(model::ProcedureId{first.first});
    // Reported at the end of its DDL (at the end of the run when none maps to it).
    Violation v;
    v.invariant = check::Invariant::kAvail;
    v.step = in.end_step;
    v.time_ms = in.end_time_ms;
    std::string ddl;
    for (const model::DdlRecord& d : history.ddls) {
      if (std::find(d.procedures.begin(), d.procedures.end(), root) != d.procedures.end()) {
        ddl = " of DDL " + std::to_string(d.id) + " (`" + d.sql + "`)";
        v.step = d.end_step;
        v.time_ms = d.end.ms;
      }
    }
    v.message =
        "procedure " + std::to_string(first.first) + ddl + " failed: " + slot.error +
        (first.second > 1 ? " (and " + std::to_string(first.second - 1) + " more of its procedures)"
                          : std::string()) +
        "; no crash, fault or protocol state of the run justifies the failure";
    out.push_back(std::move(v));
  }
}

}  // namespace

std::optional<model::PartitionRule> PublishedRule(const scenario::Scenario& s,
                                                  const model::TableRoute& route) {
  model::PartitionRule rule;
  rule.columns = s.table.rule.columns;
  if (rule.columns.empty()) return std::nullopt;
  for (const model::RegionRoute& r : route.region_routes) {
    if (!r.partition_expr) return std::nullopt;
    rule.regions.push_back(r.region_id.region_number().value);
    rule.exprs.push_back(*r.partition_expr);
  }
  return rule;
}

PublishedRuleWatch::PublishedRuleWatch(const scenario::Scenario& s)
    : s_(&s), route_key_(model::TableRouteKey(s.table_id())) {}

void PublishedRuleWatch::AfterStep(const model::Cluster& cluster, check::CheckAt at) {
  const model::Metasrv& metasrv = cluster.metasrv();
  if (metasrv.kv().mutations() != kv_mutations_) {  // else the route cannot have changed
    kv_mutations_ = metasrv.kv().mutations();
    const std::string* bytes = metasrv.kv().Find(route_key_);
    if (bytes != nullptr && *bytes != route_bytes_) {
      route_bytes_ = *bytes;
      changed_ = true;
    }
  }
  if (!changed_ || !metasrv.is_up() || !metasrv.recovered() || metasrv.procedures().HasActive()) {
    return;  // procedures not recovered yet (leader start) count as running
  }
  changed_ = false;
  // route_bytes_ holds the stored route (it changed, so it was found): decode it through the
  // metasrv's cache rather than again.
  std::optional<model::PartitionRule> rule =
      PublishedRule(*s_, metasrv.DecodeRoute(route_key_, route_bytes_));
  if (!rule) return;
  std::string text;
  for (size_t i = 0; i < rule->regions.size(); ++i) {
    text += std::to_string(rule->regions[i]) + '=' + rule->exprs[i].CanonicalText() + ';';
  }
  if (!checked_.insert(std::move(text)).second) return;
  std::optional<Violation> v = check::CheckPublishedRule(*rule, s_->table.schema, s_->table_id(),
                                                         model::CheckMode::kExact, at);
  if (v) violations_.push_back(std::move(*v));
}

std::vector<Violation> CheckRun(const CheckInput& in) {
  REPARTSIM_ASSERT(in.scenario != nullptr);
  REPARTSIM_ASSERT(in.cluster != nullptr);
  std::vector<Violation> out;
  std::optional<QueryWatch> own_watch;
  QueryWatch* watch = in.query_watch;
  if (watch == nullptr) {
    watch = &own_watch.emplace(in.scenario->table_id(), in.scenario->table.schema);
  }
  watch->Finish(in.cluster->history());
  check::Oracle& oracle = watch->oracle();
  CheckAcceptedRows(in, out);
  CheckRejectedDdls(in, out);
  CheckUnjustifiedRefusals(in, out);
  out.insert(out.end(), in.step_violations.begin(), in.step_violations.end());
  CheckQueries(in, oracle, out);
  if (in.quiescent) {
    CheckQuiescent(in, oracle, out);
  } else if (in.livelock_steps > 0) {
    Violation v;
    v.invariant = check::Invariant::kLive;
    v.step = in.end_step;
    v.time_ms = in.end_time_ms;
    v.message =
        "livelock: the last " + std::to_string(in.livelock_steps) +
        (in.livelock_window_ms > 0 ? " steps ran within " + std::to_string(in.livelock_window_ms) +
                                         " ms up to t=" + std::to_string(in.end_time_ms) +
                                         " ms (a loop that lets almost no time pass) "
                                   : " steps all ran at t=" + std::to_string(in.end_time_ms) +
                                         " ms (virtual time stopped advancing) ") +
        (in.heal_step > 0 ? "after faults healed at step " + std::to_string(in.heal_step)
                          : std::string("before faults healed"));
    out.push_back(std::move(v));
    if (in.heal_step > 0) CheckNotQuiescent(in, out);
  } else if (!in.capped && in.not_quiescent_reason != "nondeterminism") {
    // A capped run never finished its liveness phase, and a replay that diverged stopped where
    // it diverged: neither has an INV-LIVE to report.
    CheckNotQuiescent(in, out);
  }
  ExplainRows(in, out);
  return out;
}

}  // namespace repartsim::run
