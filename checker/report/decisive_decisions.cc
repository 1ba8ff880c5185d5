#include "checker/report/decisive_decisions.h"

#include <optional>

#include "checker/report/html_timeline.h"
#include "checker/report/timeline.h"
#include "checker/scenario/loader.h"
#include "sim/assert.h"

namespace repartsim::report {

namespace {

// Forwards every decision to `inner` and notes the step it was taken in.
class StepTagger final : public sim::Chooser {
 public:
  StepTagger(sim::Chooser& inner, const uint64_t& step) : inner_(inner), step_(step) {}
  uint64_t draw_count() const override { return inner_.draw_count(); }
  const sim::ChoiceMismatch* mismatch() const override { return inner_.mismatch(); }
  const std::vector<uint64_t>& steps() const { return steps_; }

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override {
    steps_.push_back(step_);
    return inner_.Choose(label, option_count);
  }
  bool DoChance(std::string_view label, sim::Ratio p) override {
    steps_.push_back(step_);
    return inner_.Chance(label, p);
  }

 private:
  sim::Chooser& inner_;
  const uint64_t& step_;
  std::vector<uint64_t> steps_;
};

// Whether trace event `kind` is what decision `label` caused.
bool Caused(std::string_view label, std::string_view kind) {
  if (label == "net.replay_fail") return kind == "dn.replay_skip" || kind == "dn.open_failed";
  if (label.substr(0, 4) != "net." && label.substr(0, 6) != "sched." &&
      label.substr(0, 10) != "procedure.") {
    return kind == "crash";  // a crash site's label is the site
  }
  std::string_view stem = label;
  if (stem.size() > 3 && stem.substr(stem.size() - 3) == "_ms") stem.remove_suffix(3);
  return kind == stem;
}

}  // namespace

std::vector<uint64_t> DecisionSteps(const scenario::Scenario& s, run::RunConfig config,
                                    const sim::ChoiceList& choices) {
  uint64_t step = 0;
  sim::ReplayChooser replay(choices);
  StepTagger tagger(replay, step);
  config.replay = nullptr;
  config.chooser = &tagger;
  config.keep_trace = false;
  config.trace_out = nullptr;
  config.after_step = [&step](const run::StepView& view) {
    step = view.step + 1;  // decisions from here on belong to the next step
    return true;
  };
  auto run = run::RunScenario(s, config);
  if (!run.ok()) return {};
  REPARTSIM_ASSERT(tagger.steps().size() <= choices.size() || replay.mismatch() != nullptr);
  return tagger.steps();
}

std::vector<std::string> DecisiveDecisionsText(const scenario::Scenario& s,
                                               const sim::ChoiceList& choices,
                                               const std::vector<uint64_t>& steps,
                                               const std::vector<std::string>& trace,
                                               size_t lines_max) {
  const std::vector<std::string> names = TimelineNodeNames(s.datanode_count, s.frontend_count);
  auto name = [&names](int node) {
    return node < 0                                   ? std::string("-")
           : static_cast<size_t>(node) < names.size() ? names[static_cast<size_t>(node)]
                                                      : "n" + std::to_string(node);
  };
  std::vector<std::optional<TraceEvent>> events;
  events.reserve(trace.size());
  for (size_t i = 0; i < trace.size(); ++i) events.push_back(ParseTraceLine(trace[i], i));
  std::vector<std::string> out;
  size_t more = 0;
  for (size_t i = 0; i < choices.size(); ++i) {
    const sim::Choice& c = choices.at(i);
    if (c.value == 0) continue;
    if (out.size() == lines_max) {
      ++more;
      continue;
    }
    const std::string_view label = choices.label(c);
    std::string line = "#" + std::to_string(i) + " " + std::string(label) + " = " +
                       (c.kind == sim::ChoiceKind::kChance
                            ? std::string("yes")
                            : std::to_string(c.value) + " of " + std::to_string(c.option_count));
    if (i >= steps.size()) {
      out.push_back(line + " (not reached when replayed)");
      continue;
    }
    const TraceEvent* first = nullptr;
    const TraceEvent* caused = nullptr;
    for (const std::optional<TraceEvent>& e : events) {
      if (!e || e->step != steps[i] || e->kind == "op") continue;
      if (first == nullptr) first = &*e;
      if (Caused(label, e->kind)) {
        caused = &*e;
        break;
      }
    }
    const TraceEvent* shown = caused != nullptr ? caused : first;
    line += ", step " + std::to_string(steps[i]);
    if (shown != nullptr) {
      line += " (t=" + std::to_string(shown->time_ms) + " ms): " + name(shown->node) + " " +
              std::string(shown->kind) +
              (shown->detail.empty() ? "" : " " + std::string(shown->detail));
    }
    out.push_back(std::move(line));
  }
  if (more > 0) out.push_back("... and " + std::to_string(more) + " more");
  return out;
}

std::vector<std::string> DecisiveDecisions(const scenario::Scenario& s,
                                           const run::ExploreConfig& config,
                                           const run::RunReport& r, size_t lines_max) {
  run::RunConfig replay;
  replay.seed = config.seed;
  replay.profile = config.profile;
  replay.rules = config.rules;
  return DecisiveDecisionsText(s, r.choices, DecisionSteps(s, replay, r.choices), r.trace_lines,
                               lines_max);
}

sim::Result<ToldRun> TellScenarioFile(const std::string& path, uint64_t seed,
                                      size_t decisions_max) {
  auto s = scenario::LoadScenarioFile(path);
  if (!s.ok()) return s.error();
  run::RunConfig config;
  config.seed = seed;
  config.keep_trace = true;
  auto r = run::RunScenario(s.value(), config);
  if (!r.ok()) return r.error();
  ToldRun told{std::move(r).value(), {}};
  for (const run::Story& story : told.report.stories) told.text += "  story: " + story.cause + "\n";
  for (const std::string& line : DecisiveDecisionsText(
           s.value(), told.report.choices, DecisionSteps(s.value(), config, told.report.choices),
           told.report.trace_lines, decisions_max)) {
    told.text += "  decision " + line + "\n";
  }
  return told;
}

}  // namespace repartsim::report
