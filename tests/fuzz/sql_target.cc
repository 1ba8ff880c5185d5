// FuzzSql: see fuzz_targets.h.
#include <string>
#include <string_view>

#include "model/partition/predicate.h"
#include "model/partition/prune.h"
#include "model/partition/rule.h"
#include "model/sql/parser.h"
#include "tests/fuzz/fuzz_targets.h"

namespace repartsim::fuzz {

namespace {

// Walks a parsed predicate the way the tool does: print it, evaluate it on an all-NULL row
// and prune with it (both modes) when a CREATE TABLE parsed before it.
void WalkPredicate(const model::Predicate& where, const model::sql::CreateTable* table) {
  std::string sql = where.ToSql();
  if (table == nullptr) return;
  model::Row row(table->schema.columns.size());
  (void)model::EvaluatePredicate(where, table->schema, row);
  for (model::PruneMode mode : {model::PruneMode::kGreptime, model::PruneMode::kExact}) {
    model::PruneResult pruned = model::PruneRegions(table->rule, table->schema, where, mode);
    (void)pruned;
  }
}

}  // namespace

int FuzzSql(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.sql";
  const model::sql::CreateTable* table = nullptr;
  auto statements = model::sql::ParseStatements(text, file);
  if (statements.ok()) {
    for (const model::sql::Statement& s : statements.value()) {
      if (const auto* create = std::get_if<model::sql::CreateTable>(&s.body)) {
        if (table == nullptr) table = create;
        (void)model::CheckRule(create->rule, create->schema, model::CheckMode::kGreptime);
      } else if (const auto* select = std::get_if<model::sql::Select>(&s.body)) {
        if (select->where) WalkPredicate(*select->where, table);
      }
    }
  }
  auto predicate = model::sql::ParsePredicate(text, file);
  if (predicate.ok()) WalkPredicate(predicate.value(), table);
  (void)model::sql::ParseAssignments(text, file);
  (void)model::sql::ParseDurationMs(text);
  return 0;
}

}  // namespace repartsim::fuzz
