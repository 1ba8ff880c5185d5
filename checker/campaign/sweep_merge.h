// Merging sweep reports (`repartsim merge`): the --json reports of a sweep's shards, or of
// several sweeps (e.g. one per profile), joined in any order into one complete report whose
// verdicts and failure groups are aggregated again over every run. Refused, each with an error
// located in the offending report (file:line:col of the field):
//   - reports written by different binaries (binary.id differs), raw with non-raw reports;
//   - a shard given twice, or a sweep with a shard missing (the reports of one sweep share a
//     sweep_id; each of its shards 0..N-1 must be present exactly once);
//   - a scenario file that changed between reports (its hash differs), the same run (row and
//     seed) in two reports.
// The merged report can itself be merged again with reports of other sweeps.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "checker/campaign/sweep_report.h"
#include "sim/result.h"

namespace repartsim::campaign {

struct MergePart {
  std::string path;    // the report file, for errors and notes
  std::string text;    // its JSON text, to locate errors
  SweepReport report;  // as SweepReport::FromJson read it
};

struct MergedReports {
  SweepReport report;  // complete, aggregated
  size_t sweeps = 0;   // distinct sweep ids among the parts
};

// REQUIRES: !parts.empty().
sim::Result<MergedReports> MergeSweepReports(const std::vector<MergePart>& parts);

}  // namespace repartsim::campaign
