#include "tools/repartsim/report_sweep.h"

#include "checker/campaign/output_files.h"
#include "checker/report/sweep_text.h"
#include "sim/json_text.h"

namespace repartsim::tools {

void WriteSweepReportFiles(const std::string& json, const std::string& junit,
                           const campaign::SweepReport& report, std::vector<sim::Error>& errors) {
  if (!json.empty()) {
    sim::Status st = campaign::WriteTextFile(json, sim::JsonText(report.ToJson(), 1) + "\n");
    if (!st.ok()) errors.push_back(st.error());
  }
  if (!junit.empty()) {
    sim::Status st = campaign::WriteTextFile(junit, report::SweepJunit(report));
    if (!st.ok()) errors.push_back(st.error());
  }
}

std::pair<std::string, std::string> BinaryIdentity() {
  static const std::pair<std::string, std::string> identity = {
      std::string(REPARTSIM_VERSION), campaign::FileHash("/proc/self/exe")};
  return identity;
}

void PrintSweepSummary(const campaign::SweepReport& report, bool verbose, std::FILE* out) {
  const std::string text = report::SweepSummaryText(report, verbose);
  std::fwrite(text.data(), 1, text.size(), out);
}

void PrintSweepTotals(const campaign::SweepReport& report, std::FILE* out) {
  const std::string text = report::SweepTotalsText(report);
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace repartsim::tools
