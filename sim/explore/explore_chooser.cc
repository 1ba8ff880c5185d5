#include "sim/explore/explore_chooser.h"

namespace repartsim::sim::explore {

uint32_t ExploreChooser::ValueOf(uint32_t alternative, uint32_t alternatives,
                                 uint32_t option_count) {
  REPARTSIM_ASSERT(alternative < alternatives);
  REPARTSIM_ASSERT(alternatives <= option_count);
  if (alternatives == option_count) return alternative;
  return static_cast<uint32_t>(uint64_t{alternative} * (option_count - 1) / (alternatives - 1));
}

uint32_t ExploreChooser::TakeBranch(std::string_view label, uint32_t alternatives) {
  REPARTSIM_ASSERT(alternatives >= 2);
  const size_t index = branches_.size();
  uint32_t alternative = index < prefix_.size() ? prefix_[index] : 0;
  if (alternative >= alternatives) {
    if (!mismatch_) {
      mismatch_ = ChoiceMismatch{
          index, "explore: branch #" + std::to_string(index) + " (" + std::string(label) +
                     ") has " + std::to_string(alternatives) + " alternatives, prefix asks for " +
                     std::to_string(alternative)};
    }
    alternative = 0;
  }
  branches_.push_back(Branch{alternatives, alternative});
  return alternative;
}

uint32_t ExploreChooser::DoChoose(std::string_view label, uint32_t option_count) {
  if (!DepthLeft()) return 0;
  uint32_t alternatives = option_count;
  if (policy_.values_max >= 2 && option_count > policy_.values_max) {
    alternatives = policy_.values_max;
  } else if (policy_.values_max == 1) {
    return 0;
  }
  return ValueOf(TakeBranch(label, alternatives), alternatives, option_count);
}

bool ExploreChooser::DoChance(std::string_view label, Ratio) {
  const bool crash =
      policy_.is_crash_point ? policy_.is_crash_point(label) : label.substr(0, 4) != "net.";
  uint32_t& used = crash ? crashes_used_ : faults_used_;
  const uint32_t budget = crash ? policy_.crash_budget : policy_.fault_budget;
  if (used >= budget || !DepthLeft()) return false;
  const bool yes = TakeBranch(label, 2) == 1;
  used += yes;
  return yes;
}

}  // namespace repartsim::sim::explore
