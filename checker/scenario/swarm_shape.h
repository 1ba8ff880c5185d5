// Swarm shapes (`shape: swarm`, scenarios/README.md): a scenario whose table, rule, setup,
// DDLs, scripted perturbations, workload and background work are drawn per seed, so one file
// reaches the features a library of scripted scenarios reaches one by one (swarm testing
// over features, as FoundationDB and TigerBeetle do). The runner draws the shape from a Prng
// forked from the run's seed (after the workload and swarm forks, so other scenarios keep
// their traces), renders it as scenario YAML and loads that with the strict loader; the
// file's name, path, tags, profile, rules, seeds and expectations stay. Each draw is named
// (feature=value, in draw order), printed in the run's header and recorded in its JSON.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "checker/scenario/scenario.h"
#include "sim/prng.h"
#include "sim/result.h"

namespace repartsim::scenario {

using ShapeFeatures = std::vector<std::pair<std::string, std::string>>;

struct DrawnShape {
  ShapeFeatures features;  // feature -> value, in draw order
  std::string yaml;        // the drawn scenario (table, setup, steps, workload, faults, limits)
};

// feature -> the values it may draw (Scenario::shape_only); a feature not listed draws freely.
using ShapeRestriction = std::map<std::string, std::vector<std::string>>;

// Draws one shape from `prng` (only from it). A feature `only` lists draws among the values
// both allowed there and listed; where none of them is allowed, among those allowed.
DrawnShape DrawSwarmShape(sim::Prng& prng, const ShapeRestriction& only = {});

// `base` (shape: swarm) with the shape drawn for `seed`: the drawn table, steps, workload,
// faults, cluster and limits; base's identity, rules, seeds and expectations. Errors only if
// the generator rendered YAML the loader refuses (a generator bug: the message names it).
// `yaml` (optional) receives the drawn scenario as a complete scenario file (base's name,
// profile, seeds and expectations with the drawn rest), runnable and shrinkable on its own.
sim::Result<Scenario> DrawShapedScenario(const Scenario& base, uint64_t seed,
                                         ShapeFeatures* features, std::string* yaml = nullptr);

// Every feature and every value it can take, for "features no run drew" (mutants).
const std::vector<std::pair<std::string, std::vector<std::string>>>& SwarmFeatureValues();

// "table=append rule=ranges3 ddl1=split ..." (the header line and the JSON's text).
std::string ShapeText(const ShapeFeatures& features);

}  // namespace repartsim::scenario
