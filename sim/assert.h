// Always-on assertions for simulator bugs (docs/architecture.md, "Errors and exit codes").
// A failed REPARTSIM_ASSERT prints the run's seed and step (from AssertContext) and the
// failing file:line, then exits with code 70. Never assert on user input: bad input is a
// Result<T> (sim/result.h). AssertContext is diagnostic only; nothing reads it for decisions.
#pragma once

#include <cstdint>

namespace repartsim::sim {

// The run being executed, printed when an assertion fails. Set by the simulation driver.
struct AssertContext {
  uint64_t seed = 0;
  uint64_t step = 0;
  bool in_run = false;
  // Called once, after the message and before the exit, when set (e.g. explore saving the
  // decisions of the path that broke an assertion): `on_fail(on_fail_arg)`.
  void (*on_fail)(void* arg) = nullptr;
  void* on_fail_arg = nullptr;
};

AssertContext& CurrentAssertContext();

[[noreturn]] void AssertFail(const char* file, int line, const char* condition,
                             const char* message);

}  // namespace repartsim::sim

#define REPARTSIM_ASSERT(cond)                                                     \
  do {                                                                             \
    if (!(cond)) ::repartsim::sim::AssertFail(__FILE__, __LINE__, #cond, nullptr); \
  } while (0)

#define REPARTSIM_ASSERT_MSG(cond, msg)                                          \
  do {                                                                           \
    if (!(cond)) ::repartsim::sim::AssertFail(__FILE__, __LINE__, #cond, (msg)); \
  } while (0)

#define REPARTSIM_UNREACHABLE() \
  ::repartsim::sim::AssertFail(__FILE__, __LINE__, "unreachable", nullptr)

// Marks a condition that may legitimately go either way; documents intent, checks nothing.
#define REPARTSIM_MAYBE(cond) static_cast<void>(sizeof(static_cast<bool>(cond)))
