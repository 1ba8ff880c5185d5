// FuzzScenario: see fuzz_targets.h.
#include <string_view>

#include "checker/scenario/loader.h"
#include "tests/fuzz/fuzz_targets.h"

namespace repartsim::fuzz {

int FuzzScenario(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto scenario = scenario::ParseScenario(text, "fuzz.yaml");
  (void)scenario;
  return 0;
}

}  // namespace repartsim::fuzz
