// Goal: the procedure runner behaves as docs/protocol.md section 9 describes: persisted steps with
// crash points around each persist, backoff retries up to the limit, rollback, commit and
// record deletion, children and suspension, lock waits, and recovery of roots only.
// Method: a scripted test body whose Execute follows a plan of Steps, and a fake Env that
// records crash-point sites and can crash at a chosen one.
#include "model/procedure/procedure_manager.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace repartsim::model {
namespace {
namespace procedure_manager_test {

struct FakeEnv {
  sim::SimTime now;
  std::string crash_at;  // site that crashes, "" for none
  std::vector<std::string> sites;
  std::vector<std::string> trace;
  uint32_t noise = 0;
  DynamicLockTable* dynamic = nullptr;  // the manager's dynamic lock table, for 'L', 'U', 'l'

  sim::SimTime Now() const { return now; }
  bool CrashPoint(std::string_view site) {
    sites.emplace_back(site);
    return site == crash_at;
  }
  uint32_t Choose(std::string_view, uint32_t option_count) { return noise % option_count; }
  void TraceProcedure(ProcedureId id, std::string_view what) {
    trace.push_back(std::to_string(id.value) + " " + std::string(what));
  }
};

// A body that walks states "S0", "S1", ... following `plan`: plan[i] is what state i returns.
// 'p' = next+persist, 'n' = next without persist, 'd' = done, 'r' = retry later, 'e' = error,
// 'c' = suspend with one child (a body "Child" that finishes at once), 'o' = retry later once,
// then next+persist; 'L' = take the dynamic lock "table/1" and keep it across a 1 s wait,
// 'U' = release it and go on, 'l' = take it for this step only (wait for a release if held).
struct ScriptBody {
  std::string kind = "Script";
  std::string plan;
  uint32_t state = 0;
  bool rollback_supported_ = true;
  uint32_t rollbacks = 0;
  bool retried = false;  // 'o': this state already retried once
  std::vector<LockKey> keys;

  std::string_view type() const { return kind; }
  std::string state_name() const { return "S" + std::to_string(state); }
  std::string Dump() const {
    return plan + "|" + std::to_string(state) + "|" + (rollback_supported_ ? "1" : "0");
  }
  static sim::Result<ScriptBody> Load(std::string_view type, std::string_view dump) {
    ScriptBody body;
    body.kind = std::string(type);
    size_t a = dump.find('|');
    size_t b = dump.rfind('|');
    body.plan = std::string(dump.substr(0, a));
    body.state = static_cast<uint32_t>(std::stoul(std::string(dump.substr(a + 1, b - a - 1))));
    body.rollback_supported_ = dump.substr(b + 1) == "1";
    return body;
  }
  Step Execute(FakeEnv& env, const ProcedureView& view) {
    char action = state < plan.size() ? plan[state] : 'd';
    switch (action) {
      case 'L':
        EXPECT_TRUE(env.dynamic->TryAcquire(view.id, LockKey{"table/1", true}));
        ++state;
        return Step::Wait(sim::SimTime{env.now.ms + 1000});
      case 'U':
        env.dynamic->Release(view.id, "table/1");
        ++state;
        return Step::Next(false);
      case 'l':
        if (!env.dynamic->TryAcquire(view.id, LockKey{"table/1", true})) return Step::Wait(kNever);
        env.dynamic->Release(view.id, "table/1");
        ++state;
        return Step::Next(false);
      case 'p':
        ++state;
        return Step::Next(true);
      case 'n':
        ++state;
        return Step::Next(false);
      case 'r':
        return Step::RetryLater("busy");
      case 'o':
        if (!retried) {
          retried = true;
          return Step::RetryLater("busy once");
        }
        retried = false;
        ++state;
        return Step::Next(true);
      case 'e':
        return Step::Error("boom");
      case 'c':
        ++state;
        return Step::Suspend({ChildSpec{"Child", "d|0|0"}}, true);
      default:
        return Step::Done();
    }
  }
  Step Rollback(FakeEnv&, const ProcedureView&) {
    ++rollbacks;
    return Step::Done();
  }
  bool rollback_supported() const { return rollback_supported_; }
  std::vector<LockKey> lock_keys() const { return keys; }
  void Fingerprint(sim::Hasher& h) const { h.Add(Dump()); }
};

using Manager = ProcedureManager<ScriptBody, FakeEnv>;

ScriptBody Script(std::string plan) {
  ScriptBody body;
  body.plan = std::move(plan);
  return body;
}

// Runs runnable procedures in (wake time, id) order until none is left or a crash.
RunResult Drain(Manager& manager, FakeEnv& env, int steps_max = 1000) {
  for (int i = 0; i < steps_max; ++i) {
    ProcedureId next;
    sim::SimTime at = kNever;
    manager.ForEachRunnable([&](ProcedureId id, sim::SimTime wake) {
      if (wake < at) {
        at = wake;
        next = id;
      }
    });
    if (!next.valid()) return RunResult::kOk;
    if (env.now < at) env.now = at;
    RunResult result = manager.Run(next, env);
    if (result == RunResult::kCrashed) return result;
  }
  return RunResult::kOk;
}

// GreptimeDB keeps two lock tables: a procedure's key_lock for its life, and dynamic locks
// around a metadata write. The same key in the procedure table does not block the dynamic one;
// a dynamic holder blocks another dynamic taker until it releases.
TEST(ProcedureManagerTest, DynamicLockIsAnotherTableAndItsWaiterWakesOnRelease) {
  Manager manager;
  FakeEnv env;
  env.dynamic = &manager.mutable_dynamic_locks();
  ScriptBody holder = Script("LUd");
  holder.keys = {LockKey{"table/1", true}};  // the repartition parent's TableLock::Write
  ScriptBody writer = Script("ld");
  writer.keys = {LockKey{"region/5", true}};  // a migration's RegionLock::Write
  ProcedureId a = manager.Submit(holder, env.now);
  ProcedureId b = manager.Submit(writer, env.now);
  ASSERT_EQ(manager.Run(a, env), RunResult::kOk);
  EXPECT_TRUE(manager.locks().Held("table/1"));
  EXPECT_TRUE(manager.dynamic_locks().HeldBy(a, "table/1"));
  ASSERT_EQ(manager.Run(b, env), RunResult::kOk);  // procedure locks free: it runs, then waits
  EXPECT_EQ(manager.Find(b)->status, ProcedureStatus::kWaiting);
  EXPECT_EQ(manager.Find(b)->wake_at, kNever);
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(a)->status, ProcedureStatus::kDone);
  EXPECT_EQ(manager.Find(b)->status, ProcedureStatus::kDone);
  EXPECT_EQ(env.now.ms, 1000);  // b ran right after a released at 1 s
  EXPECT_TRUE(manager.dynamic_locks().empty());
}

TEST(ProcedureManagerTest, AnEndedProcedureReleasesItsDynamicLocksAndWakesWaiters) {
  Manager manager;
  FakeEnv env;
  env.dynamic = &manager.mutable_dynamic_locks();
  ProcedureId a = manager.Submit(Script("Ld"), env.now);
  ProcedureId b = manager.Submit(Script("ld"), env.now);
  ASSERT_EQ(manager.Run(a, env), RunResult::kOk);
  ASSERT_EQ(manager.Run(b, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(b)->wake_at, kNever);
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(a)->status, ProcedureStatus::kDone);
  EXPECT_EQ(manager.Find(b)->status, ProcedureStatus::kDone);
  EXPECT_TRUE(manager.dynamic_locks().empty());
}

TEST(ProcedureManagerTest, CrashClearsDynamicLocks) {
  Manager manager;
  FakeEnv env;
  env.dynamic = &manager.mutable_dynamic_locks();
  ProcedureId a = manager.Submit(Script("Ld"), env.now);
  ASSERT_EQ(manager.Run(a, env), RunResult::kOk);
  EXPECT_FALSE(manager.dynamic_locks().empty());
  manager.Crash();
  EXPECT_TRUE(manager.dynamic_locks().empty());
}

TEST(ProcedureManagerTest, PersistedStepsAreBracketedByCrashPointsAndCommitDeletesRecords) {
  Manager manager;
  FakeEnv env;
  ProcedureId id = manager.Submit(Script("pnd"), env.now);
  EXPECT_EQ(manager.store().record_count(), 0u);  // submit does not persist
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(id)->status, ProcedureStatus::kDone);
  std::vector<std::string> expected = {"Script.S1.before_persist", "Script.S1.after_persist",
                                       "Script.S2.before_persist", "Script.S2.after_persist"};
  EXPECT_EQ(env.sites, expected);  // step record of S1, then the commit record
  EXPECT_EQ(manager.store().record_count(), 0u);
}

// A record keeps a snapshot and serializes it on first read: what it reads is the body as it
// was at the persist, whatever the live body did since, in every copy of the record.
TEST(ProcedureManagerTest, ARecordReadsAsTheBodyWasWhenItWasPersisted) {
  ScriptBody body = Script("ppd");
  body.state = 1;
  const PersistedBody persisted = PersistedBody::Of(AnyBody::Of<ScriptBody, FakeEnv>(body));
  const PersistedBody copy = persisted;
  body.state = 2;
  EXPECT_EQ(copy.dump(), "ppd|1|1");
  EXPECT_EQ(persisted.dump(), "ppd|1|1");
  EXPECT_EQ(PersistedBody("ppd|0|0").dump(), "ppd|0|0");
  EXPECT_EQ(PersistedBody().dump(), "");
}

TEST(ProcedureManagerTest, CrashAfterPersistRecoversFromTheStoredState) {
  Manager manager;
  FakeEnv env;
  env.crash_at = "Script.S1.after_persist";
  manager.Submit(Script("pnd"), env.now);
  EXPECT_EQ(Drain(manager, env), RunResult::kCrashed);
  manager.Crash();
  EXPECT_TRUE(manager.slots().empty());
  ASSERT_EQ(manager.store().record_count(), 1u);
  ASSERT_TRUE(manager.Recover(env.now).ok());
  ASSERT_EQ(manager.slots().size(), 1u);
  EXPECT_EQ(Manager::BodyOf(manager.slots().begin()->second).state, 1u);
  EXPECT_TRUE(manager.slots().begin()->second.recovered);
  env.crash_at.clear();
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  EXPECT_EQ(manager.slots().begin()->second.status, ProcedureStatus::kDone);
  EXPECT_EQ(manager.store().record_count(), 0u);
}

TEST(ProcedureManagerTest, CrashBeforeFirstPersistLosesTheProcedure) {
  Manager manager;
  FakeEnv env;
  env.crash_at = "Script.S1.before_persist";
  manager.Submit(Script("pd"), env.now);
  EXPECT_EQ(Drain(manager, env), RunResult::kCrashed);
  manager.Crash();
  ASSERT_TRUE(manager.Recover(env.now).ok());
  EXPECT_TRUE(manager.slots().empty());
}

TEST(ProcedureManagerTest, RetriesBackOffExponentiallyThenRollBack) {
  Manager manager;
  FakeEnv env;
  ProcedureId id = manager.Submit(Script("r"), env.now);
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  const auto* slot = manager.Find(id);
  EXPECT_EQ(slot->status, ProcedureStatus::kFailed);
  EXPECT_EQ(Manager::BodyOf(*slot).rollbacks, 1u);
  EXPECT_EQ(slot->error, "RetryTimesExceeded: busy");
  // 12 retries: 500, 1000, ... capped at 60 s: 500+1000+2000+4000+8000+16000+32000 + 5*60000.
  EXPECT_EQ(env.now.ms, 363500);
}

TEST(ProcedureManagerTest, OneRetryBudgetPerExecutionIsNotResetBySuccessfulSteps) {
  // Twelve states that each retry once: the twelve retries spend the whole budget, and the
  // backoff keeps growing across states (500 ms, 1 s, ..., capped at 60 s).
  Manager manager;
  FakeEnv env;
  ProcedureId id = manager.Submit(Script(std::string(12, 'o')), env.now);
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(id)->status, ProcedureStatus::kDone);
  EXPECT_EQ(manager.Find(id)->retry_count, 12u);
  EXPECT_EQ(env.now.ms, 363500);
  // A thirteenth state that retries once exceeds it.
  Manager exceeded;
  FakeEnv env2;
  ProcedureId id2 = exceeded.Submit(Script(std::string(13, 'o')), env2.now);
  EXPECT_EQ(Drain(exceeded, env2), RunResult::kOk);
  EXPECT_EQ(exceeded.Find(id2)->status, ProcedureStatus::kFailed);
  EXPECT_EQ(exceeded.Find(id2)->error, "RetryTimesExceeded: busy once");
  EXPECT_EQ(Manager::BodyOf(*exceeded.Find(id2)).rollbacks, 1u);
  EXPECT_EQ(Manager::BodyOf(*exceeded.Find(id2)).state, 12u);
}

TEST(ProcedureManagerTest, ARecoveredProcedureStartsWithAFreshRetryBudget) {
  Manager manager;
  FakeEnv env;
  env.crash_at = "Script.S3.after_persist";
  manager.Submit(Script("ooop"), env.now);
  EXPECT_EQ(Drain(manager, env), RunResult::kCrashed);
  EXPECT_EQ(manager.slots().begin()->second.retry_count, 3u);
  manager.Crash();
  ASSERT_TRUE(manager.Recover(env.now).ok());
  EXPECT_EQ(manager.slots().begin()->second.retry_count, 0u);
  EXPECT_EQ(Manager::BodyOf(manager.slots().begin()->second).state, 3u);
}

TEST(ProcedureManagerTest, BackoffNoiseComesFromTheChooser) {
  Manager manager;
  FakeEnv env;
  env.noise = 4;  // the maximum: +25%
  manager.Submit(Script("r"), env.now);
  manager.Run(ProcedureId{1}, env);
  EXPECT_EQ(manager.Find(ProcedureId{1})->wake_at.ms, 500 + 500 / 16 * 4);
}

TEST(ProcedureManagerTest, ErrorWithoutRollbackSupportFails) {
  Manager manager;
  FakeEnv env;
  ScriptBody body = Script("pe");
  body.rollback_supported_ = false;
  ProcedureId id = manager.Submit(body, env.now);
  Drain(manager, env);
  EXPECT_EQ(manager.Find(id)->status, ProcedureStatus::kFailed);
  EXPECT_EQ(Manager::BodyOf(*manager.Find(id)).rollbacks, 0u);
  EXPECT_EQ(manager.Find(id)->error, "boom");
}

TEST(ProcedureManagerTest, RollbackRecordResumesRollingBackAfterCrash) {
  Manager manager;
  FakeEnv env;
  manager.Submit(Script("pe"), env.now);
  // S0 persists S1; S1 fails: the rollback record is persisted, then the metasrv crashes.
  ASSERT_EQ(manager.Run(ProcedureId{1}, env), RunResult::kOk);
  env.crash_at = "Script.S1.after_persist";
  EXPECT_EQ(manager.Run(ProcedureId{1}, env), RunResult::kCrashed);
  manager.Crash();
  ASSERT_TRUE(manager.Recover(env.now).ok());
  EXPECT_EQ(manager.Find(ProcedureId{1})->status, ProcedureStatus::kRollingBack);
  env.crash_at.clear();
  Drain(manager, env);
  EXPECT_EQ(manager.Find(ProcedureId{1})->status, ProcedureStatus::kFailed);
  EXPECT_EQ(Manager::BodyOf(*manager.Find(ProcedureId{1})).rollbacks, 1u);
  EXPECT_EQ(manager.store().record_count(), 0u);
}

TEST(ProcedureManagerTest, ChildrenRunAndResumeTheParentButAreNotRecovered) {
  Manager manager;
  FakeEnv env;
  ProcedureId root = manager.Submit(Script("cd"), env.now);
  ASSERT_EQ(manager.Run(root, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(root)->status, ProcedureStatus::kSuspended);
  ASSERT_EQ(manager.Find(root)->children.size(), 1u);
  ProcedureId child = manager.Find(root)->children[0];
  // Crash while the child is pending: only the root comes back, at its persisted state.
  Manager copy = manager;
  copy.Crash();
  ASSERT_TRUE(copy.Recover(env.now).ok());
  EXPECT_EQ(copy.slots().size(), 1u);
  EXPECT_EQ(copy.slots().begin()->first, root);
  EXPECT_EQ(Manager::BodyOf(copy.slots().begin()->second).state, 1u);
  // Without the crash the child finishes and the parent resumes and commits.
  EXPECT_EQ(Drain(manager, env), RunResult::kOk);
  EXPECT_EQ(manager.Find(child)->status, ProcedureStatus::kDone);
  EXPECT_EQ(manager.Find(root)->status, ProcedureStatus::kDone);
  EXPECT_EQ(manager.store().record_count(), 0u);
}

TEST(ProcedureManagerTest, ConflictingLocksWaitUntilReleased) {
  Manager manager;
  FakeEnv env;
  ScriptBody first = Script("rd");
  first.keys = {LockKey{"table/1", true}};
  ScriptBody second = Script("d");
  second.keys = {LockKey{"table/1", true}};
  ProcedureId a = manager.Submit(first, env.now);
  ProcedureId b = manager.Submit(second, env.now);
  manager.Run(a, env);  // holds table/1, retries later
  manager.Run(b, env);  // blocked
  EXPECT_EQ(manager.Find(b)->wake_at, kNever);
  EXPECT_FALSE(manager.Find(b)->locks_held);
  Drain(manager, env);
  EXPECT_EQ(manager.Find(a)->status, ProcedureStatus::kFailed);  // retries exhausted
  EXPECT_EQ(manager.Find(b)->status, ProcedureStatus::kDone);
  EXPECT_TRUE(manager.locks().empty());
}

TEST(ProcedureManagerTest, FingerprintChangesWithProgressAndIsEqualForEqualHistories) {
  Manager a;
  Manager b;
  FakeEnv env;
  a.Submit(Script("ppd"), env.now);
  b.Submit(Script("ppd"), env.now);
  sim::Hasher ha, hb;
  a.Fingerprint(ha);
  b.Fingerprint(hb);
  EXPECT_EQ(ha.Finish(), hb.Finish());
  a.Run(ProcedureId{1}, env);
  sim::Hasher hc;
  a.Fingerprint(hc);
  EXPECT_NE(hc.Finish(), hb.Finish());
}

}  // namespace procedure_manager_test
}  // namespace
}  // namespace repartsim::model
