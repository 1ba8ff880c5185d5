#include "sim/assert.h"

#include <cstdio>
#include <cstdlib>

namespace repartsim::sim {

AssertContext& CurrentAssertContext() {
  static AssertContext context;
  return context;
}

void AssertFail(const char* file, int line, const char* condition, const char* message) {
  const AssertContext& context = CurrentAssertContext();
  std::fflush(stdout);
  if (context.in_run) {
    std::fprintf(stderr, "%s:%d: internal error: assertion failed: %s%s%s (seed=%llu step=%llu)\n",
                 file, line, condition, message ? ": " : "", message ? message : "",
                 static_cast<unsigned long long>(context.seed),
                 static_cast<unsigned long long>(context.step));
  } else {
    std::fprintf(stderr, "%s:%d: internal error: assertion failed: %s%s%s\n", file, line, condition,
                 message ? ": " : "", message ? message : "");
  }
  std::fflush(stderr);
  AssertContext& mutable_context = CurrentAssertContext();
  if (void (*on_fail)(void*) = mutable_context.on_fail) {
    mutable_context.on_fail = nullptr;  // an assertion inside the hook exits at once
    on_fail(mutable_context.on_fail_arg);
    std::fflush(nullptr);
  }
  std::_Exit(70);
}

}  // namespace repartsim::sim
