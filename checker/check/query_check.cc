#include "checker/check/query_check.h"

#include <array>

namespace repartsim::check {

namespace {

Violation Make(Invariant invariant, CheckAt at, std::vector<std::string> regions,
               std::string message) {
  Violation v;
  v.invariant = invariant;
  v.step = at.step;
  v.time_ms = at.time_ms;
  v.regions = std::move(regions);
  v.message = std::move(message);
  return v;
}

// `stale`: of the `count` rows, those the query returned with a value superseded before it
// started (INV-NOOMIT too: the newer value is omitted), told apart from rows it left out.
std::string QueryMessage(Invariant invariant, size_t count, size_t stale, const std::string& query,
                         uint64_t start_step) {
  std::string prefix = "query `" + query + "` ";
  switch (invariant) {
    case Invariant::kNoOmit: {
      const std::string before = " acknowledged before step " + std::to_string(start_step);
      if (stale == 0) return prefix + "omitted " + Plural(count, "row") + before;
      const std::string values =
          "returned a stale value for " + Plural(stale, "row") + " whose newer value was" + before;
      if (stale == count) return prefix + values;
      return prefix + "omitted " + Plural(count - stale, "row") + " and " + values;
    }
    case Invariant::kNoDup:
      return prefix + "returned " + Plural(count, "duplicated row");
    case Invariant::kNoPhantom:
      return prefix + "returned " + Plural(count, "phantom row");
    default:
      break;
  }
  REPARTSIM_UNREACHABLE();
}

bool Tolerated(Invariant invariant, const QueryCheckContext& context) {
  return context.overlapped_procedure && context.read_anomaly_tolerated &&
         (invariant == Invariant::kNoOmit || invariant == Invariant::kNoDup);
}

}  // namespace

Invariant QueryInvariantOf(const DiffEntry& entry) {
  switch (entry.kind) {
    case DiffKind::kMissing:
      return Invariant::kNoOmit;
    case DiffKind::kDuplicated:
      return Invariant::kNoDup;
    case DiffKind::kPhantom:
      return Invariant::kNoPhantom;
    case DiffKind::kWrongValue:
      return entry.reason == DiffReason::kStaleValue ? Invariant::kNoOmit : Invariant::kNoPhantom;
  }
  REPARTSIM_UNREACHABLE();
}

std::vector<Violation> QueryViolations(const model::TableSchema& schema, const QueryDiff& diff,
                                       const QuerySpec& spec, const QueryCheckContext& context) {
  constexpr std::array<Invariant, 3> kOrder = {Invariant::kNoOmit, Invariant::kNoDup,
                                               Invariant::kNoPhantom};
  std::vector<Violation> out;
  for (Invariant invariant : kOrder) {
    std::vector<std::string> rows;
    size_t stale = 0;
    for (const DiffEntry& entry : diff.entries) {
      if (QueryInvariantOf(entry) != invariant) continue;
      rows.push_back(entry.ToText(schema));
      stale += entry.kind == DiffKind::kWrongValue ? 1 : 0;
    }
    if (rows.empty()) continue;
    std::string message =
        QueryMessage(invariant, rows.size(), stale, context.query, spec.start_step);
    Invariant reported = invariant;
    if (Tolerated(invariant, context)) {
      message = std::string(InvariantName(invariant)) + " tolerated during a procedure: " + message;
      reported = Invariant::kReadAnomaly;
    }
    Violation v = Make(reported, context.at, context.regions, std::move(message));
    v.rows = std::move(rows);
    out.push_back(std::move(v));
  }
  return out;
}

Result<std::vector<Violation>> CheckQuery(Oracle& oracle, const QuerySpec& spec,
                                          const std::vector<model::Row>& actual,
                                          const QueryCheckContext& context) {
  Result<QueryDiff> diff = oracle.Check(spec, actual);
  if (!diff.ok()) return diff.error();
  return QueryViolations(oracle.schema(), diff.value(), spec, context);
}

Result<std::optional<Violation>> CheckCountQuery(Oracle& oracle, const QuerySpec& spec,
                                                 uint64_t actual_count,
                                                 const QueryCheckContext& context) {
  Result<CountRange> range = oracle.ExpectCount(spec);
  if (!range.ok()) return range.error();
  const CountRange& expected = range.value();
  if (actual_count >= expected.min && actual_count <= expected.max) {
    return std::optional<Violation>();
  }
  bool low = actual_count < expected.min;
  Invariant invariant = low ? Invariant::kNoOmit : Invariant::kNoDup;
  std::string message = "query `" + context.query + "` counted " + Plural(actual_count, "row") +
                        ", expected " +
                        (low ? "at least " + std::to_string(expected.min)
                             : "at most " + std::to_string(expected.max));
  if (Tolerated(invariant, context)) {
    message = std::string(InvariantName(invariant)) + " tolerated during a procedure: " + message;
    invariant = Invariant::kReadAnomaly;
  }
  return std::optional<Violation>(Make(invariant, context.at, context.regions, message));
}

std::vector<Violation> CheckAckAtQuiescence(Oracle& oracle, const std::vector<model::Row>& rows,
                                            CheckAt at) {
  QuerySpec spec{"", at.step, at.step, {}};
  Result<QueryDiff> diff = oracle.Check(spec, rows);
  REPARTSIM_ASSERT(diff.ok());  // an empty WHERE cannot fail
  struct Group {
    Invariant invariant;
    const char* noun;
    const char* verb_one;
    const char* verb_many;
    std::vector<std::string> rows;
  };
  std::array<Group, 4> groups = {{
      {Invariant::kAck, "acknowledged row", " is missing", " are missing", {}},
      {Invariant::kAck, "row", " shows a stale value", " show a stale value", {}},
      {Invariant::kAck, "row", " is visible more than once", " are visible more than once", {}},
      {Invariant::kNoPhantom, "phantom row", " is visible", " are visible", {}},
  }};
  for (const DiffEntry& entry : diff.value().entries) {
    size_t group = 3;
    if (entry.kind == DiffKind::kMissing) group = 0;
    if (entry.kind == DiffKind::kWrongValue && entry.reason == DiffReason::kStaleValue) group = 1;
    if (entry.kind == DiffKind::kDuplicated) group = 2;
    groups[group].rows.push_back(entry.ToText(oracle.schema()));
  }
  std::vector<Violation> out;
  for (Group& group : groups) {
    if (group.rows.empty()) continue;
    size_t n = group.rows.size();
    std::string message =
        Plural(n, group.noun) + (n == 1 ? group.verb_one : group.verb_many) + " at quiescence";
    Violation v = Make(group.invariant, at, {}, std::move(message));
    v.rows = std::move(group.rows);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace repartsim::check
