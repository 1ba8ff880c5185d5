// Goal: DecisiveDecisionsText (checker/report/decisive_decisions.h) tells each non-default
// decision with the trace line it caused in its step: a network fault its own line (a `_ms`
// value the line of its fault), a crash site the crash, a scheduling choice the first event
// of its step; nodes named; default decisions left out; at most lines_max lines, then a count.
// DecisionSteps finds the step of each decision of a real run.
// Method: a hand-written trace and choice list; then a bundled scenario's recorded run.
#include "checker/report/decisive_decisions.h"

#include <gtest/gtest.h>

#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::report {
namespace {
namespace decisive_decisions_test {

TEST(DecisiveDecisionsTest, EachNonDefaultDecisionNamesWhatItDidInItsStep) {
  scenario::Scenario s;  // 3 datanodes: n1..n3 are dn1..dn3, n4 is fe1
  sim::ChoiceList choices;
  choices.AddChance("net.drop", sim::Ratio{1, 50}, false);                // #0 default: left out
  choices.AddChance("net.delay", sim::Ratio{1, 20}, true);                // #1 step 7
  choices.AddChoose("net.delay_ms", 100, 49);                             // #2 step 7
  choices.AddChoose("sched.next", 3, 2);                                  // #3 step 9
  choices.AddChance("datanode.flush.after_sst", sim::Ratio{1, 4}, true);  // #4 step 12
  const std::vector<uint64_t> steps = {5, 7, 7, 9, 12};
  const std::vector<std::string> trace = {
      "7 300 - op insert id=1 fe=fe1 table=1024 rows=1 values=\"(1)\"",
      "7 300 n4 send id=3 msg=WriteRequest to=dn1",
      "7 300 n4 net.delay id=3 msg=WriteRequest from=fe1 to=dn1 extra_ms=50 deliver_at=350",
      "9 310 n0 recv Heartbeat from=dn2 id=4",
      "9 310 n0 send id=5 msg=HeartbeatReply to=dn2",
      "12 400 n2 dn.flush 4398046511104(1024, 0)",
      "12 400 n2 crash dn2",
  };
  const std::vector<std::string> all = {
      "#1 net.delay = yes, step 7 (t=300 ms): fe1 net.delay id=3 msg=WriteRequest from=fe1 "
      "to=dn1 extra_ms=50 deliver_at=350",
      "#2 net.delay_ms = 49 of 100, step 7 (t=300 ms): fe1 net.delay id=3 msg=WriteRequest "
      "from=fe1 to=dn1 extra_ms=50 deliver_at=350",
      "#3 sched.next = 2 of 3, step 9 (t=310 ms): metasrv recv Heartbeat from=dn2 id=4",
      "#4 datanode.flush.after_sst = yes, step 12 (t=400 ms): dn2 crash dn2"};
  EXPECT_EQ(DecisiveDecisionsText(s, choices, steps, trace, 10), all);
  EXPECT_EQ(DecisiveDecisionsText(s, choices, steps, trace, 2),
            (std::vector<std::string>{all[0], all[1], "... and 2 more"}));
  EXPECT_EQ(DecisiveDecisionsText(s, choices, {5, 7}, trace, 10).back(),
            "#4 datanode.flush.after_sst = yes (not reached when replayed)");
}

TEST(DecisiveDecisionsTest, DecisionStepsReplayARecordedRun) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/random/split_faults.yaml");
  ASSERT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.seed = 9;
  auto r = run::RunScenario(s.value(), config);
  ASSERT_TRUE(r.ok());
  ASSERT_GT(r.value().choices.size(), 10u);
  const std::vector<uint64_t> steps = DecisionSteps(s.value(), config, r.value().choices);
  ASSERT_EQ(steps.size(), r.value().choices.size());
  for (size_t i = 1; i < steps.size(); ++i) EXPECT_LE(steps[i - 1], steps[i]) << i;
  EXPECT_LE(steps.back(), r.value().summary.steps);
}

}  // namespace decisive_decisions_test
}  // namespace
}  // namespace repartsim::report
