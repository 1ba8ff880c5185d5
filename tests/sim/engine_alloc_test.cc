// Goal: the engine's hot path (Chooser decisions, event queue push/pop, trace hashing with no
// sink) does not allocate per event once warmed up. Method: this test binary replaces global
// operator new with a counting version; each loop runs after a warm-up and must leave the
// count unchanged.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "sim/chooser.h"
#include "sim/event_queue.h"
#include "sim/network.h"
#include "sim/trace.h"

namespace {
uint64_t g_allocations = 0;

// Reads the counter through a compiler barrier, so no load is folded across allocations.
[[gnu::noinline]] uint64_t Allocations() {
  asm volatile("" ::: "memory");
  return g_allocations;
}
}  // namespace

// Replacing the global allocation functions with malloc/free is valid C++, but GCC's
// -Wmismatched-new-delete flags free() inside a replacement operator delete once inlined.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace repartsim::sim {
namespace {

TEST(EngineAllocTest, ChooserQueueAndTraceDoNotAllocatePerEvent) {
  RandomChooser chooser(1);
  EventQueue<uint64_t> queue;
  Trace trace;
  auto round = [&](uint64_t i) {
    const uint32_t pick = chooser.Choose("sched.next", 7);
    const bool drop = chooser.Chance("net.drop", Ratio{1, 20});
    queue.Push(AtMs(static_cast<int64_t>(i + pick)), i);
    const auto e = queue.Pop();
    trace.SetClock(i, e.at);
    trace.Record(2, "recv", Detail().Add("seq", e.seq).Add("drop", drop ? "yes" : "no").view());
  };
  for (uint64_t i = 0; i < 16; ++i) queue.Push(AtMs(static_cast<int64_t>(i)), i);
  for (uint64_t i = 0; i < 1000; ++i) round(i);  // warm-up: buffers reach their size
  const uint64_t before = Allocations();
  for (uint64_t i = 1000; i < 101000; ++i) round(i);
  EXPECT_EQ(Allocations(), before);
  EXPECT_EQ(trace.line_count(), 101000u);
}

TEST(EngineAllocTest, NetworkSendAndTakeDoNotAllocatePerMessage) {
  Network<uint64_t> net(4);
  RandomChooser chooser(2);
  const FaultProfile faults{Ratio{1, 20}, Ratio{1, 20}, Ratio{1, 5}, Duration{25}, Duration{1}};
  auto round = [&](uint64_t i) {
    net.Send(AtMs(static_cast<int64_t>(i)), i % 4, (i + 1) % 4, i, chooser, faults);
    if (net.Pending().size() > 8) net.Take(0);
  };
  for (uint64_t i = 0; i < 1000; ++i) round(i);
  const uint64_t before = Allocations();
  for (uint64_t i = 1000; i < 101000; ++i) round(i);
  // Random delays occasionally set a new peak of pending messages; the queue's vector then
  // grows once (amortised), which is not a per-message allocation.
  EXPECT_LE(Allocations() - before, 3u);
}

TEST(EngineAllocTest, CountingAllocatorSeesAllocations) {
  const uint64_t before = Allocations();
  void* volatile p = ::operator new(16);  // volatile: the pair cannot be optimised away
  ::operator delete(p);
  EXPECT_EQ(Allocations(), before + 1);
}

}  // namespace
}  // namespace repartsim::sim
