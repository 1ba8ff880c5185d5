// What the SQL console answers to one statement, as GreptimeDB's MySQL-protocol client shows
// it: a result table (column names and rendered cells), `Affected Rows: N`, or an error with
// GreptimeDB's status code, its name and a message (src/common/error/src/status_code.rs).
// Plain data; checker/report/console_text.h draws it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace repartsim::console {

// The GreptimeDB status codes the console answers with.
enum class StatusCode : uint32_t {
  kUnsupported = 1001,
  kUnexpected = 1002,
  kInternal = 1003,
  kInvalidArguments = 1004,
  kIllegalState = 1006,
  kDeadlineExceeded = 1008,
  kInvalidSyntax = 2000,
  kPlanQuery = 3000,
  kTableAlreadyExists = 4000,
  kTableNotFound = 4001,
  kTableColumnNotFound = 4002,
  kRegionNotFound = 4005,
  kRegionNotReady = 4008,
  kStorageUnavailable = 5000,
};
// GreptimeDB's name of the code: "Unsupported", "InvalidArguments", "TableNotFound", ...
std::string_view StatusCodeName(StatusCode code);

struct Answer {
  enum class Kind : uint8_t { kRows, kAffectedRows, kError };
  Kind kind = Kind::kAffectedRows;
  // kRows: the header and the cells, each row as wide as the header (a cell may hold newlines).
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  uint64_t affected_rows = 0;               // kAffectedRows
  StatusCode code = StatusCode::kInternal;  // kError
  std::string message;                      // kError

  static Answer Affected(uint64_t n);
  static Answer Error(StatusCode code, std::string message);
  static Answer Table(std::vector<std::string> columns, std::vector<std::vector<std::string>> rows);
  bool is_error() const { return kind == Kind::kError; }
};

}  // namespace repartsim::console
