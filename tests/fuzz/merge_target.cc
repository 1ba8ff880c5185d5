// FuzzMerge: see fuzz_targets.h. The input goes through the whole `repartsim merge` verb
// (its report reader, the aggregation and the printed summary) in process.
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_targets.h"
#include "tests/fuzz/temp_file.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::fuzz {

int FuzzMerge(const uint8_t* data, size_t size) {
  std::string path = WriteScratchFile("report.json", data, size);
  std::string argv0 = "repartsim";
  std::string verb = "merge";
  std::vector<char*> argv = {argv0.data(), verb.data(), path.data()};
  (void)tools::RunCli(static_cast<int>(argv.size()), argv.data());
  return 0;
}

}  // namespace repartsim::fuzz
