#include "model/ddl/create_table_procedure.h"

#include <nlohmann/json.hpp>

#include "model/ddl/lock_keys.h"
#include "model/meta/meta_codec.h"
#include "model/meta/table_metadata.h"
#include "model/node/message.h"
#include "sim/assert.h"
#include "sim/json_text.h"

namespace repartsim::model {

CreateTableProcedure::CreateTableProcedure(TableInfo info, TableRoute route)
    : info_(std::move(info)), route_(std::move(route)) {}

std::string CreateTableProcedure::state_name() const {
  const auto index = static_cast<size_t>(state_);
  REPARTSIM_ASSERT(index < kStateNames.size());
  return std::string(kStateNames[index]);
}

std::string CreateTableProcedure::Dump() const {
  nlohmann::json j;
  j["state"] = static_cast<int>(state_);
  j["info"] = EncodeTableInfo(info_);
  j["route"] = EncodeTableRoute(route_);
  return sim::JsonText(j);
}

sim::Result<CreateTableProcedure> CreateTableProcedure::Load(std::string_view dump) {
  nlohmann::json j = nlohmann::json::parse(dump, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.contains("state") || !j.contains("info") || !j.contains("route")) {
    return sim::MakeError({}, "CreateTable: corrupt procedure record");
  }
  sim::Result<TableInfo> info = DecodeTableInfo(j["info"].get<std::string>());
  if (!info.ok()) return info.error();
  sim::Result<TableRoute> route = DecodeTableRoute(j["route"].get<std::string>());
  if (!route.ok()) return route.error();
  CreateTableProcedure procedure(std::move(info).value(), std::move(route).value());
  int state = j["state"].get<int>();
  if (state < 0 || state > static_cast<int>(State::kCreateMetadata)) {
    return sim::MakeError({}, "CreateTable: bad state in procedure record");
  }
  procedure.state_ = static_cast<State>(state);
  return procedure;
}

std::vector<LockKey> CreateTableProcedure::lock_keys() const {
  return {CatalogReadLock(), SchemaReadLock(), TableNameWriteLock(info_.name)};
}

Step CreateTableProcedure::Execute(MetasrvEnv& env, const ProcedureView&) {
  switch (state_) {
    case State::kPrepare:
      if (ReadTableInfo(env.kv(), info_.table_id).has_value()) {
        return Step::Error("Table already exists: " + info_.name);
      }
      state_ = State::kDatanodeCreateRegions;
      return Step::Next(/*persist=*/true);
    case State::kDatanodeCreateRegions:
      return CreateRegions(env);
    case State::kCreateMetadata: {
      MetaUpdateResult result = CreateTableMetadata(env.kv(), info_, route_);
      if (!result.ok) return Step::Error(result.error);
      env.InvalidateTable(info_.table_id);
      return Step::Done();
    }
  }
  REPARTSIM_UNREACHABLE();
}

Step CreateTableProcedure::CreateRegions(MetasrvEnv& env) {
  if (!sent_) {
    for (const RegionRoute& r : route_.region_routes) {
      REPARTSIM_ASSERT(r.leader.has_value());
      uint64_t corr = env.SendRegionRequest(*r.leader, r.region_id,
                                            CreateRegionOp{info_.schema, r.partition_expr});
      outstanding_[corr] = r.region_id;
    }
    sent_ = true;
    deadline_ = env.Now() + env.request_timeout();
    return Step::Wait(deadline_);
  }
  Inbox& inbox = env.inbox();
  for (auto it = outstanding_.begin(); it != outstanding_.end();) {
    auto reply = inbox.find(it->first);
    if (reply == inbox.end()) {
      ++it;
      continue;
    }
    REPARTSIM_ASSERT(reply->second.results.size() == 1);  // CreateRegion is a unary RPC
    RegionResult result = reply->second.results.front();
    inbox.erase(reply);
    if (result.code != ReplyCode::kOk) {
      for (const auto& [corr, region] : outstanding_) env.Forget(corr);
      outstanding_.clear();
      sent_ = false;
      if (IsRetryable(result.code)) return Step::RetryLater(result.message);
      return Step::Error(result.message);
    }
    it = outstanding_.erase(it);
  }
  if (outstanding_.empty()) {
    sent_ = false;
    state_ = State::kCreateMetadata;
    return Step::Next(/*persist=*/true);
  }
  if (env.Now() < deadline_) return Step::Wait(deadline_);
  for (const auto& [corr, region] : outstanding_) env.Forget(corr);
  outstanding_.clear();
  sent_ = false;
  return Step::RetryLater("Mailbox receiver timeout: CreateRegion");
}

void CreateTableProcedure::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(state_));
  info_.Hash(h);
  route_.Hash(h);
  h.Add(sent_).Add(deadline_.ms);
  for (const auto& [corr, region] : outstanding_) h.Add(corr).Add(region.value);
}

}  // namespace repartsim::model
