// `repartsim check-rule "CREATE TABLE ..."`: is the table's partition rule complete and
// disjoint? greptime profile: the real checker (checker.rs); reference: the exact mode.
// Exit 0 valid, 1 rejected, 64 bad input (syntax errors carry line:column).
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

struct CheckRuleArgs {
  std::vector<std::string> sql;
  std::string file;
  std::string profile = "greptime";
  bool json = false;
};

int RunCheckRule(const CheckRuleArgs& args) {
  auto statements = model::sql::LoadStatements(args.sql, args.file);
  if (!statements.ok()) return ReportInputError(statements.error());
  auto create = model::sql::FindCreateTable(statements.value(),
                                            model::sql::InputLocation(args.sql, args.file));
  if (!create.ok()) return ReportInputError(create.error());
  const model::sql::CreateTable& table = *create.value();
  model::CheckMode mode =
      args.profile == "reference" ? model::CheckMode::kExact : model::CheckMode::kGreptime;
  std::optional<std::string> error = model::CheckRule(table.rule, table.schema, mode);
  if (args.json) {
    nlohmann::json out = {{"valid", !error.has_value()},
                          {"error", error ? nlohmann::json(*error) : nlohmann::json(nullptr)}};
    std::printf("%s\n", sim::JsonText(out).c_str());
  } else if (error) {
    std::printf("rejected: %s\n", error->c_str());
  } else {
    std::string columns;
    for (const std::string& c : table.rule.columns) columns += (columns.empty() ? "" : ", ") + c;
    std::printf("valid: %zu region(s) on (%s) are complete and disjoint (%s checker)\n",
                table.rule.regions.size(), columns.c_str(), args.profile.c_str());
  }
  return error ? kExitSafety : kExitPass;
}

}  // namespace

void AddCheckRuleVerb(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CheckRuleArgs>();
  CLI::App* sub = app.add_subcommand(
      "check-rule", "Check a partition rule (CREATE TABLE) for completeness and disjointness");
  sub->add_option("sql", args->sql, "SQL text with a CREATE TABLE ... PARTITION ON COLUMNS");
  sub->add_option("-f,--file", args->file, "Read SQL from FILE (before any SQL arguments)");
  sub->add_option("--profile", args->profile, "greptime (the real checker) or reference (exact)")
      ->check(CLI::IsMember({"greptime", "reference"}));
  sub->add_flag("--json", args->json, "Print one JSON object {valid, error}");
  sub->callback([args, exit_code] {
    if (args->sql.empty() && args->file.empty()) {
      *exit_code = ReportInputError({{"<command line>", 1, 1}, "check-rule needs SQL or -f FILE"});
      return;
    }
    *exit_code = RunCheckRule(*args);
  });
}

}  // namespace repartsim::tools
