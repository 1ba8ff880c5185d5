// `repartsim plan "CREATE TABLE ...;" "ALTER TABLE ..."`: validates each ALTER in order as
// the real frontend would (docs/protocol.md section 4) and shows the plan: groups (sources ->
// targets), reused/new/dropped regions and the resulting rule; accepted statements are applied
// before the next one. greptime profile reproduces P1 (a multi-group Dispatch panic is reported as
// a warning); reference uses the exact checker. Exit 0 accepted, 1 rejected, 64 bad input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "checker/report/plan_text.h"
#include "model/sql/sql_input.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct PlanArgs {
  std::vector<std::string> sql;
  std::string file;
  std::string profile = "greptime";
  bool json = false;
};

int RunPlan(const PlanArgs& args) {
  auto statements = model::sql::LoadStatements(args.sql, args.file);
  if (!statements.ok()) return ReportInputError(statements.error());
  auto create = model::sql::FindCreateTable(statements.value(),
                                            model::sql::InputLocation(args.sql, args.file));
  if (!create.ok()) return ReportInputError(create.error());
  auto options = args.profile == "reference" ? model::sql::PlanOptions::Reference()
                                             : model::sql::PlanOptions::Greptime();
  const report::PlannedStatements planned =
      report::PlanStatements(statements.value(), *create.value(), options);
  if (!planned.any) {
    return ReportInputError(
        {model::sql::InputLocation(args.sql, args.file), "no ALTER TABLE statement to plan"});
  }
  if (args.json) {
    std::printf("%s\n", sim::JsonText(planned.json).c_str());
  } else {
    std::fputs(planned.text.c_str(), stdout);
  }
  return planned.rejected ? kExitSafety : kExitPass;
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
