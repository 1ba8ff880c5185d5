// Typing of raw partition expressions against partition columns (ddl.rs convert_one_expr /
// convert_value): every leaf's column must be one of `columns` ("Cannot find column by name:
// c", the real 1004 text) and its literal is converted to that column's storage type.
#pragma once

#include <string>
#include <vector>

#include "model/sql/statement.h"

namespace repartsim::model::sql {

sim::Result<PartitionExpr> TypePartitionExpr(const LocatedExpr& raw, const TableSchema& schema,
                                             const std::vector<std::string>& columns);

// Column names referenced by `e`, in first-appearance order.
std::vector<std::string> ReferencedColumns(const PartitionExpr& e);

}  // namespace repartsim::model::sql
