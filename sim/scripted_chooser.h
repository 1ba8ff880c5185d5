// ScriptedChooser: answers a run's decisions from a sparse script: decision #index (0-based,
// counting only unforced decisions, as a ChoiceList does) gets `value` (Chance: 1 = yes), and
// every other decision the default, 0 (Chance: no). A scripted entry whose label differs
// from the decision asked at its index sets mismatch(). It is how a scenario pins the few
// non-default decisions of a counterexample (faults.decisions) with no randomness left.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/chooser.h"

namespace repartsim::sim {

struct ScriptedDecision {
  uint64_t index = 0;
  std::string label;
  uint32_t value = 1;
};

class ScriptedChooser final : public Chooser {
 public:
  // REQUIRES: `script` sorted by strictly increasing index.
  explicit ScriptedChooser(std::vector<ScriptedDecision> script);

  uint64_t draw_count() const override { return 0; }
  const ChoiceMismatch* mismatch() const override { return mismatch_ ? &*mismatch_ : nullptr; }
  // Scripted entries consumed so far.
  size_t used() const { return next_; }

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override {
    return Answer(label, option_count);
  }
  bool DoChance(std::string_view label, Ratio) override { return Answer(label, 2) == 1; }

 private:
  uint32_t Answer(std::string_view label, uint32_t option_count);

  std::vector<ScriptedDecision> script_;
  size_t next_ = 0;
  uint64_t index_ = 0;
  std::optional<ChoiceMismatch> mismatch_;
};

}  // namespace repartsim::sim
