// Renders rows for violation records and diffs: "(host='a', ts=1000, cpu=1.5)", each value in
// its SQL literal form (strings quoted, timestamps as integer ms, NULL as NULL), named by the
// schema's columns in schema order. Identity keys render the same way with only the primary
// key and time index columns: "(host='a', ts=1000)".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/partition/schema.h"

namespace repartsim::check {

// REQUIRES: row.size() == schema.columns.size().
std::string RenderRow(const model::TableSchema& schema, const model::Row& row);
// The columns that make a row's identity: the primary key columns in key order, then the
// time index (unless it is already part of the key).
std::vector<size_t> IdentityColumns(const model::TableSchema& schema);
std::string RenderIdentity(const model::TableSchema& schema, const model::Row& row);

}  // namespace repartsim::check
