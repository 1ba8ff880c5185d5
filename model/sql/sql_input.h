// Loading SQL for the CLI verbs: statements come from positional arguments (each one a
// source named "<arg N>") and/or a file (-f FILE, named by its path), parsed in that order.
// FindCreateTable returns the first CREATE TABLE or the error "no CREATE TABLE statement".
#pragma once

#include <string>
#include <vector>

#include "model/sql/parser.h"

namespace repartsim::model::sql {

sim::Result<std::vector<Statement>> LoadStatements(const std::vector<std::string>& args,
                                                   const std::string& file_path);

sim::Result<const CreateTable*> FindCreateTable(const std::vector<Statement>& statements);

}  // namespace repartsim::model::sql
