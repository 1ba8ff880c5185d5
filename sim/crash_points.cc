#include "sim/crash_points.h"

#include "sim/assert.h"

namespace repartsim::sim {

void CrashPlan::SetSite(std::string_view site, Ratio ratio) {
  REPARTSIM_ASSERT(IsValidChoiceLabel(site));
  REPARTSIM_ASSERT(ratio.IsValid());
  auto it = site_ratios_.find(site);
  if (it == site_ratios_.end()) {
    site_ratios_.emplace(std::string(site), ratio);
  } else {
    it->second = ratio;
  }
}

void CrashPlan::Script(std::string_view site, uint64_t hit_number) {
  REPARTSIM_ASSERT(IsValidChoiceLabel(site));
  REPARTSIM_ASSERT(hit_number >= 1);
  scripted_ = ScriptedCrash{std::string(site), hit_number};
}

Ratio CrashPlan::RatioFor(std::string_view site) const {
  if (site_ratios_.empty()) return default_ratio_;
  auto it = site_ratios_.find(site);
  return it == site_ratios_.end() ? default_ratio_ : it->second;
}

CrashPointStats::Counts& CrashPointStats::Find(std::string_view site) {
  auto it = sites_.find(site);
  if (it != sites_.end()) return it->second;
  REPARTSIM_ASSERT(IsValidChoiceLabel(site));
  return sites_.emplace(std::string(site), Counts{}).first->second;
}

CrashPointStats::Counts CrashPointStats::Get(std::string_view site) const {
  auto it = sites_.find(site);
  return it == sites_.end() ? Counts{} : it->second;
}

std::string CrashPointStats::ToString() const {
  std::string out;
  for (const auto& [site, c] : sites_) {
    out +=
        site + " hits=" + std::to_string(c.hits) + " crashes=" + std::to_string(c.crashes) + "\n";
  }
  return out;
}

bool ShouldCrash(std::string_view site, Chooser& chooser, const CrashPlan& plan,
                 CrashPointStats& stats) {
  CrashPointStats::Counts& counts = stats.Hit(site);
  bool crash = false;
  const std::optional<ScriptedCrash>& scripted = plan.scripted();
  if (scripted && scripted->site == site && scripted->hit_number == counts.hits) {
    crash = true;
  } else {
    crash = chooser.Chance(site, plan.RatioFor(site));
  }
  if (crash) stats.CountCrash(counts);
  return crash;
}

}  // namespace repartsim::sim
