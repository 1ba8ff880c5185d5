// P3 Dispatch (docs/protocol.md sections 10.2, 10.3): one RepartitionGroup child per plan still to
// run, with its region mapping; suspends without persisting, so after a metasrv restart the parent
// resumes here and re-dispatches fresh groups. With the real global transition indices (P1) a group
// whose mapping indexes past its own targets panics: Failed, no rollback, record kept.
#include "model/partition/region_assignment.h"
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/repartition_procedure.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionProcedure::Dispatch(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kDispatch);
  REPARTSIM_ASSERT(env.current().valid());
  std::vector<ChildSpec> children;
  for (size_t plan_index : ctx_.dispatch_plans) {
    REPARTSIM_ASSERT(plan_index < ctx_.plans.size());
    const PlanEntry& plan = ctx_.plans[plan_index];
    REPARTSIM_ASSERT(plan.built);
    REPARTSIM_ASSERT(plan.transition_map.size() == plan.sources.size());
    if (std::optional<std::string> panic =
            RegionMappingPanic(plan.transition_map, plan.targets.size())) {
      return Step::Panic(*panic + " (build_region_mapping)");
    }
    RepartitionGroupProcedure::PersistentContext group;
    group.group_id = plan.group_id;
    group.parent = env.current().value;
    group.plan_index = plan_index;
    group.table = ctx_.table;
    group.sources = plan.sources;
    group.targets = plan.targets;
    for (size_t k = 0; k < plan.sources.size(); ++k) {
      std::vector<RegionId>& dsts = group.region_mapping[plan.sources[k].region];
      for (size_t j : plan.transition_map[k]) dsts.push_back(plan.targets[j].region);
    }
    group.allocated = plan.allocated;
    group.pending_deallocate = plan.pending_deallocate;
    group.timeout_ms = ctx_.timeout_ms;
    group.created_at_ms = env.Now().ms;
    children.push_back(ChildSpec{std::string(RepartitionGroupProcedure::kType),
                                 RepartitionGroupProcedure(std::move(group)).Dump()});
  }
  REPARTSIM_ASSERT(children.size() == ctx_.dispatch_plans.size());
  state_ = State::kCollect;
  return Step::Suspend(std::move(children), /*persist=*/false);
}

}  // namespace repartsim::model
