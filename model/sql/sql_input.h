// Loading SQL for the CLI verbs: statements come from positional arguments (each one a
// source named "<arg N>") and/or a file (-f FILE, named by its path), parsed in that order.
// FindCreateTable returns the first CREATE TABLE or the error "no CREATE TABLE statement",
// located at the start of the input (InputLocation).
#pragma once

#include <string>
#include <vector>

#include "model/sql/parser.h"

namespace repartsim::model::sql {

sim::Result<std::vector<Statement>> LoadStatements(const std::vector<std::string>& args,
                                                   const std::string& file_path);

// Where an error about the input as a whole points: line 1, column 1 of the file, else of the
// first argument ("<arg 1>"), else of the command line (no SQL was given at all).
sim::SourceLocation InputLocation(const std::vector<std::string>& args,
                                  const std::string& file_path);

sim::Result<const CreateTable*> FindCreateTable(const std::vector<Statement>& statements,
                                                const sim::SourceLocation& input);

}  // namespace repartsim::model::sql
