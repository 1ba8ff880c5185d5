// Section readers shared by the loader's translation units (loader.cc: top level, cluster,
// table, expect; loader_steps.cc: setup and steps; loader_options.cc: workload, faults,
// limits). Each reads one YAML section into `scenario`, recording the first error in `ctx`.
// REQUIRES for the step and workload readers: cluster and table were read successfully.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

#include "model/meta/ids.h"
#include "model/scenario/scenario.h"
#include "model/scenario/yaml_fields.h"

namespace repartsim::scenario {

void ReadSetup(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadSteps(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadWorkload(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadFaults(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);
void ReadLimits(const YAML::Node& node, LoadContext& ctx, Scenario& scenario);

// "metasrv", "dn1".."dnD", "fe1".."feF" -> node id; records "unknown node" otherwise.
std::optional<model::NodeId> ReadNode(const YAML::Node& node, LoadContext& ctx,
                                      const Scenario& scenario, const std::string& path);
// A 0-based frontend index, or a frontend node name "feN"; range-checked.
uint32_t ReadFrontend(const YAML::Node& node, LoadContext& ctx, const Scenario& scenario,
                      const std::string& path);

}  // namespace repartsim::scenario
