#include "model/migration/region_migration_procedure.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/ddl/lock_keys.h"
#include "model/node/message.h"
#include "sim/assert.h"
#include "sim/json_text.h"

namespace repartsim::model {

namespace {

sim::Error Corrupt(const char* what) {
  return sim::MakeError({}, std::string("corrupt RegionMigration record: ") + what);
}

}  // namespace

std::string RegionMigrationProcedure::state_name() const {
  return std::string(kStateNames[static_cast<size_t>(state_)]);
}

std::string RegionMigrationProcedure::Dump() const {
  nlohmann::json j;
  j["state"] = static_cast<int>(state_);
  j["from_peer"] = ctx_.from_peer.value;
  j["to_peer"] = ctx_.to_peer.value;
  j["region"] = ctx_.region.value;
  j["timeout_ms"] = ctx_.timeout_ms;
  j["trigger_reason"] = ctx_.trigger_reason;
  return sim::JsonText(j);
}

sim::Result<RegionMigrationProcedure> RegionMigrationProcedure::Load(std::string_view dump) {
  nlohmann::json j = nlohmann::json::parse(dump, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Corrupt("not JSON");
  for (const char* key :
       {"state", "from_peer", "to_peer", "region", "timeout_ms", "trigger_reason"}) {
    if (!j.contains(key)) return Corrupt(key);
  }
  PersistentContext ctx;
  ctx.from_peer = NodeId{j["from_peer"].get<uint32_t>()};
  ctx.to_peer = NodeId{j["to_peer"].get<uint32_t>()};
  ctx.region = RegionId{j["region"].get<uint64_t>()};
  ctx.timeout_ms = j["timeout_ms"].get<int64_t>();
  ctx.trigger_reason = j["trigger_reason"].get<std::string>();
  const int state = j["state"].get<int>();
  if (state < 0 || state > static_cast<int>(State::kRegionMigrationAbort)) return Corrupt("state");
  RegionMigrationProcedure procedure(std::move(ctx));
  procedure.state_ = static_cast<State>(state);
  return procedure;
}

Step RegionMigrationProcedure::Execute(MetasrvEnv& env, const ProcedureView& view) {
  REPARTSIM_ASSERT(view.id == env.current());
  REPARTSIM_ASSERT(ctx_.from_peer != ctx_.to_peer);
  if (!started_at_.has_value()) started_at_ = env.Now();
  switch (state_) {
    case State::kRegionMigrationStart:
      return MigrationStart(env);
    case State::kOpenCandidateRegion:
      return OpenCandidateRegion(env);
    case State::kPreFlushRegion:
      return PreFlushRegion(env);
    case State::kUpdateMetadataDowngrade:
      return UpdateMetadataDowngrade(env);
    case State::kDowngradeLeaderRegion:
      return DowngradeLeaderRegion(env);
    case State::kUpgradeCandidateRegion:
      return UpgradeCandidateRegion(env);
    case State::kUpdateMetadataUpgrade:
      return UpdateMetadataUpgrade(env);
    case State::kCloseDowngradedRegion:
      return CloseDowngradedRegion(env);
    case State::kUpdateMetadataRollback:
      return UpdateMetadataRollback(env);
    case State::kRegionMigrationEnd:
      return Step::Done();
    case State::kRegionMigrationAbort:
      return Step::Error("Region migration is aborted: region " + ctx_.region.ToString() +
                         ", from_peer " + ctx_.from_peer.ToString() + ", to_peer " +
                         ctx_.to_peer.ToString());
  }
  REPARTSIM_UNREACHABLE();
}

Step RegionMigrationProcedure::Rollback(MetasrvEnv& env, const ProcedureView&) {
  // rollback_inner: under the dynamic table lock, a Downgrading route of the region goes back
  // to None (a Staging one stays).
  if (std::optional<Step> wait = ClearLeaderState(env, /*only_downgrading=*/true)) return *wait;
  return Step::Done();
}

std::vector<LockKey> RegionMigrationProcedure::lock_keys() const {
  return {CatalogReadLock(), SchemaReadLock(), RegionWriteLock(ctx_.region)};
}

void RegionMigrationProcedure::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(state_)).Add(ctx_.from_peer.value).Add(ctx_.to_peer.value);
  h.Add(ctx_.region.value).Add(ctx_.timeout_ms).Add(ctx_.trigger_reason);
  h.Add(started_at_.has_value() ? started_at_->ms : -1);
  h.Add(leader_lease_deadline_.has_value() ? leader_lease_deadline_->ms : -1);
  h.Add(last_entry_id_.has_value()).Add(last_entry_id_.value_or(0));
  requests_.Hash(h);
  h.Add(tries_).Add(resume_at_.has_value() ? resume_at_->ms : -1).Add(lease_sleep_);
}

std::optional<sim::Duration> RegionMigrationProcedure::Remaining(MetasrvEnv& env) {
  REPARTSIM_ASSERT(started_at_.has_value());
  const int64_t elapsed_ms = env.Now().ms - started_at_->ms;
  REPARTSIM_ASSERT(elapsed_ms >= 0);
  if (elapsed_ms >= ctx_.timeout_ms) return std::nullopt;
  return sim::Ms(ctx_.timeout_ms - elapsed_ms);
}

Step RegionMigrationProcedure::Goto(State next) {
  REPARTSIM_ASSERT(!requests_.sent());
  state_ = next;
  tries_ = 0;
  resume_at_.reset();
  lease_sleep_ = false;
  return Step::Next(/*persist=*/false);
}

Step RegionMigrationProcedure::SendOne(MetasrvEnv& env, NodeId node, RegionOp op,
                                       sim::SimTime deadline) {
  REPARTSIM_ASSERT(!requests_.sent());
  REPARTSIM_ASSERT(IsMailboxOp(op));
  requests_.Send(env, node, ctx_.region, std::move(op));
  requests_.Seal(env, deadline);
  return requests_.WaitStep();
}

}  // namespace repartsim::model
