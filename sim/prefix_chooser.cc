#include "sim/prefix_chooser.h"

#include <string>

namespace repartsim::sim {

uint32_t PrefixChooser::Answer(std::string_view label, uint32_t option_count) {
  const size_t index = values_.size();
  uint32_t value = index < prefix_.size() ? prefix_[index] : 0;
  if (value >= option_count) {
    if (!mismatch_) {
      mismatch_ =
          ChoiceMismatch{index, "explore: choice #" + std::to_string(index) + " (" +
                                    std::string(label) + ") has " + std::to_string(option_count) +
                                    " options, prefix asks for " + std::to_string(value)};
    }
    value = 0;
  }
  values_.push_back(value);
  option_counts_.push_back(option_count);
  return value;
}

std::optional<std::vector<uint32_t>> PrefixChooser::NextPrefix() const {
  for (size_t i = values_.size(); i-- > 0;) {
    if (values_[i] + 1 < option_counts_[i]) {
      std::vector<uint32_t> next(values_.begin(), values_.begin() + static_cast<ptrdiff_t>(i));
      next.push_back(values_[i] + 1);
      return next;
    }
  }
  return std::nullopt;
}

}  // namespace repartsim::sim
