// FuzzConsole: see fuzz_targets.h.
#include <string>
#include <string_view>

#include "checker/console/console_session.h"
#include "checker/console/script.h"
#include "checker/report/console_text.h"
#include "sim/assert.h"
#include "sim/json_text.h"
#include "tests/fuzz/fuzz_targets.h"

namespace repartsim::fuzz {

int FuzzConsole(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  console::SessionConfig config;
  config.statement_steps_max = kConsoleStepsFuzz;
  auto session = console::Session::Start(config);
  REPARTSIM_ASSERT(session.ok());  // the default profile exists
  size_t statements = 0;
  for (const console::ScriptStatement& s : console::SplitScript(text, "fuzz.sql")) {
    if (++statements > kConsoleStatementsFuzz) break;
    std::optional<console::StatementResult> result = session.value()->Run(s.text, s.location);
    if (!result) continue;
    (void)report::ResultBlock(s.text, result->answer);
    (void)sim::JsonText(report::AnswerJson(result->answer));  // as the verb writes it
  }
  return 0;
}

}  // namespace repartsim::fuzz
