// Chooser: THE interface for every nondeterministic decision of a run (which event runs
// next, message faults, crash points, stale caches). Drivers decide; models only ask.
// Contract: Choose returns an index in [0, option_count); Chance returns yes/no for ratio p.
// Forced decisions (option_count == 1, ratio Never or Always) are answered here without
// reaching the driver: they consume no choice, no draw and are never recorded or branched on.
// A replay that diverges does not crash: mismatch() becomes non-null, later answers are 0/no,
// and the driver loop stops the run reporting nondeterminism at that choice index.
// Labels are static, whitespace-free site names ("sched.next", "net.drop").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/assert.h"
#include "sim/choice_list.h"
#include "sim/fingerprint.h"
#include "sim/prng.h"
#include "sim/ratio.h"

namespace repartsim::sim {

// Why a replay stopped matching the run: the 0-based index of the offending choice and a
// message naming both sides.
struct ChoiceMismatch {
  uint64_t choice_index = 0;
  std::string message;
};

class Chooser {
 public:
  virtual ~Chooser() = default;

  // Returns an index in [0, option_count). REQUIRES: option_count >= 1.
  uint32_t Choose(std::string_view label, uint32_t option_count) {
    REPARTSIM_ASSERT(option_count >= 1);
    if (option_count == 1) return 0;
    const uint32_t value = DoChoose(label, option_count);
    ++choice_count_;
    REPARTSIM_ASSERT(value < option_count);
    return value;
  }

  // Returns true with probability p (random driver) or the recorded answer (replay); false,
  // whatever p, when the chooser silences `label` (Silenced). REQUIRES: p.IsValid().
  bool Chance(std::string_view label, Ratio p) {
    REPARTSIM_ASSERT(p.IsValid());
    if (p.IsNever() || Silenced(label)) return false;
    if (p.IsAlways()) return true;
    const bool value = DoChance(label, p);
    ++choice_count_;
    return value;
  }

  // Unforced decisions answered so far.
  uint64_t choice_count() const { return choice_count_; }
  // Prng draws consumed so far (reported as prng_draws in the run summary).
  virtual uint64_t draw_count() const = 0;
  // Non-null once a replay has diverged; the run must stop.
  virtual const ChoiceMismatch* mismatch() const { return nullptr; }

 protected:
  // True iff every Chance of `label` is "no" now, even at p = 1 (PhaseChooser: network faults
  // once healed). Consulted before the always/never shortcuts, so a fault at 1/1 stops too;
  // a silenced answer is forced (not counted, drawn or recorded).
  virtual bool Silenced(std::string_view /*label*/) const { return false; }
  // Only unforced decisions reach these: option_count >= 2, 0 < p < 1.
  virtual uint32_t DoChoose(std::string_view label, uint32_t option_count) = 0;
  virtual bool DoChance(std::string_view label, Ratio p) = 0;

 private:
  uint64_t choice_count_ = 0;
};

// Seeded random driver with one stream per decision domain, so a new draw in one subsystem
// does not reshuffle the others (docs/architecture.md, "Determinism rules"). A label's domain
// is its text up to the first '.' ("net" for "net.drop"); its stream is Prng(seed ^
// DomainKey(domain)), DomainKey = Hasher().Add(domain).Finish(). Choose = stream.Below(n);
// Chance = stream.Below(den) < num. draw_count() sums the streams. Up to kDomainsMax domains.
class RandomChooser final : public Chooser {
 public:
  static constexpr size_t kDomainsMax = 32;

  explicit RandomChooser(uint64_t seed) : seed_(seed) {}
  uint64_t draw_count() const override { return draw_count_; }
  uint64_t seed() const { return seed_; }

  // The domain key of `label` (documented above).
  static uint64_t DomainKey(std::string_view label);

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override {
    return static_cast<uint32_t>(Draw(label, option_count));
  }
  bool DoChance(std::string_view label, Ratio p) override { return Draw(label, p.den) < p.num; }

 private:
  uint64_t Draw(std::string_view label, uint64_t n);

  struct Stream {
    uint64_t key;
    Prng prng;
  };
  uint64_t seed_;
  uint64_t draw_count_ = 0;
  std::vector<Stream> streams_;  // in order of first use; looked up by key
};

// Replays a ChoiceList. Each request must match the next entry in kind, label and
// option_count (or ratio); otherwise, or when the list runs out, mismatch() is set with a
// message naming the choice index. draw_count() reports the choices consumed, which equals
// the recorded run's prng_draws (RandomChooser draws once per choice except in Below's
// rejection case, of probability below option_count / 2^64 per draw).
class ReplayChooser final : public Chooser {
 public:
  explicit ReplayChooser(ChoiceList list) : list_(std::move(list)) {}
  uint64_t draw_count() const override { return cursor_; }
  const ChoiceMismatch* mismatch() const override { return mismatch_ ? &*mismatch_ : nullptr; }
  // Returns true iff every recorded choice has been consumed.
  bool exhausted() const { return cursor_ == list_.size(); }
  size_t cursor() const { return cursor_; }

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override;
  bool DoChance(std::string_view label, Ratio p) override;

 private:
  // Returns the next entry if it matches, else records the mismatch and returns nullptr.
  const Choice* Next(ChoiceKind kind, std::string_view label, uint32_t option_count, Ratio p);

  ChoiceList list_;
  size_t cursor_ = 0;
  std::optional<ChoiceMismatch> mismatch_;
};

// Forwards every decision to `inner` and records the answers. `inner` must outlive this.
class RecordingChooser final : public Chooser {
 public:
  explicit RecordingChooser(Chooser& inner) : inner_(inner) {}
  uint64_t draw_count() const override { return inner_.draw_count(); }
  const ChoiceMismatch* mismatch() const override { return inner_.mismatch(); }
  const ChoiceList& list() const { return list_; }
  ChoiceList TakeList() { return std::move(list_); }

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override {
    const uint32_t value = inner_.Choose(label, option_count);
    list_.AddChoose(label, option_count, value);
    return value;
  }
  bool DoChance(std::string_view label, Ratio p) override {
    const bool value = inner_.Chance(label, p);
    list_.AddChance(label, p, value);
    return value;
  }

 private:
  Chooser& inner_;
  ChoiceList list_;
};

}  // namespace repartsim::sim
