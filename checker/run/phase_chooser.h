// PhaseChooser: the outermost Chooser of a scenario run. In the safety phase it forwards
// every decision; once set_healed(true) (the liveness phase) it answers every network fault
// question ("net.*" Chance: drop, duplicate, delay, and the background work drawn with them:
// compaction, GC, checkpoint races, replay failures) with "no", at any ratio (1/1 included),
// without reaching the inner driver, so healed runs draw, record and replay nothing for them. A
// replay applies the same switch at the same step, so recorded choice lists stay aligned.
#pragma once

#include <string_view>

#include "sim/chooser.h"

namespace repartsim::run {

class PhaseChooser final : public sim::Chooser {
 public:
  explicit PhaseChooser(sim::Chooser& inner) : inner_(inner) {}
  void set_healed(bool healed) { healed_ = healed; }
  bool healed() const { return healed_; }
  uint64_t draw_count() const override { return inner_.draw_count(); }
  const sim::ChoiceMismatch* mismatch() const override { return inner_.mismatch(); }

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override {
    return inner_.Choose(label, option_count);
  }
  // Before issue 53 this test sat in DoChance, which a fault at 1/1 never reaches (Chance
  // answers an always-ratio first): such a fault stayed on after healing.
  bool Silenced(std::string_view label) const override {
    return healed_ && label.substr(0, 4) == "net.";
  }
  bool DoChance(std::string_view label, sim::Ratio p) override { return inner_.Chance(label, p); }

 private:
  sim::Chooser& inner_;
  bool healed_ = false;
};

}  // namespace repartsim::run
