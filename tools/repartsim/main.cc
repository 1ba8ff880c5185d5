// repartsim: deterministic simulator and model checker for table repartition.
#include <cstdio>
#include <new>

#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

int main(int argc, char** argv) {
  // A memory limit (ulimit -v, a container's) reached by a big input is reported, not an
  // abort (exit 134): nothing below catches std::bad_alloc, and nothing needs to, since the
  // verb cannot go on anyway.
  try {
    return repartsim::tools::RunCli(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs(
        "repartsim: error: out of memory (std::bad_alloc): the input needs more memory "
        "than this process may use\n",
        stderr);
    return repartsim::tools::kExitInternal;
  }
}
