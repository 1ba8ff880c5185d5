// `repartsim demo`: sweeps the engine's toy system (tools/demo) over a seed range and prints one
// summary line per seed plus totals. A smoke test of the deterministic engine on its own.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "tools/demo/toy_demo.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddDemoVerb(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand("demo", "Sweep the engine's toy system over a few seeds");
  auto seed_first = std::make_shared<uint64_t>(1);
  auto seed_count = std::make_shared<uint64_t>(20);
  sub->add_option("--seed", *seed_first, "First seed (default 1)")->check(IntegerIn(0, UINT64_MAX));
  sub->add_option("--count", *seed_count, "Number of seeds (default 20)")
      ->check(IntegerIn(1, 100000));
  sub->callback([=] {
    demo::ToyDemoResult result = demo::RunToySweep(*seed_first, *seed_count);
    for (const std::string& line : result.summaries) std::printf("%s\n", line.c_str());
    std::printf("toy demo: runs=%llu total_steps=%llu distinct_trace_hashes=%llu\n",
                static_cast<unsigned long long>(result.runs),
                static_cast<unsigned long long>(result.total_steps),
                static_cast<unsigned long long>(result.distinct_hashes));
    *exit_code = kExitPass;
  });
}

}  // namespace repartsim::tools
