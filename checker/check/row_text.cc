#include "checker/check/row_text.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::check {

namespace {

void AppendColumn(const model::TableSchema& schema, const model::Row& row, size_t index,
                  std::string& out) {
  out += schema.columns[index].name;
  out += '=';
  out += row[index].ToSql();
}

}  // namespace

std::string RenderRow(const model::TableSchema& schema, const model::Row& row) {
  REPARTSIM_ASSERT(row.size() == schema.columns.size());
  std::string out = "(";
  for (size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out += ", ";
    AppendColumn(schema, row, i, out);
  }
  out += ')';
  return out;
}

std::vector<size_t> IdentityColumns(const model::TableSchema& schema) {
  std::vector<size_t> out = schema.primary_key;
  if (std::find(out.begin(), out.end(), schema.time_index) == out.end()) {
    out.push_back(schema.time_index);
  }
  for (size_t index : out) REPARTSIM_ASSERT(index < schema.columns.size());
  return out;
}

std::string RenderIdentity(const model::TableSchema& schema, const model::Row& row) {
  REPARTSIM_ASSERT(row.size() == schema.columns.size());
  std::string out = "(";
  bool first = true;
  for (size_t index : IdentityColumns(schema)) {
    if (!first) out += ", ";
    first = false;
    AppendColumn(schema, row, index, out);
  }
  out += ')';
  return out;
}

}  // namespace repartsim::check
