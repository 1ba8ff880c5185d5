#include "sim/chooser.h"

namespace repartsim::sim {

namespace {

std::string Describe(ChoiceKind kind, std::string_view label, uint32_t option_count, Ratio p) {
  std::string out = kind == ChoiceKind::kChoose ? "choose " : "chance ";
  out += label;
  out += ' ';
  out += kind == ChoiceKind::kChoose ? std::to_string(option_count) : p.ToString();
  return out;
}

}  // namespace

uint64_t RandomChooser::DomainKey(std::string_view label) {
  return Hasher().Add(label.substr(0, label.find('.'))).Finish();
}

uint64_t RandomChooser::Draw(std::string_view label, uint64_t n) {
  const uint64_t key = DomainKey(label);
  Stream* stream = nullptr;
  for (Stream& s : streams_) {
    if (s.key == key) {
      stream = &s;
      break;
    }
  }
  if (stream == nullptr) {
    REPARTSIM_ASSERT_MSG(streams_.size() < kDomainsMax, "too many choice domains");
    if (streams_.empty()) streams_.reserve(kDomainsMax);
    streams_.push_back(Stream{key, Prng(seed_ ^ key)});
    stream = &streams_.back();
  }
  const uint64_t before = stream->prng.draw_count();
  const uint64_t value = stream->prng.Below(n);
  draw_count_ += stream->prng.draw_count() - before;
  return value;
}

const Choice* ReplayChooser::Next(ChoiceKind kind, std::string_view label, uint32_t option_count,
                                  Ratio p) {
  if (mismatch_) return nullptr;
  const size_t index = cursor_;
  if (index >= list_.size()) {
    const std::string asked = Describe(kind, label, option_count, p);
    mismatch_ = ChoiceMismatch{index, "replay: choice #" + std::to_string(index) + " (" + asked +
                                          ") requested after the recorded list ended at " +
                                          std::to_string(list_.size()) + " choices"};
    return nullptr;
  }
  const Choice& c = list_.at(index);
  const bool same = c.kind == kind && list_.label(c) == label &&
                    (kind == ChoiceKind::kChoose ? c.option_count == option_count
                                                 : (c.ratio.num == p.num && c.ratio.den == p.den));
  if (!same) {
    const std::string asked = Describe(kind, label, option_count, p);
    mismatch_ =
        ChoiceMismatch{index, "replay: choice #" + std::to_string(index) + " differs: recorded '" +
                                  Describe(c.kind, list_.label(c), c.option_count, c.ratio) +
                                  "', run asked '" + asked + "'"};
    return nullptr;
  }
  ++cursor_;
  return &c;
}

uint32_t ReplayChooser::DoChoose(std::string_view label, uint32_t option_count) {
  const Choice* c = Next(ChoiceKind::kChoose, label, option_count, Ratio{});
  return c ? c->value : 0;
}

bool ReplayChooser::DoChance(std::string_view label, Ratio p) {
  const Choice* c = Next(ChoiceKind::kChance, label, 2, p);
  return c ? c->value == 1 : false;
}

}  // namespace repartsim::sim
