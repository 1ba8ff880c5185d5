// Goal: a run that breaks an assertion hands the decisions it took to
// RunConfig::on_internal_error before the process exits 70 (issue 54, R2: explore lost the
// path that hit an internal error; it now saves it as a choice file).
// Method: a death test; the run's after_step seam breaks an assertion at step 30, the hook
// writes the decisions to a file, and the parent reads the file the dead child left.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "sim/assert.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace internal_error_hook_test {

TEST(InternalErrorHookDeathTest, TheDecisionsReachTheHookBeforeTheExit) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/random/restart_replay_faults.yaml");
  ASSERT_TRUE(s.ok()) << s.error().Format();
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("repartsim-hook-" + std::to_string(getpid()) + ".choices"))
                               .string();
  std::filesystem::remove(path);
  RunConfig config;
  config.seed = 3;
  config.on_internal_error = [&path](const sim::ChoiceList& list) {
    std::ofstream(path) << list.ToText();
  };
  config.after_step = [](const StepView& v) {
    REPARTSIM_ASSERT_MSG(v.step < 30, "planted by the test");
    return true;
  };
  EXPECT_EXIT((void)RunScenario(s.value(), config), ::testing::ExitedWithCode(70),
              "planted by the test");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().rfind("repartsim-choices 1\n", 0), 0u) << text.str();
  EXPECT_NE(text.str().find("\nchance net."), std::string::npos) << text.str();
  std::filesystem::remove(path);
  EXPECT_EQ(sim::CurrentAssertContext().on_fail, nullptr);  // this process never set it
}

}  // namespace internal_error_hook_test
}  // namespace
}  // namespace repartsim::run
