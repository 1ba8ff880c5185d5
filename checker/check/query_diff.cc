#include "checker/check/query_diff.h"

#include "checker/check/row_text.h"
#include "sim/assert.h"

namespace repartsim::check {

std::string_view DiffKindName(DiffKind kind) {
  switch (kind) {
    case DiffKind::kMissing:
      return "missing";
    case DiffKind::kDuplicated:
      return "duplicated";
    case DiffKind::kPhantom:
      return "phantom";
    case DiffKind::kWrongValue:
      return "wrong value";
  }
  REPARTSIM_UNREACHABLE();
}

std::string_view DiffReasonText(DiffReason reason) {
  switch (reason) {
    case DiffReason::kNone:
      return "";
    case DiffReason::kIdentityNeverWritten:
      return "identity never written";
    case DiffReason::kValueNeverWritten:
      return "value never written";
    case DiffReason::kValueRejected:
      return "value written only by rejected writes";
    case DiffReason::kStaleValue:
      return "stale value superseded before the query started";
    case DiffReason::kNotMatchingQuery:
      return "row does not match the query";
    case DiffReason::kWrittenAfterQuery:
      return "value written after the query ended";
  }
  REPARTSIM_UNREACHABLE();
}

std::string DiffEntry::ToText(const model::TableSchema& schema) const {
  std::string out(DiffKindName(kind));
  out += ' ';
  out += RenderRow(schema, row);
  switch (kind) {
    case DiffKind::kMissing:
      if (count_returned > 0 || count_min > 1) {
        out += ": returned " + std::to_string(count_returned) + " times, expected at least " +
               std::to_string(count_min);
      }
      if (allowed.size() > 1) out += "; allowed";
      break;
    case DiffKind::kDuplicated:
      out += ": returned " + std::to_string(count_returned) + " times, expected at most " +
             std::to_string(count_max);
      break;
    case DiffKind::kPhantom:
    case DiffKind::kWrongValue:
      out += ": ";
      out += DiffReasonText(reason);
      if (!allowed.empty()) out += "; expected";
      break;
  }
  bool list_allowed = kind == DiffKind::kWrongValue || kind == DiffKind::kPhantom ||
                      (kind == DiffKind::kMissing && allowed.size() > 1);
  if (list_allowed) {
    for (size_t i = 0; i < allowed.size(); ++i) {
      out += i == 0 ? " " : " | ";
      out += RenderRow(schema, allowed[i]);
    }
  }
  return out;
}

size_t QueryDiff::Count(DiffKind kind) const {
  size_t n = 0;
  for (const DiffEntry& entry : entries) n += entry.kind == kind ? 1 : 0;
  return n;
}

std::string QueryDiff::ToText(const model::TableSchema& schema) const {
  std::string out;
  for (const DiffEntry& entry : entries) {
    out += entry.ToText(schema);
    out += '\n';
  }
  return out;
}

int CompareRows(const model::Row& a, const model::Row& b) {
  REPARTSIM_ASSERT(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    int c = model::TotalOrder(a[i], b[i]);
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace repartsim::check
