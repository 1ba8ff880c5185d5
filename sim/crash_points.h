// Named crash points. Model code marks a site ("toy.before_persist") and asks ShouldCrash;
// the CrashPlan decides through the Chooser (label = the site name), so every crash is
// recorded and replayable. CrashPointStats counts hits and crashes per site, ordered by name.
// Decision order in ShouldCrash: count the hit; a scripted crash ("the k-th hit of site S",
// k 1-based) fires without consuming a choice; otherwise Chance(site, plan.RatioFor(site)).
// Site names must be valid choice labels (non-empty, no whitespace or '#').
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/chooser.h"
#include "sim/ratio.h"

namespace repartsim::sim {

struct ScriptedCrash {
  std::string site;
  uint64_t hit_number = 1;  // 1-based: crash on this hit of `site`
};

class CrashPlan {
 public:
  // By default no site ever crashes.
  CrashPlan() = default;
  explicit CrashPlan(Ratio default_ratio) : default_ratio_(default_ratio) {}

  void SetDefault(Ratio ratio) { default_ratio_ = ratio; }
  // Overrides the ratio of one site (later calls for the same site replace earlier ones).
  void SetSite(std::string_view site, Ratio ratio);
  // Crash deterministically on the hit_number-th hit of `site` (in addition to the ratios).
  void Script(std::string_view site, uint64_t hit_number);

  Ratio RatioFor(std::string_view site) const;
  Ratio default_ratio() const { return default_ratio_; }
  const std::optional<ScriptedCrash>& scripted() const { return scripted_; }

 private:
  Ratio default_ratio_ = Ratio::Never();
  std::map<std::string, Ratio, std::less<>> site_ratios_;
  std::optional<ScriptedCrash> scripted_;
};

class CrashPointStats {
 public:
  struct Counts {
    uint64_t hits = 0;
    uint64_t crashes = 0;
  };

  // Makes `site` appear in reports even with zero hits.
  void Register(std::string_view site) { Find(site); }
  // Counts one hit of `site` and returns its counters. No allocation after the first hit.
  Counts& Hit(std::string_view site) {
    Counts& c = Find(site);
    ++c.hits;
    return c;
  }
  // Counts one crash at `counts` (a site's counters from Hit).
  void CountCrash(Counts& counts) {
    ++counts.crashes;
    ++total_crashes_;
  }
  // The crashes of every site, kept as they are counted (the runner asks after every step).
  uint64_t total_crashes() const { return total_crashes_; }
  Counts Get(std::string_view site) const;
  const std::map<std::string, Counts, std::less<>>& sites() const { return sites_; }
  // One line per site in name order: "<site> hits=<n> crashes=<n>\n".
  std::string ToString() const;

 private:
  Counts& Find(std::string_view site);
  std::map<std::string, Counts, std::less<>> sites_;
  uint64_t total_crashes_ = 0;
};

// Returns true iff the node running this code must crash at `site` now.
bool ShouldCrash(std::string_view site, Chooser& chooser, const CrashPlan& plan,
                 CrashPointStats& stats);

}  // namespace repartsim::sim
