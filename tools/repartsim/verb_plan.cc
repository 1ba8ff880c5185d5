// `repartsim plan "CREATE TABLE ...;" "ALTER TABLE ..."`: validates each ALTER in order as
// the real frontend would (docs/protocol.md section 4) and shows the plan: groups (sources ->
// targets), reused/new/dropped regions and the resulting rule; accepted statements are applied
// before the next one. greptime profile reproduces P1 (a multi-group Dispatch panic is reported as
// a warning); reference uses the exact checker. Exit 0 accepted, 1 rejected, 64 bad input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "model/sql/repartition_planner.h"
#include "model/sql/sql_input.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

using model::sql::RepartitionPlan;

struct PlanArgs {
  std::vector<std::string> sql;
  std::string file;
  std::string profile = "greptime";
  bool json = false;
};

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

void PrintPlanText(const model::sql::Statement& stmt, const RepartitionPlan& plan) {
  std::printf("accepted: %s\n", stmt.text.c_str());
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const auto& g = plan.groups[i];
    std::printf("group %zu: [%s] -> [%s]\n", i + 1, JoinExprs(g.from).c_str(),
                JoinExprs(g.to).c_str());
    std::printf("  source regions %s -> target regions %s; new: %s; dropped: %s\n",
                JoinRegions(g.source_regions).c_str(), JoinRegions(g.target_regions).c_str(),
                JoinRegions(g.allocated_regions).c_str(),
                JoinRegions(g.deallocated_regions).c_str());
    if (g.dispatch_panic) {
      std::printf("  warning: Dispatch would panic (P1, global transition index): %s\n",
                  g.dispatch_panic->c_str());
    }
  }
  const model::PartitionRule& rule = plan.result.rule;
  std::string columns;
  for (const std::string& c : rule.columns) columns += (columns.empty() ? "" : ", ") + c;
  std::printf("resulting rule on (%s):\n", columns.c_str());
  for (size_t i = 0; i < rule.regions.size(); ++i) {
    std::printf("  region %u: %s\n", rule.regions[i],
                i < rule.exprs.size() ? rule.exprs[i].ToSql().c_str() : "(no expression)");
  }
}

int RunPlan(const PlanArgs& args) {
  auto statements = model::sql::LoadStatements(args.sql, args.file);
  if (!statements.ok()) return ReportInputError(statements.error());
  auto create = model::sql::FindCreateTable(statements.value());
  if (!create.ok()) return ReportInputError(create.error());
  // Every CREATE TABLE, by name (a metric-engine logical table next to its physical one); an
  // ALTER naming none of them is planned against the first, whose planner says "Table not
  // found".
  std::map<std::string, model::sql::TableState> tables;
  for (const model::sql::Statement& stmt : statements.value()) {
    if (const auto* c = std::get_if<model::sql::CreateTable>(&stmt.body)) {
      tables.emplace(c->schema.name, model::sql::TableState::FromCreate(*c));
    }
  }
  const std::string first = create.value()->schema.name;
  auto options = args.profile == "reference" ? model::sql::PlanOptions::Reference()
                                             : model::sql::PlanOptions::Greptime();
  std::optional<RepartitionPlan> last;
  bool any = false;
  for (const model::sql::Statement& stmt : statements.value()) {
    const auto* alter = std::get_if<model::sql::AlterRepartition>(&stmt.body);
    if (alter == nullptr) continue;
    any = true;
    auto found = tables.find(alter->table);
    model::sql::TableState& table = found != tables.end() ? found->second : tables.at(first);
    auto plan = model::sql::PlanRepartition(table, *alter, stmt.location, options);
    if (!plan.ok()) {
      if (args.json) {
        std::printf("%s\n", PlanJson(nullptr, plan.error().message).dump().c_str());
      } else {
        std::printf("rejected: %s\n  %s\n", stmt.text.c_str(), plan.error().Format().c_str());
      }
      return kExitSafety;
    }
    if (!args.json) PrintPlanText(stmt, plan.value());
    table = plan.value().result;
    last = std::move(plan).value();
  }
  if (!any) return ReportInputError({{"<input>", 0, 0}, "no ALTER TABLE statement to plan"});
  if (args.json) std::printf("%s\n", PlanJson(&*last, std::nullopt).dump().c_str());
  return kExitPass;
}

}  // namespace

void AddPlanVerb(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* sub = app.add_subcommand(
      "plan", "Validate and plan ALTER TABLE repartition statements against a CREATE TABLE");
  sub->add_option("sql", args->sql, "SQL texts: a CREATE TABLE, then ALTER TABLE statements");
  sub->add_option("-f,--file", args->file, "Read SQL from FILE (before any SQL arguments)");
  sub->add_option("--profile", args->profile, "greptime (the real system) or reference")
      ->check(CLI::IsMember({"greptime", "reference"}));
  sub->add_flag("--json", args->json, "Print one JSON object {accepted, error, groups, rule}");
  sub->callback([args, exit_code] {
    if (args->sql.empty() && args->file.empty()) {
      *exit_code = ReportInputError({{"<command line>", 1, 1}, "plan needs SQL or -f FILE"});
      return;
    }
    *exit_code = RunPlan(*args);
  });
}

}  // namespace repartsim::tools
