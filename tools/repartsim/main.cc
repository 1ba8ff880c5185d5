// repartsim: deterministic simulator and model checker for table repartition.
#include <cstdio>
#include <cstdlib>
#include <new>

#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace {

// Address space held back for the unwinding after an allocation fails. nlohmann::json's
// destructor allocates (the stack of children it frees without recursion) and is noexcept: a
// std::bad_alloc thrown while a big tree is half built (merge or report of a huge report under
// ulimit -v) unwound through it with no memory left and ended in std::terminate (exit 134).
// The first failed allocation frees this block, then throws, so the unwinding finds memory.
// Untouched, the block costs address space, not resident memory.
constexpr size_t kOutOfMemoryReserveBytes = size_t{64} << 20;
void* g_out_of_memory_reserve = nullptr;

void ReleaseReserveAndThrow() {
  std::free(g_out_of_memory_reserve);
  g_out_of_memory_reserve = nullptr;
  std::set_new_handler(nullptr);
  throw std::bad_alloc();
}

}  // namespace

int main(int argc, char** argv) {
  g_out_of_memory_reserve = std::malloc(kOutOfMemoryReserveBytes);
  if (g_out_of_memory_reserve != nullptr) std::set_new_handler(ReleaseReserveAndThrow);
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
