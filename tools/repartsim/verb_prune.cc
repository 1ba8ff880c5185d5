// `repartsim prune "CREATE TABLE ...;" --where "a > 5 AND b = 'x'"`: the candidate regions
// a query must scan. greptime profile: the real pruner (model/partition/prune.h); reference:
// DNF expansion and exact overlap. Without --where the query has no filter and scans every
// region, as GreptimeDB's planner does. Exit 0, or 64 on bad input.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "model/partition/prune.h"
#include "model/sql/sql_input.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct PruneArgs {
  std::vector<std::string> sql;
  std::string file;
  std::optional<std::string> where;
  std::string profile = "greptime";
  bool json = false;
};

int RunPrune(const PruneArgs& args) {
  auto statements = model::sql::LoadStatements(args.sql, args.file);
  if (!statements.ok()) return ReportInputError(statements.error());
  auto create = model::sql::FindCreateTable(statements.value(),
                                            model::sql::InputLocation(args.sql, args.file));
  if (!create.ok()) return ReportInputError(create.error());
  const model::sql::CreateTable& table = *create.value();
  model::PruneResult result;
  if (args.where) {
    auto where = model::sql::ParsePredicate(*args.where, "<--where>");
    if (!where.ok()) return ReportInputError(where.error());
    model::PruneMode mode =
        args.profile == "reference" ? model::PruneMode::kExact : model::PruneMode::kGreptime;
    result = model::PruneRegions(table.rule, table.schema, where.value(), mode);
  } else {
    result.regions = table.rule.regions;
    std::sort(result.regions.begin(), result.regions.end());
  }
  if (args.json) {
    nlohmann::json out = {{"regions", result.regions}, {"fell_back", result.fell_back}};
    std::printf("%s\n", sim::JsonText(out).c_str());
    return kExitPass;
  }
  std::string regions;
  for (uint32_t r : result.regions) {
    if (!regions.empty()) regions += ", ";
    regions += std::to_string(r);
  }
  std::printf("candidate regions: %s\n", regions.empty() ? "(none)" : regions.c_str());
  if (result.fell_back) std::printf("fell back to all regions: %s\n", result.reason.c_str());
  return kExitPass;
}

}  // namespace

void AddPruneVerb(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<PruneArgs>();
  CLI::App* sub =
      app.add_subcommand("prune", "List the regions a query with a WHERE predicate must scan");
  sub->add_option("sql", args->sql, "SQL text with the CREATE TABLE");
  sub->add_option("-f,--file", args->file, "Read SQL from FILE (before any SQL arguments)");
  sub->add_option("--where", args->where,
                  "The WHERE predicate (without it: no filter, every region)");
  sub->add_option("--profile", args->profile, "greptime (the real pruner) or reference")
      ->check(CLI::IsMember({"greptime", "reference"}));
  sub->add_flag("--json", args->json, "Print one JSON object {regions}");
  sub->callback([args, exit_code] {
    if (args->sql.empty() && args->file.empty()) {
      *exit_code = ReportInputError({{"<command line>", 1, 1}, "prune needs SQL or -f FILE"});
      return;
    }
    *exit_code = RunPrune(*args);
  });
}

}  // namespace repartsim::tools
