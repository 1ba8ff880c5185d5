// What the SQL console prints (checker/console): an answer as GreptimeDB's MySQL-protocol
// client output shows it (a result table with +---+ borders, "Affected Rows: N", "Error:
// 1004(InvalidArguments), message"), a statement with its answer in sqlness `.result` form
// (the statement as written, a blank line, the answer, a blank line), and the JSON of a
// session. Bytes depend on the answers only.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checker/console/console_answer.h"

namespace repartsim::report {

// The table: a border, the header, a border, one line per row line (a cell with newlines
// spans lines), a border; each column as wide as its widest cell (in characters), cells
// left-aligned with one space on each side. A table without rows prints "++\n++", as
// GreptimeDB prints an empty result. No trailing newline.
std::string RenderTable(const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& rows);
// The answer as the client prints it, without a trailing newline.
std::string RenderAnswer(const console::Answer& answer);
// sqlness form: `statement` + "\n\n" + the answer + "\n\n".
std::string ResultBlock(const std::string& statement, const console::Answer& answer);
// {"kind": "rows"|"affected_rows"|"error", "columns", "rows" | "affected_rows" | "code",
//  "code_name", "message"}.
nlohmann::json AnswerJson(const console::Answer& answer);

}  // namespace repartsim::report
