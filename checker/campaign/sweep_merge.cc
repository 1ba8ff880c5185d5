#include "checker/campaign/sweep_merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "checker/campaign/sweep_plan.h"
#include "checker/scenario/seed_range.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"

namespace repartsim::campaign {

namespace {

sim::Error At(const MergePart& p, const std::vector<std::string>& field, std::string message) {
  return sim::Error{LocateReportField(p.text, field, p.path), std::move(message)};
}

// A report's "I/N" (FromJson checked it).
Shard ShardOf(const SweepReport& report) {
  const std::optional<Shard> shard = ParseShard(report.shard);
  REPARTSIM_ASSERT_MSG(shard.has_value(), "a read report with an unchecked shard");
  return *shard;
}

// With seeds A..B, the shards of one sweep hold every seed of A..B for every scenario row:
// a run deleted from a report is found here, not merged as if it had never been planned.
// (A per-scenario sweep records no range per row; duplicates and foreign seeds are still
// refused by the callers.)
std::optional<sim::Error> CheckSeedsCovered(
    const std::map<std::string, std::map<uint32_t, const MergePart*>>& sweeps) {
  for (const auto& [id, shards] : sweeps) {
    const MergePart& first = *shards.begin()->second;
    const auto range = scenario::ParseSeedRange(first.report.seeds);
    if (!range) continue;
    std::map<std::string, std::vector<uint64_t>> seeds;  // row key -> its runs' seeds
    for (const SweepScenario& s : first.report.scenarios) seeds[s.Key()];
    for (const auto& [index, part] : shards) {
      for (const SweepRun& run : part->report.runs) seeds[run.Key()].push_back(run.seed);
    }
    const uint64_t want = range->second - range->first;  // + 1, kept from overflowing
    for (auto& [key, list] : seeds) {
      if (!list.empty() && list.size() - 1 == want) continue;
      std::sort(list.begin(), list.end());
      uint64_t missing = range->first;
      for (const uint64_t seed : list) {
        if (seed != missing) break;
        ++missing;
      }
      const SweepScenario* row = first.report.FindScenario(key);
      REPARTSIM_ASSERT(row != nullptr);  // FromJson: every run's row is listed
      return At(first, {"runs"},
                "sweep " + id + " holds " + std::to_string(list.size()) + " runs of scenario " +
                    row->path + " (profile " + row->profile +
                    (row->rules.empty() ? "" : ", rules " + row->rules) + ") for seeds " +
                    first.report.seeds + ": seed " + std::to_string(missing) +
                    " is missing (a run deleted from a report?); merge needs every run");
    }
  }
  return std::nullopt;
}

// One binary, one raw mode.
std::optional<sim::Error> CheckOneBinary(const std::vector<MergePart>& parts) {
  const MergePart& first = parts.front();
  for (const MergePart& p : parts) {
    if (p.report.binary_id != first.report.binary_id) {
      return At(p, {"binary", "id"},
                "written by repartsim " + p.report.binary_version + " (build " +
                    p.report.binary_id + "), but " + first.path + " by repartsim " +
                    first.report.binary_version + " (build " + first.report.binary_id +
                    "): merge reports of one binary (re-run the sweep)");
    }
    if (p.report.raw != first.report.raw) {
      return At(p, {"raw"},
                "raw and non-raw reports cannot be merged (" + first.path +
                    " has raw=" + (first.report.raw ? "true" : "false") + ")");
    }
  }
  return std::nullopt;
}

using SweepShards = std::map<std::string, std::map<uint32_t, const MergePart*>>;

// Files every part under its sweep and shard index: every shard of every sweep exactly once.
sim::Result<SweepShards> IndexShards(const std::vector<MergePart>& parts) {
  SweepShards sweeps;                                                   // sweep_id -> index -> part
  std::map<std::string, std::pair<uint32_t, const MergePart*>> counts;  // sweep_id -> N, first
  for (const MergePart& p : parts) {
    const uint32_t index = ShardOf(p.report).index;
    const uint32_t count = ShardOf(p.report).count;
    auto [c, fresh] = counts.try_emplace(p.report.sweep_id, count, &p);
    if (!fresh && c->second.first != count) {
      return At(p, {"shard"},
                "shard " + p.report.shard + " of sweep " + p.report.sweep_id + ", but " +
                    c->second.second->path + " is shard " + c->second.second->report.shard);
    }
    auto [it, inserted] = sweeps[p.report.sweep_id].try_emplace(index, &p);
    if (!inserted) {
      return At(p, {"shard"},
                "shard " + p.report.shard + " of sweep " + p.report.sweep_id +
                    " is given twice (also " + it->second->path + ")");
    }
  }
  for (const auto& [id, shards] : sweeps) {
    const uint32_t count = counts.at(id).first;
    std::string missing, have;
    for (uint32_t i = 0; i < count; ++i) {
      if (!shards.count(i)) {
        if (!missing.empty()) missing += ", ";
        missing += std::to_string(i) + "/" + std::to_string(count);
      }
    }
    if (missing.empty()) continue;
    for (const auto& [index, part] : shards) {
      have += (have.empty() ? "" : ", ") + part->path + " (" + part->report.shard + ")";
    }
    return At(*shards.begin()->second, {"shard"},
              "sweep " + id + " is missing shard " + missing + " (have " + have +
                  "); merge needs every shard exactly once");
  }
  REPARTSIM_ASSERT(!sweeps.empty());
  return sweeps;
}

// Concatenates the parts' rows and runs into `merged`: a scenario row whose file changed between
// sweeps, or a run given twice, is refused.
std::optional<sim::Error> MergeParts(const std::vector<MergePart>& parts, SweepReport& merged) {
  std::map<std::string, std::pair<std::string, const MergePart*>> row_hash;  // key -> hash, part
  std::map<std::pair<std::string, uint64_t>, const MergePart*> seen_runs;
  std::set<std::string> seeds, rules;
  for (const MergePart& p : parts) {
    const SweepReport& part = p.report;
    seeds.insert(part.seeds);
    rules.insert(part.rules);
    for (size_t i = 0; i < part.scenarios.size(); ++i) {
      const SweepScenario& s = part.scenarios[i];
      auto [it, fresh] = row_hash.try_emplace(s.Key(), s.hash, &p);
      if (fresh) {
        merged.scenarios.push_back(s);
      } else if (it->second.first != s.hash) {
        return At(p, {"scenarios", std::to_string(i), "hash"},
                  "scenario " + s.path + " has hash " + s.hash + " here but " + it->second.first +
                      " in " + it->second.second->path + ": the file changed between the sweeps");
      }
    }
    for (size_t i = 0; i < part.runs.size(); ++i) {
      const SweepRun& run = part.runs[i];
      auto [it, fresh] = seen_runs.try_emplace({run.Key(), run.seed}, &p);
      if (!fresh) {
        return At(p, {"runs", std::to_string(i)},
                  "run " + run.path + " (profile " + run.profile +
                      (run.rules.empty() ? "" : ", rules " + run.rules) + ") seed " +
                      std::to_string(run.seed) + " is also in " + it->second->path +
                      ": overlapping sweeps or shards");
      }
      merged.runs.push_back(run);
    }
    merged.interrupted = merged.interrupted || part.interrupted;
    merged.wall_ms += part.wall_ms;
    for (const std::string& note : part.notes) merged.notes.push_back(p.path + ": " + note);
    merged.determinism_checked += part.determinism_checked;
    for (const std::string& m : part.determinism_mismatches)
      merged.determinism_mismatches.push_back(m);
  }
  for (const std::string& s : seeds) merged.seeds += (merged.seeds.empty() ? "" : "+") + s;
  for (const std::string& r : rules) merged.rules += (merged.rules.empty() ? "" : "+") + r;
  return std::nullopt;
}

}  // namespace

sim::Result<MergedReports> MergeSweepReports(const std::vector<MergePart>& parts) {
  REPARTSIM_ASSERT(!parts.empty());
  const MergePart& first = parts.front();
  if (std::optional<sim::Error> error = CheckOneBinary(parts)) return *error;
  sim::Result<SweepShards> indexed = IndexShards(parts);
  if (!indexed.ok()) return indexed.error();
  const SweepShards& sweeps = indexed.value();

  SweepReport merged;
  merged.binary_version = first.report.binary_version;
  merged.binary_id = first.report.binary_id;
  merged.raw = first.report.raw;
  merged.complete = true;
  merged.shard = "0/1";
  if (std::optional<sim::Error> error = MergeParts(parts, merged)) return *error;
  if (std::optional<sim::Error> error = CheckSeedsCovered(sweeps)) return *error;
  if (sweeps.size() == 1) {
    merged.sweep_id = sweeps.begin()->first;
  } else {
    sim::Hasher h;
    for (const auto& [id, shards] : sweeps) h.Add(std::string_view(id));
    merged.sweep_id = sim::Hex64(h.Finish());
  }
  merged.Aggregate();
  REPARTSIM_ASSERT(merged.runs.size() >= parts.front().report.runs.size());
  return MergedReports{std::move(merged), sweeps.size()};
}

}  // namespace repartsim::campaign
