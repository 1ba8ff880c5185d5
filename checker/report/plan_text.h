// `repartsim plan`: each ALTER TABLE repartition of a statement list validated in order as the
// real frontend would (docs/protocol.md section 4), accepted statements applied before the next
// one; what it reports of each (groups with their source, target, new and dropped regions, the
// resulting rule, a P1 Dispatch panic as a warning, or the rejection) as text and the last plan
// as JSON {accepted, error, groups, rule}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/sql/repartition_planner.h"
#include "model/sql/statement.h"

namespace repartsim::report {

struct PlannedStatements {
  bool any = false;       // some statement was an ALTER TABLE repartition
  bool rejected = false;  // one was rejected: the planning stopped there
  std::string text;       // one block per planned statement
  nlohmann::json json;    // the rejection, or the last accepted plan
};

// Plans every ALTER of `statements` against the CREATE TABLE of its table (by name; `create`,
// the first CREATE TABLE, when it names none).
PlannedStatements PlanStatements(const std::vector<model::sql::Statement>& statements,
                                 const model::sql::CreateTable& create,
                                 const model::sql::PlanOptions& options);

}  // namespace repartsim::report
