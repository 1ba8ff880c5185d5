#include "checker/report/explore_text.h"

#include <cstdio>

#include "sim/assert.h"

namespace repartsim::report {

namespace {

using ull = unsigned long long;

double PerSecond(uint64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0.0;
}

}  // namespace

std::string ExploreProgressLine(const sim::explore::ExploreStats& st, double seconds) {
  char line[256];
  std::snprintf(line, sizeof line,
                "explore: runs=%llu states=%llu unique=%llu depth=%llu states/s=%.0f "
                "frontier=%llu t=%.1fs",
                static_cast<ull>(st.runs), static_cast<ull>(st.states), static_cast<ull>(st.unique),
                static_cast<ull>(st.depth_max), PerSecond(st.states, seconds),
                static_cast<ull>(st.frontier), seconds);
  return line;
}

std::string ExploreText(const ExploreSummary& m) {
  REPARTSIM_ASSERT(m.scenario != nullptr && m.config != nullptr && m.report != nullptr);
  const run::ExploreReport& x = *m.report;
  const sim::explore::ExploreStats& st = x.stats;
  const sim::explore::DecisionPolicy& policy = m.config->policy;
  char line[512];
  std::string text;
  std::snprintf(line, sizeof line,
                "explore %s (%s) profile=%s order=%s crash_budget=%u fault_budget=%u values=%u\n",
                m.scenario->name.c_str(), m.path.c_str(), m.profile.c_str(),
                sim::explore::OrderName(m.config->order), policy.crash_budget, policy.fault_budget,
                policy.values_max);
  text += line;
  const std::string liveness =
      m.config->liveness_dedup ? " liveness_states=" + std::to_string(x.liveness_states) : "";
  std::snprintf(line, sizeof line,
                "runs=%llu (cut at a visited state: %llu, of them subsumed: %llu) states=%llu "
                "unique=%llu depth_max=%llu steps=%llu run_steps_max=%llu%s\n",
                static_cast<ull>(st.runs), static_cast<ull>(st.runs_cut),
                static_cast<ull>(st.subsumed), static_cast<ull>(st.states),
                static_cast<ull>(st.unique), static_cast<ull>(st.depth_max),
                static_cast<ull>(x.steps), static_cast<ull>(x.run_steps_max), liveness.c_str());
  text += line;
  std::snprintf(line, sizeof line, "time=%.2fs states/s=%.0f steps/s=%.0f\n", m.seconds,
                PerSecond(st.states, m.seconds), PerSecond(x.steps, m.seconds));
  text += line;
  text += "result: " + st.stop_reason +
          (st.exhausted && st.depth_limited ? " (within --max-depth)" : "") +
          (st.stop_reason == "memory_max"
               ? " (the search held about " + std::to_string(st.held_bytes >> 20) +
                     " MB; raise --max-memory-mb, bound --max-depth, or search depth-first)"
               : "") +
          "\n";
  size_t hit = 0, crashed = 0;
  for (const auto& [site, c] : x.crash_points) {
    hit += c.hits > 0;
    crashed += c.crashes > 0;
  }
  REPARTSIM_ASSERT(crashed <= hit);
  text += "crash points: " + std::to_string(hit) + " of " + std::to_string(x.crash_points.size()) +
          " sites hit, " + std::to_string(crashed) + " crashed\n";
  return text;
}

nlohmann::json ExploreJson(const ExploreSummary& m) {
  REPARTSIM_ASSERT(m.scenario != nullptr && m.config != nullptr && m.report != nullptr);
  const run::ExploreReport& x = *m.report;
  const sim::explore::ExploreStats& st = x.stats;
  nlohmann::json j;
  j["scenario"] = m.scenario->name;
  j["path"] = m.path;
  j["profile"] = m.profile;
  j["order"] = sim::explore::OrderName(m.config->order);
  j["runs"] = st.runs;
  j["runs_cut"] = st.runs_cut;
  j["states"] = st.states;
  j["unique"] = st.unique;
  j["subsumed"] = st.subsumed;
  j["liveness_states"] = x.liveness_states;
  j["depth_max"] = st.depth_max;
  j["steps"] = x.steps;
  j["seconds"] = m.seconds;
  j["exhausted"] = st.exhausted;
  j["result"] = st.stop_reason;
  for (const auto& [site, c] : x.crash_points) {
    if (c.hits > 0) j["crash_points"][site] = {{"runs_hit", c.hits}, {"runs_crashed", c.crashes}};
  }
  return j;
}

}  // namespace repartsim::report
