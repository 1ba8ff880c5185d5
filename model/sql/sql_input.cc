#include "model/sql/sql_input.h"

#include "model/sql/sql_limits.h"
#include "sim/input_file.h"

namespace repartsim::model::sql {

sim::Result<std::vector<Statement>> LoadStatements(const std::vector<std::string>& args,
                                                   const std::string& file_path) {
  std::vector<Statement> out;
  if (!file_path.empty()) {
    auto text = sim::ReadInputFile(file_path, kSqlTextBytesMax, "SQL file");
    if (!text.ok()) return text.error();
    auto parsed = ParseStatements(text.value(), file_path);
    if (!parsed.ok()) return parsed.error();
    for (Statement& s : parsed.value()) out.push_back(std::move(s));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    auto parsed = ParseStatements(args[i], "<arg " + std::to_string(i + 1) + ">");
    if (!parsed.ok()) return parsed.error();
    for (Statement& s : parsed.value()) out.push_back(std::move(s));
  }
  return out;
}

sim::SourceLocation InputLocation(const std::vector<std::string>& args,
                                  const std::string& file_path) {
  if (!file_path.empty()) return {file_path, 1, 1};
  return {args.empty() ? "<command line>" : "<arg 1>", 1, 1};
}

sim::Result<const CreateTable*> FindCreateTable(const std::vector<Statement>& statements,
                                                const sim::SourceLocation& input) {
  for (const Statement& s : statements) {
    if (const auto* create = std::get_if<CreateTable>(&s.body)) return create;
  }
  return sim::MakeError(input, "no CREATE TABLE statement");
}

}  // namespace repartsim::model::sql
