#include "model/repartition/repartition_procedure.h"

#include <nlohmann/json.hpp>

#include "model/ddl/lock_keys.h"
#include "sim/assert.h"
#include "sim/json_text.h"
#include "sim/text_memo.h"

namespace repartsim::model {

namespace {

sim::Error Corrupt(const char* what) {
  return sim::MakeError({}, std::string("corrupt Repartition record: ") + what);
}

}  // namespace

std::string RepartitionProcedure::state_name() const {
  return std::string(kStateNames[static_cast<size_t>(state_)]);
}

std::string RepartitionProcedure::Dump() const {
  thread_local sim::TextMemo<std::pair<State, PersistentContext>> memo;
  const uint64_t key = sim::Hasher()
                           .Add(static_cast<uint64_t>(state_))
                           .Add(ctx_.table.value)
                           .Add(static_cast<uint64_t>(ctx_.plans.size()))
                           .Add(static_cast<uint64_t>(ctx_.failed_plans.size()))
                           .Add(static_cast<uint64_t>(ctx_.unknown_plans.size()))
                           .Add(static_cast<uint64_t>(ctx_.succeeded_plans.size()))
                           .Add(static_cast<uint64_t>(ctx_.dispatch_plans.size()))
                           .Add(ctx_.next_group_id)
                           .Finish();
  return memo.Get(key, std::pair{state_, ctx_}, [&] { return DumpJson(); });
}

std::string RepartitionProcedure::DumpJson() const {
  REPARTSIM_ASSERT(static_cast<size_t>(state_) < kStateNames.size());
  nlohmann::json j;
  j["state"] = static_cast<int>(state_);
  j["table"] = ctx_.table.value;
  j["table_name"] = ctx_.table_name;
  nlohmann::json from = nlohmann::json::array();
  for (const PartitionExpr& e : ctx_.from_exprs) from.push_back(e.CanonicalText());
  j["from"] = from;
  nlohmann::json to = nlohmann::json::array();
  for (const PartitionExpr& e : ctx_.to_exprs) to.push_back(e.CanonicalText());
  j["to"] = to;
  j["target_columns"] = ctx_.target_columns.has_value() ? nlohmann::json(*ctx_.target_columns)
                                                        : nlohmann::json(nullptr);
  if (ctx_.metadata_update.has_value()) {
    j["metadata_update"] = {{"original", ctx_.metadata_update->original},
                            {"target", ctx_.metadata_update->target}};
  } else {
    j["metadata_update"] = nullptr;
  }
  nlohmann::json plans = nlohmann::json::array();
  for (const PlanEntry& plan : ctx_.plans) plans.push_back(PlanToJson(plan));
  j["plans"] = plans;
  j["failed"] = ctx_.failed_plans;
  j["unknown"] = ctx_.unknown_plans;
  j["succeeded"] = ctx_.succeeded_plans;
  j["dispatch"] = ctx_.dispatch_plans;
  j["timeout_ms"] = ctx_.timeout_ms;
  j["next_group_id"] = ctx_.next_group_id;
  return sim::JsonText(j);
}

sim::Result<RepartitionProcedure> RepartitionProcedure::Load(std::string_view dump) {
  nlohmann::json j = nlohmann::json::parse(dump, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Corrupt("not JSON");
  for (const char* key :
       {"state", "table", "table_name", "from", "to", "target_columns", "metadata_update", "plans",
        "failed", "unknown", "succeeded", "dispatch", "timeout_ms", "next_group_id"}) {
    if (!j.contains(key)) return Corrupt(key);
  }
  PersistentContext ctx;
  ctx.table = TableId{j["table"].get<uint32_t>()};
  ctx.table_name = j["table_name"].get<std::string>();
  for (auto* list : {&ctx.from_exprs, &ctx.to_exprs}) {
    for (const auto& e : j[list == &ctx.from_exprs ? "from" : "to"]) {
      sim::Result<std::optional<PartitionExpr>> expr = ExprFromJson(e);
      if (!expr.ok() || !expr.value().has_value()) return Corrupt("expression");
      list->push_back(*expr.value());
    }
  }
  if (!j["target_columns"].is_null()) {
    ctx.target_columns = j["target_columns"].get<std::vector<std::string>>();
  }
  if (!j["metadata_update"].is_null()) {
    ctx.metadata_update =
        PartitionMetadataUpdate{j["metadata_update"]["original"].get<std::vector<size_t>>(),
                                j["metadata_update"]["target"].get<std::vector<size_t>>()};
  }
  for (const auto& p : j["plans"]) {
    sim::Result<PlanEntry> plan = PlanFromJson(p);
    if (!plan.ok()) return plan.error();
    ctx.plans.push_back(std::move(plan).value());
  }
  ctx.failed_plans = j["failed"].get<std::vector<size_t>>();
  ctx.unknown_plans = j["unknown"].get<std::vector<size_t>>();
  ctx.succeeded_plans = j["succeeded"].get<std::vector<size_t>>();
  ctx.dispatch_plans = j["dispatch"].get<std::vector<size_t>>();
  ctx.timeout_ms = j["timeout_ms"].get<int64_t>();
  ctx.next_group_id = j["next_group_id"].get<uint64_t>();
  int state = j["state"].get<int>();
  if (state < 0 || state > static_cast<int>(State::kRepartitionEnd)) return Corrupt("state");
  RepartitionProcedure procedure(std::move(ctx));
  procedure.state_ = static_cast<State>(state);
  return procedure;
}

Step RepartitionProcedure::Execute(MetasrvEnv& env, const ProcedureView& view) {
  REPARTSIM_ASSERT(view.id == env.current());
  REPARTSIM_ASSERT(!view.parent.valid());  // the parent procedure is always a root
  switch (state_) {
    case State::kRepartitionStart:
      return RepartitionStart(env);
    case State::kUpdatePartitionMetadata:
      return UpdatePartitionMetadata(env);
    case State::kAllocateRegionBuild:
      return AllocateRegionBuild(env);
    case State::kAllocateRegionExecute:
      return AllocateRegionExecute(env);
    case State::kDispatch:
      return Dispatch(env);
    case State::kCollect:
      return Collect(env, view);
    case State::kDeallocateRegion:
      return DeallocateRegion(env);
    case State::kRepartitionEnd:
      return RepartitionEnd(env);
  }
  REPARTSIM_UNREACHABLE();
}

std::vector<LockKey> RepartitionProcedure::lock_keys() const {
  return {CatalogReadLock(), SchemaReadLock(), TableWriteLock(ctx_.table),
          TableNameWriteLock(ctx_.table_name)};
}

void RepartitionProcedure::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(state_)).Add(ctx_.table.value).Add(ctx_.timeout_ms);
  for (const PartitionExpr& e : ctx_.from_exprs) h.Add(ExprVersion(&e));
  for (const PartitionExpr& e : ctx_.to_exprs) h.Add(ExprVersion(&e));
  for (const PlanEntry& plan : ctx_.plans) HashPlan(h, plan);
  for (size_t i : ctx_.failed_plans) h.Add(static_cast<uint64_t>(i));
  for (size_t i : ctx_.unknown_plans) h.Add(static_cast<uint64_t>(i) + 1000);
  for (size_t i : ctx_.succeeded_plans) h.Add(static_cast<uint64_t>(i) + 2000);
  for (size_t i : ctx_.dispatch_plans) h.Add(static_cast<uint64_t>(i) + 3000);
  h.Add(ctx_.next_group_id);
  requests_.Hash(h);
  for (RegionId r : drop_list_) h.Add(r.value);
  if (allocate_read_.has_value()) h.Add(std::string_view(allocate_read_->raw));
}

Step RepartitionProcedure::RepartitionEnd(MetasrvEnv&) { return Step::Done(); }

}  // namespace repartsim::model
