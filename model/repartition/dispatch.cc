// P3 Dispatch (docs/protocol.md sections 10.2, 10.3): one RepartitionGroup child per plan still to
// run, with its region mapping; suspends without persisting, so after a metasrv restart the parent
// resumes here and re-dispatches fresh groups. With the real global transition indices (P1) a group
// whose mapping indexes past its own targets panics: Failed, no rollback, record kept.
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/repartition_procedure.h"

namespace repartsim::model {

Step RepartitionProcedure::Dispatch(MetasrvEnv& env) {
  std::vector<ChildSpec> children;
  for (size_t plan_index : ctx_.dispatch_plans) {
    const PlanEntry& plan = ctx_.plans[plan_index];
    RepartitionGroupProcedure::PersistentContext group;
    group.group_id = plan.group_id;
    group.parent = env.current().value;
    group.plan_index = plan_index;
    group.table = ctx_.table;
    group.sources = plan.sources;
    group.targets = plan.targets;
    for (size_t k = 0; k < plan.sources.size(); ++k) {
      std::vector<RegionId>& dsts = group.region_mapping[plan.sources[k].region];
      for (size_t j : plan.transition_map[k]) {
        if (j >= plan.targets.size()) {
          return Step::Panic("index out of bounds: the len is " +
                             std::to_string(plan.targets.size()) + " but the index is " +
                             std::to_string(j) + " (build_region_mapping)");
        }
        dsts.push_back(plan.targets[j].region);
      }
    }
    group.allocated = plan.allocated;
    group.pending_deallocate = plan.pending_deallocate;
    group.timeout_ms = ctx_.timeout_ms;
    group.created_at_ms = env.Now().ms;
    children.push_back(
        ChildSpec{std::string(RepartitionGroupProcedure::kType),
                  RepartitionGroupProcedure(std::move(group)).Dump()});
  }
  state_ = State::kCollect;
  return Step::Suspend(std::move(children), /*persist=*/false);
}

}  // namespace repartsim::model
