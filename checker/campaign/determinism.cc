#include "checker/campaign/determinism.h"

#include <algorithm>

#include "sim/trace.h"

namespace repartsim::campaign {

std::string DivergenceReport(const std::vector<std::string>& a, const std::vector<std::string>& b,
                             size_t context) {
  const std::optional<sim::Divergence> d = sim::FirstDivergence(a, b);
  if (!d) return "the traces are identical";
  std::string out = "first divergent event #" + std::to_string(d->index) + "\n";
  const size_t from = d->index >= context ? d->index - context : 0;
  for (size_t i = from; i < d->index; ++i) out += "     both: " + a[i] + "\n";
  auto side = [&](const char* name, const std::vector<std::string>& lines) {
    const size_t end = std::min(lines.size(), d->index + 1 + context);
    if (d->index >= lines.size()) {
      out += std::string("  > ") + name + ": (trace ends)\n";
      return;
    }
    out += std::string("  > ") + name + ": " + lines[d->index] + "\n";
    for (size_t i = d->index + 1; i < end; ++i)
      out += std::string("    ") + name + ": " + lines[i] + "\n";
  };
  side("run 1", a);
  side("run 2", b);
  return out;
}

DeterminismCheck CheckDeterminism(const scenario::Scenario& s, run::RunConfig config,
                                  const std::function<void(run::RunConfig&)>& plant) {
  config.keep_trace = true;
  config.trace_out = nullptr;
  DeterminismCheck check;
  auto first = run::RunScenario(s, config);
  if (plant) plant(config);
  auto second = run::RunScenario(s, config);
  check.first = std::move(first).value();
  check.second = std::move(second).value();
  if (check.first.summary != check.second.summary ||
      check.first.trace_lines != check.second.trace_lines) {
    check.mismatch = "run 1: " + check.first.SummaryLine() +
                     "\nrun 2: " + check.second.SummaryLine() + "\n" +
                     DivergenceReport(check.first.trace_lines, check.second.trace_lines);
  }
  return check;
}

}  // namespace repartsim::campaign
