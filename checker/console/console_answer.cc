#include "checker/console/console_answer.h"

#include "sim/assert.h"

namespace repartsim::console {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kUnsupported:
      return "Unsupported";
    case StatusCode::kUnexpected:
      return "Unexpected";
    case StatusCode::kInternal:
      return "Internal";
    case StatusCode::kInvalidArguments:
      return "InvalidArguments";
    case StatusCode::kIllegalState:
      return "IllegalState";
    case StatusCode::kDeadlineExceeded:
      return "DeadlineExceeded";
    case StatusCode::kInvalidSyntax:
      return "InvalidSyntax";
    case StatusCode::kPlanQuery:
      return "PlanQuery";
    case StatusCode::kTableAlreadyExists:
      return "TableAlreadyExists";
    case StatusCode::kTableNotFound:
      return "TableNotFound";
    case StatusCode::kTableColumnNotFound:
      return "TableColumnNotFound";
    case StatusCode::kRegionNotFound:
      return "RegionNotFound";
    case StatusCode::kRegionNotReady:
      return "RegionNotReady";
    case StatusCode::kStorageUnavailable:
      return "StorageUnavailable";
  }
  REPARTSIM_UNREACHABLE();
}

Answer Answer::Affected(uint64_t n) {
  Answer a;
  a.kind = Kind::kAffectedRows;
  a.affected_rows = n;
  return a;
}

Answer Answer::Error(StatusCode code, std::string message) {
  Answer a;
  a.kind = Kind::kError;
  a.code = code;
  a.message = std::move(message);
  return a;
}

Answer Answer::Table(std::vector<std::string> columns, std::vector<std::vector<std::string>> rows) {
  Answer a;
  a.kind = Kind::kRows;
  for (const std::vector<std::string>& row : rows) REPARTSIM_ASSERT(row.size() == columns.size());
  a.columns = std::move(columns);
  a.rows = std::move(rows);
  return a;
}

}  // namespace repartsim::console
