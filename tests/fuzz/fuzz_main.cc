// The libFuzzer entry point of one fuzz target; CMake compiles this file once per target
// with REPARTSIM_FUZZ_ENTRY naming its function (fuzz_targets.h). The run target also gets
// the structure-aware mutator (REPARTSIM_FUZZ_SCENARIO_MUTATOR).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_targets.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t size_max);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return repartsim::fuzz::REPARTSIM_FUZZ_ENTRY(data, size);
}

#ifdef REPARTSIM_FUZZ_SCENARIO_MUTATOR
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t size_max,
                                          unsigned int seed) {
  return repartsim::fuzz::MutateScenario(data, size, size_max, seed, LLVMFuzzerMutate);
}
#endif
