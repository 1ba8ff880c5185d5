// PrefixChooser: the building block of stateless depth-first exploration. It answers the
// first decisions from a given prefix of values and every later one with 0 (Chance: no),
// recording each decision's option count (Chance counts 2, value 1 = yes, whatever the ratio).
// After a run, NextPrefix() gives the prefix of the next unexplored run: the last decision
// with an untried alternative, incremented (an odometer). Enumerating until it returns
// nullopt visits every decision sequence exactly once (the model must be deterministic given
// its answers; a prefix value out of range sets mismatch()).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/chooser.h"

namespace repartsim::sim {

class PrefixChooser final : public Chooser {
 public:
  explicit PrefixChooser(std::vector<uint32_t> prefix) : prefix_(std::move(prefix)) {}

  uint64_t draw_count() const override { return 0; }
  const ChoiceMismatch* mismatch() const override { return mismatch_ ? &*mismatch_ : nullptr; }

  // The answers given so far and each decision's option count, in call order.
  const std::vector<uint32_t>& values() const { return values_; }
  const std::vector<uint32_t>& option_counts() const { return option_counts_; }

  // Returns the prefix of the next run in depth-first order, or nullopt if none is left.
  std::optional<std::vector<uint32_t>> NextPrefix() const;

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override {
    return Answer(label, option_count);
  }
  bool DoChance(std::string_view label, Ratio) override { return Answer(label, 2) == 1; }

 private:
  uint32_t Answer(std::string_view label, uint32_t option_count);

  std::vector<uint32_t> prefix_;
  std::vector<uint32_t> values_;
  std::vector<uint32_t> option_counts_;
  std::optional<ChoiceMismatch> mismatch_;
};

}  // namespace repartsim::sim
