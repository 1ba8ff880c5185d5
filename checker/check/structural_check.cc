#include "checker/check/structural_check.h"

#include "checker/check/row_text.h"
#include "sim/assert.h"

namespace repartsim::check {

namespace {

std::vector<size_t> Outside(OwnershipChecker& checker, const model::PartitionExpr& expr,
                            const std::vector<model::Row>& rows) {
  Result<std::vector<size_t>> outside = checker.RowsOutside(expr, rows);
  REPARTSIM_ASSERT_MSG(outside.ok(), outside.ok() ? "" : outside.error().message.c_str());
  return std::move(outside).value();
}

Violation OwnViolation(const OwnershipChecker& checker, model::RegionId region,
                       const std::vector<model::Row>& rows, const std::vector<size_t>& outside,
                       std::string message, CheckAt at) {
  Violation v;
  v.invariant = Invariant::kOwn;
  v.step = at.step;
  v.time_ms = at.time_ms;
  v.regions = {region.ToString()};
  v.message = std::move(message);
  for (size_t index : outside) v.rows.push_back(RenderRow(checker.schema(), rows[index]));
  return v;
}

}  // namespace

std::optional<Violation> CheckPublishedRule(const model::PartitionRule& rule,
                                            const model::TableSchema& schema, model::TableId table,
                                            model::CheckMode mode, CheckAt at) {
  REPARTSIM_ASSERT(rule.regions.size() == rule.exprs.size());
  std::optional<std::string> error = model::CheckRule(rule, schema, mode);
  if (!error.has_value()) return std::nullopt;
  Violation v;
  v.invariant = Invariant::kRule;
  v.step = at.step;
  v.time_ms = at.time_ms;
  for (uint32_t number : rule.regions) {
    v.regions.push_back(model::RegionId::Of(table, model::RegionNumber{number}).ToString());
  }
  v.message = "published rule of table " + schema.name + " is not complete and disjoint: " + *error;
  return v;
}

std::optional<Violation> CheckRegionOwnership(OwnershipChecker& checker, model::RegionId region,
                                              const model::PartitionExpr* expr,
                                              const std::vector<model::Row>& rows, CheckAt at) {
  if (expr == nullptr || rows.empty()) return std::nullopt;
  // The model screens; SQLite decides every row the model finds outside, so a reported
  // violation is SQLite's and a correct run asks SQLite nothing.
  const std::optional<std::vector<size_t>> by_model = checker.ModelRowsOutside(*expr, rows);
  if (by_model && by_model->empty() && !checker.cross_check()) return std::nullopt;
  std::vector<size_t> outside = Outside(checker, *expr, rows);
  REPARTSIM_ASSERT_MSG(!checker.cross_check() || (by_model && *by_model == outside),
                       "the model's filter-path evaluator and SQLite disagree on a region's rows");
  if (outside.empty()) return std::nullopt;
  std::string message = "region " + region.ToString() + " exposes " +
                        Plural(outside.size(), "row") + " outside its expression " + expr->ToSql();
  return OwnViolation(checker, region, rows, outside, std::move(message), at);
}

std::optional<Violation> CheckAcceptedWrite(OwnershipChecker& checker, model::RegionId region,
                                            const model::PartitionExpr* current,
                                            const model::PartitionExpr* staging,
                                            const std::vector<model::Row>& rows, CheckAt at) {
  const model::PartitionExpr* entitled = staging != nullptr ? staging : current;
  if (entitled == nullptr || rows.empty()) return std::nullopt;
  std::vector<size_t> outside = Outside(checker, *entitled, rows);
  if (outside.empty()) return std::nullopt;
  REPARTSIM_ASSERT(outside.size() <= rows.size());
  std::string message = "region " + region.ToString() + " accepted " +
                        Plural(outside.size(), "row") + " outside its ";
  if (staging != nullptr) {
    message += "staging expression " + staging->ToSql() +
               " (committed: " + (current != nullptr ? current->ToSql() : std::string("none")) +
               ")";
  } else {
    message += "expression " + current->ToSql();
  }
  return OwnViolation(checker, region, rows, outside, std::move(message), at);
}

}  // namespace repartsim::check
