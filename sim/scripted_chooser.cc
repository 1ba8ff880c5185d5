#include "sim/scripted_chooser.h"

namespace repartsim::sim {

ScriptedChooser::ScriptedChooser(std::vector<ScriptedDecision> script)
    : script_(std::move(script)) {
  for (size_t i = 1; i < script_.size(); ++i) {
    REPARTSIM_ASSERT(script_[i - 1].index < script_[i].index);
  }
}

uint32_t ScriptedChooser::Answer(std::string_view label, uint32_t option_count) {
  const uint64_t index = index_++;
  if (next_ >= script_.size() || script_[next_].index != index) return 0;
  const ScriptedDecision& d = script_[next_++];
  if (d.label != label || d.value >= option_count) {
    if (!mismatch_) {
      mismatch_ = ChoiceMismatch{index, "scripted decision #" + std::to_string(index) + " is " +
                                            d.label + "=" + std::to_string(d.value) +
                                            ", the run asks " + std::string(label) + " (" +
                                            std::to_string(option_count) + " options)"};
    }
    return 0;
  }
  return d.value;
}

}  // namespace repartsim::sim
