#include "model/partition/rule.h"

#include <algorithm>

namespace repartsim::model {

uint32_t FindRegionRowPath(const PartitionRule& rule, const TableSchema& schema, const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (MatchesRowPath(rule.exprs[i], schema, row)) return rule.regions[i];
  }
  return kDefaultRegion;
}

std::vector<uint32_t> RegionsBulkPath(const PartitionRule& rule, const TableSchema& schema,
                                      const Row& row) {
  if (rule.regions.size() == 1) return {rule.regions[0]};
  std::vector<uint32_t> out;
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (MatchesFilterPath(rule.exprs[i], schema, row)) out.push_back(rule.regions[i]);
  }
  if (out.empty()) out.push_back(kDefaultRegion);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace repartsim::model
