// FuzzChoices: see fuzz_targets.h.
#include <cstdlib>

#include "sim/choice_list.h"
#include "tests/fuzz/fuzz_targets.h"
#include "tests/fuzz/temp_file.h"
#include "tools/repartsim/report_run.h"

namespace repartsim::fuzz {

int FuzzChoices(const uint8_t* data, size_t size) {
  const std::string path = WriteScratchFile("choices", data, size);
  auto file = tools::ReadChoicesFile(path);
  if (!file.ok()) return 0;
  // What was read prints back to a text that reads as the same list.
  const std::string text = file.value().choices.ToText();
  auto again = sim::ChoiceList::Parse(text, path);
  if (!again.ok() || again.value().ToText() != text) std::abort();
  return 0;
}

}  // namespace repartsim::fuzz
