// Section readers shared by the loader's translation units (loader.cc: top level, cluster,
// table, expect; loader_steps.cc with loader_sql.cc and loader_rules.cc: setup and steps;
// loader_options.cc: workload, faults, limits). Each reads one YAML section into `scenario`,
// recording the first error in `ctx`.
// REQUIRES for the step and workload readers: cluster and table were read successfully.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "checker/scenario/scenario.h"
#include "checker/scenario/yaml_fields.h"
#include "model/meta/ids.h"

namespace repartsim::scenario {

void ReadSetup(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadSteps(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
// `shape_only:` (requires `shape: swarm`): feature -> values, each a listed swarm feature value.
void ReadShapeOnly(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadWorkload(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadFaults(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadLimits(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);

// A scripted step running `op` at `at_ms` (or that long after its state), located at `where`.
ScriptedStep MakeStep(int64_t at_ms, model::ScheduledOp op, sim::SourceLocation where);
// One SQL text (loader_sql.cc) -> one step per statement, appended to `out` at `at_ms`.
// `write_path`: the path the statement's INSERTs take (row, batcher or Flight).
void ReadSql(const YAML::Node& node, uint32_t frontend, model::WritePath write_path, int64_t at_ms,
             LoadContext& ctx, Scenario& scenario, const std::string& path,
             std::vector<ScriptedStep>& out);
// drop|delay|duplicate|hold|reorder: one message rule (loader_rules.cc).
model::MessageRule ReadMessageRule(const std::string& action, const YAML::Node& node,
                                   LoadContext& ctx, const Scenario& scenario,
                                   const std::string& path);
// "Type.State" of a persisted procedure state; records an error naming the known ones.
std::string ReadProcedureState(const YAML::Node& node, LoadContext& ctx, const std::string& path);
// "metasrv", "dn1".."dnD", "fe1".."feF" -> node id; records "unknown node" otherwise.
std::optional<model::NodeId> ReadNode(const YAML::Node& node, LoadContext& ctx,
                                      const Scenario& scenario, const std::string& path);
// A 0-based frontend index, or a frontend node name "feN"; range-checked.
uint32_t ReadFrontend(const YAML::Node& node, LoadContext& ctx, const Scenario& scenario,
                      const std::string& path);

}  // namespace repartsim::scenario
