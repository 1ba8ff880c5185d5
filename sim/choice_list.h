// ChoiceList: the recorded decisions of one run, in call order; replaying it reproduces the run.
// Text format (version 1), one entry per line; '#' starts a comment line; blank lines ignored:
//   repartsim-choices 1                      first non-comment line (header)
//   choose <label> <option_count> <value>    a Chooser::Choose answer, 0 <= value < count
//   chance <label> <num>/<den> <0|1>         a Chooser::Chance answer under ratio num/den
// Labels are non-empty and contain no whitespace. Forced decisions (1 option, ratio 0 or 1) are
// never recorded. Load errors are Results located at file:line:column (1-based).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/ratio.h"
#include "sim/result.h"

namespace repartsim::sim {

// Bytes of one choice file (about 30 bytes a decision: over two million decisions).
inline constexpr size_t kChoiceFileBytesMax = size_t{64} << 20;

enum class ChoiceKind : uint8_t { kChoose, kChance };

struct Choice {
  ChoiceKind kind = ChoiceKind::kChoose;
  uint32_t label_id = 0;      // index into ChoiceList::labels()
  uint32_t option_count = 2;  // kChoose only
  Ratio ratio;                // kChance only
  uint32_t value = 0;         // the chosen index; for kChance 1 = yes
};

class ChoiceList {
 public:
  // REQUIRES: label valid (see header comment); option_count >= 2; value < option_count.
  void AddChoose(std::string_view label, uint32_t option_count, uint32_t value);
  // REQUIRES: label valid; ratio neither Never nor Always.
  void AddChance(std::string_view label, Ratio ratio, bool value);

  size_t size() const { return choices_.size(); }
  bool empty() const { return choices_.empty(); }
  const Choice& at(size_t index) const { return choices_[index]; }
  Choice& mutable_at(size_t index) { return choices_[index]; }
  std::string_view label(const Choice& c) const { return labels_[c.label_id]; }
  // Keeps the first `count` choices (for prefix replay and shrinking).
  void Truncate(size_t count);

  // The text form described above, ending with a newline.
  std::string ToText() const;
  // Writes ToText() to `path`. Error message: "choices: cannot write file".
  Status Save(const std::string& path) const;

  // Parses the text form; `file_name` only labels error locations.
  static Result<ChoiceList> Parse(std::string_view text, const std::string& file_name);
  // Reads (sim::ReadInputFile, at most kChoiceFileBytesMax) and parses `path`.
  static Result<ChoiceList> Load(const std::string& path);

  friend bool operator==(const ChoiceList& a, const ChoiceList& b) {
    return a.ToText() == b.ToText();
  }

 private:
  uint32_t InternLabel(std::string_view label);

  std::vector<std::string> labels_;
  std::vector<Choice> choices_;
};

// Returns true iff `label` can be recorded: non-empty and free of whitespace and '#'.
bool IsValidChoiceLabel(std::string_view label);

}  // namespace repartsim::sim
