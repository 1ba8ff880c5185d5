// Checks of a parsed statement against the schema of the table it names, shared by the
// scenario loader's SQL steps (loader_sql.cc) and the SQL console (checker/console): the rows
// of an INSERT in schema order with each value converted to its column type, and what the
// model cannot evaluate in a WHERE. Errors are values: a row's error is located at the row
// (Insert::row_locations), an error about the column list has no location (line 0).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/partition/predicate.h"
#include "model/partition/schema.h"
#include "model/sql/statement.h"
#include "sim/result.h"

namespace repartsim::scenario {

// The rows of `insert` in `schema` order, NULL where a column is not named. Errors: "INSERT
// names unknown column 'c'", "INSERT names column 'c' twice", "INSERT row has N values for M
// columns", "column 'c': <conversion error>", "column 'c' is the time index and cannot be
// NULL", "column 'c' is NOT NULL and cannot be NULL".
sim::Result<std::vector<model::Row>> InsertRows(const model::sql::Insert& insert,
                                                const model::TableSchema& schema);

// The first column a predicate names that `schema` lacks, or a CAST that may change values
// ("WHERE names unknown column 'c'", "CAST(c AS T) may change values ..."); nullopt if none.
std::optional<std::string> WhereProblem(const model::Predicate& p,
                                        const model::TableSchema& schema);

}  // namespace repartsim::scenario
