#include "tools/repartsim/report_sweep.h"

#include "checker/report/sweep_text.h"

namespace repartsim::tools {

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
