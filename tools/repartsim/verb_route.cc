// `repartsim route "CREATE TABLE ...;" --row "a=5,b='x'"`: the region a row goes to on the
// row path (first match, default region 0) and on the filter/bulk path (every expression
// independently); a disagreement (e.g. NULL under <>, defect P7) is flagged. Exit 0, or 64
// on bad input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/partition/rule.h"
#include "model/sql/sql_input.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct RouteArgs {
  std::vector<std::string> sql;
  std::string file;
  std::string row;
  bool json = false;
};

sim::Result<model::Row> BuildRow(const model::TableSchema& schema, const std::string& text) {
  const std::string source = "<--row>";
  auto pairs = model::sql::ParseAssignments(text, source);
  if (!pairs.ok()) return pairs.error();
  model::Row row(schema.columns.size());
  for (const auto& [name, value] : pairs.value()) {
    std::optional<size_t> i = schema.FindColumn(name);
    uint32_t column = static_cast<uint32_t>(text.find(name) + 1);
    if (!i) return sim::MakeError({source, 1, column}, "Cannot find column by name: " + name);
    auto converted = model::ConvertToColumnType(value, schema.columns[*i].type);
    if (!converted.ok()) return sim::MakeError({source, 1, column}, converted.error().message);
    row[*i] = converted.value();
  }
  return row;
}

std::string Join(const std::vector<uint32_t>& v) {
  std::string out;
  for (uint32_t x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
  return out;
}

int RunRoute(const RouteArgs& args) {
  auto statements = model::sql::LoadStatements(args.sql, args.file);
  if (!statements.ok()) return ReportInputError(statements.error());
  auto create = model::sql::FindCreateTable(statements.value(),
                                            model::sql::InputLocation(args.sql, args.file));
  if (!create.ok()) return ReportInputError(create.error());
  const model::sql::CreateTable& table = *create.value();
  auto row = BuildRow(table.schema, args.row);
  if (!row.ok()) return ReportInputError(row.error());
  uint32_t region = model::FindRegionRowPath(table.rule, table.schema, row.value());
  std::vector<uint32_t> bulk = model::RegionsBulkPath(table.rule, table.schema, row.value());
  bool agree = bulk.size() == 1 && bulk[0] == region;
  if (args.json) {
    nlohmann::json out = {{"region", region},
                          {"filter_path_region",
                           bulk.size() == 1 ? nlohmann::json(bulk[0]) : nlohmann::json(nullptr)},
                          {"filter_path_regions", bulk},
                          {"agree", agree}};
    std::printf("%s\n", sim::JsonText(out).c_str());
    return kExitPass;
  }
  std::printf("row path: region %u\n", region);
  std::printf("filter path: region%s %s%s\n", bulk.size() == 1 ? "" : "s", Join(bulk).c_str(),
              agree ? "" : "  <-- DISAGREES with the row path");
  return kExitPass;
}

}  // namespace

void AddRouteVerb(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<RouteArgs>();
  CLI::App* sub = app.add_subcommand(
      "route", "Route one row through a table's partition rule on the row and filter paths");
  sub->add_option("sql", args->sql, "SQL text with the CREATE TABLE");
  sub->add_option("-f,--file", args->file, "Read SQL from FILE (before any SQL arguments)");
  sub->add_option("--row", args->row, "col=value pairs separated by commas ('x' strings, NULL)")
      ->required();
  sub->add_flag("--json", args->json, "Print one JSON object {region, filter_path_region}");
  sub->callback([args, exit_code] {
    if (args->sql.empty() && args->file.empty()) {
      *exit_code = ReportInputError({{"<command line>", 1, 1}, "route needs SQL or -f FILE"});
      return;
    }
    *exit_code = RunRoute(*args);
  });
}

}  // namespace repartsim::tools
