// Goal: the procedure runner's fingerprint (part of the metasrv's) covers every field that
// affects what it does next: the id counter, the record store, the lock table, and every field
// of every slot (root, parent, status, step, retry count, whether it holds its locks, whether it
// was recovered, wake time, error, children, body). The config and loader are constants.
// Method: a runner with a root and a child slot, holding a lock and one record; change one
// field at a time on a copy (public interface or sim::FingerprintSeam) and require the
// fingerprint to differ.
#include "tests/model/fingerprint_completeness.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/procedure/procedure_manager.h"

namespace repartsim::sim {

template <>
struct FingerprintSeam<model::ProcedureRunner> {
  using R = model::ProcedureRunner;
  static std::map<model::ProcedureId, R::Slot>& slots(R& r) { return r.slots_; }
  static model::LockTable& locks(R& r) { return r.locks_; }
  static uint64_t& next_id(R& r) { return r.next_id_; }
};

}  // namespace repartsim::sim

namespace repartsim::model {
namespace {
namespace fingerprint_completeness_test {

using namespace testing;  // NOLINT
using Seam = sim::FingerprintSeam<ProcedureRunner>;

struct NoEnv {
  sim::SimTime Now() const { return {}; }
  bool CrashPoint(std::string_view) { return false; }
  uint32_t Choose(std::string_view, uint32_t) { return 0; }
  void TraceProcedure(ProcedureId, std::string_view) {}
};

struct Body {
  std::string state = "S0";
  std::string_view type() const { return "Test"; }
  std::string state_name() const { return state; }
  std::string Dump() const { return state; }
  static sim::Result<Body> Load(std::string_view, std::string_view dump) {
    return Body{std::string(dump)};
  }
  Step Execute(NoEnv&, const ProcedureView&) { return Step::Done(); }
  Step Rollback(NoEnv&, const ProcedureView&) { return Step::Done(); }
  bool rollback_supported() const { return true; }
  std::vector<LockKey> lock_keys() const { return {}; }
  void Fingerprint(sim::Hasher& h) const { h.Add(state); }
};

using Manager = ProcedureManager<Body, NoEnv>;

constexpr ProcedureId kRoot{1};
constexpr ProcedureId kChild{2};

uint64_t Fp(const Manager& m) {
  sim::Hasher h;
  m.Fingerprint(h);
  return h.Finish();
}

Manager Base() {
  Manager m;
  EXPECT_EQ(m.Submit(Body{}, sim::AtMs(0)), kRoot);
  EXPECT_EQ(m.Submit(Body{}, sim::AtMs(0), kRoot), kChild);
  Seam::slots(m).at(kRoot).children.push_back(kChild);
  EXPECT_TRUE(Seam::locks(m).TryAcquireAll(kRoot, {LockKey{"table/1024", true}}));
  m.mutable_store().Write(ProcedureRecord{kRoot, kRoot, {}, 0, RecordKind::kStep, "Test", "S0"});
  return m;
}

ProcedureRunner::Slot& Root(Manager& m) { return Seam::slots(m).at(kRoot); }

TEST(ProcedureRunnerFingerprintCompletenessTest, EveryFieldChangesTheFingerprint) {
  ExpectEachMutationChangesFingerprint<Manager>(
      Base(), Fp,
      {
          {"next_id_", [](Manager& m) { ++Seam::next_id(m); }},
          {"store_",
           [](Manager& m) {
             m.mutable_store().Write(
                 ProcedureRecord{kRoot, kRoot, {}, 1, RecordKind::kStep, "Test", "S1"});
           }},
          {"locks_ (released)", [](Manager& m) { Seam::locks(m).ReleaseAll(kRoot); }},
          {"locks_ (shared owner)",
           [](Manager& m) {
             ASSERT_TRUE(Seam::locks(m).TryAcquireAll(kChild, {LockKey{"catalog", false}}));
           }},
          {"slots_ (one fewer)", [](Manager& m) { Seam::slots(m).erase(kChild); }},
          {"slot.root", [](Manager& m) { Seam::slots(m).at(kChild).root = kChild; }},
          {"slot.parent", [](Manager& m) { Seam::slots(m).at(kChild).parent = ProcedureId{}; }},
          {"slot.status", [](Manager& m) { Root(m).status = ProcedureStatus::kSuspended; }},
          {"slot.step", [](Manager& m) { ++Root(m).step; }},
          {"slot.retry_count", [](Manager& m) { ++Root(m).retry_count; }},
          {"slot.locks_held", [](Manager& m) { Root(m).locks_held = true; }},
          {"slot.recovered", [](Manager& m) { Root(m).recovered = true; }},
          {"slot.wake_at", [](Manager& m) { Root(m).wake_at = sim::AtMs(1); }},
          {"slot.error", [](Manager& m) { Root(m).error = "boom"; }},
          {"slot.children", [](Manager& m) { Root(m).children.clear(); }},
          {"slot.body", [](Manager& m) { Root(m).body = AnyBody::Of<Body, NoEnv>(Body{"S1"}); }},
      });
}

}  // namespace fingerprint_completeness_test
}  // namespace
}  // namespace repartsim::model
