// The hand-written SQL parser for the GreptimeDB surface repartsim understands:
// CREATE TABLE (GreptimeDB types and aliases, PRIMARY KEY, TIME INDEX, NULL/NOT NULL,
// PARTITION ON COLUMNS, WITH (append_mode=...)), ALTER TABLE ... REPARTITION / SPLIT
// PARTITION / MERGE PARTITION / PARTITION ON COLUMNS [WITH (WAIT=..., TIMEOUT='...')],
// INSERT INTO ... VALUES, and SELECT * | count(*) | col, ... FROM t [WHERE ...] [ORDER BY ...].
// Every error is a sim::Error located at file:line:column; texts follow sqlparser /
// GreptimeDB ("Expected ..., found: ...") where the reference quotes them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/sql/statement.h"

namespace repartsim::model::sql {

// Parses `;`-separated statements. `file` names the source in error locations.
sim::Result<std::vector<Statement>> ParseStatements(std::string_view text, const std::string& file);

// A stand-alone WHERE predicate (e.g. the CLI's --where).
sim::Result<Predicate> ParsePredicate(std::string_view text, const std::string& file);

// `col=value,col=value` (strings quoted, NULL for null), e.g. the CLI's --row.
sim::Result<std::vector<std::pair<std::string, Value>>> ParseAssignments(std::string_view text,
                                                                         const std::string& file);

// Parses a duration such as '30s', '5m', '1h', '500ms', '1m30s' into milliseconds.
sim::Result<int64_t> ParseDurationMs(std::string_view text);

}  // namespace repartsim::model::sql
