#include "checker/report/plan_text.h"

#include <map>
#include <optional>

#include "sim/assert.h"

namespace repartsim::report {

namespace {

using model::sql::RepartitionPlan;

std::string JoinRegions(const std::vector<uint32_t>& v) {
  if (v.empty()) return "-";
  std::string out;
  for (uint32_t x : v) {
    if (!out.empty()) out += ", ";
    out += std::to_string(x);
  }
  return out;
}

std::string JoinExprs(const std::vector<model::PartitionExpr>& v) {
  std::string out;
  for (const auto& e : v) {
    if (!out.empty()) out += ", ";
    out += e.ToSql();
  }
  return out.empty() ? "(default region)" : out;
}

nlohmann::json PlanJson(const RepartitionPlan* plan, const std::optional<std::string>& error) {
  nlohmann::json out = {{"accepted", plan != nullptr},
                        {"error", error ? nlohmann::json(*error) : nlohmann::json(nullptr)},
                        {"groups", nlohmann::json::array()},
                        {"rule", nlohmann::json::array()}};
  if (plan == nullptr) return out;
  for (const auto& g : plan->groups) {
    nlohmann::json from = nlohmann::json::array();
    nlohmann::json to = nlohmann::json::array();
    for (const auto& e : g.from) from.push_back(e.ToSql());
    for (const auto& e : g.to) to.push_back(e.ToSql());
    out["groups"].push_back({{"from", from},
                             {"to", to},
                             {"source_regions", g.source_regions},
                             {"target_regions", g.target_regions},
                             {"new_regions", g.allocated_regions},
                             {"dropped_regions", g.deallocated_regions},
                             {"dispatch_panic", g.dispatch_panic ? nlohmann::json(*g.dispatch_panic)
                                                                 : nlohmann::json(nullptr)}});
  }
  const model::PartitionRule& rule = plan->result.rule;
  for (size_t i = 0; i < rule.regions.size(); ++i) {
    out["rule"].push_back({{"region", rule.regions[i]},
                           {"expr", i < rule.exprs.size() ? rule.exprs[i].ToSql() : ""}});
  }
  return out;
}

std::string PlanText(const model::sql::Statement& stmt, const RepartitionPlan& plan) {
  std::string text = "accepted: " + stmt.text + "\n";
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const auto& g = plan.groups[i];
    text += "group " + std::to_string(i + 1) + ": [" + JoinExprs(g.from) + "] -> [" +
            JoinExprs(g.to) + "]\n";
    text += "  source regions " + JoinRegions(g.source_regions) + " -> target regions " +
            JoinRegions(g.target_regions) + "; new: " + JoinRegions(g.allocated_regions) +
            "; dropped: " + JoinRegions(g.deallocated_regions) + "\n";
    if (g.dispatch_panic) {
      text +=
          "  warning: Dispatch would panic (P1, global transition index): " + *g.dispatch_panic +
          "\n";
    }
  }
  const model::PartitionRule& rule = plan.result.rule;
  std::string columns;
  for (const std::string& c : rule.columns) columns += (columns.empty() ? "" : ", ") + c;
  text += "resulting rule on (" + columns + "):\n";
  for (size_t i = 0; i < rule.regions.size(); ++i) {
    text += "  region " + std::to_string(rule.regions[i]) + ": " +
            (i < rule.exprs.size() ? rule.exprs[i].ToSql() : "(no expression)") + "\n";
  }
  return text;
}

}  // namespace

PlannedStatements PlanStatements(const std::vector<model::sql::Statement>& statements,
                                 const model::sql::CreateTable& create,
                                 const model::sql::PlanOptions& options) {
  REPARTSIM_ASSERT(!statements.empty());
  PlannedStatements out;
  // Every CREATE TABLE, by name (a metric-engine logical table next to its physical one); an
  // ALTER naming none of them is planned against the first, whose planner says "Table not
  // found".
  std::map<std::string, model::sql::TableState> tables;
  for (const model::sql::Statement& stmt : statements) {
    if (const auto* c = std::get_if<model::sql::CreateTable>(&stmt.body)) {
      tables.emplace(c->schema.name, model::sql::TableState::FromCreate(*c));
    }
  }
  const std::string first = create.schema.name;
  std::optional<RepartitionPlan> last;
  for (const model::sql::Statement& stmt : statements) {
    const auto* alter = std::get_if<model::sql::AlterRepartition>(&stmt.body);
    if (alter == nullptr) continue;
    out.any = true;
    auto found = tables.find(alter->table);
    model::sql::TableState& table = found != tables.end() ? found->second : tables.at(first);
    auto plan = model::sql::PlanRepartition(table, *alter, stmt.location, options);
    if (!plan.ok()) {
      out.rejected = true;
      out.json = PlanJson(nullptr, plan.error().message);
      out.text += "rejected: " + stmt.text + "\n  " + plan.error().Format() + "\n";
      return out;
    }
    out.text += PlanText(stmt, plan.value());
    table = plan.value().result;
    last = std::move(plan).value();
  }
  if (last) out.json = PlanJson(&*last, std::nullopt);
  REPARTSIM_ASSERT(out.any == last.has_value());
  return out;
}

}  // namespace repartsim::report
