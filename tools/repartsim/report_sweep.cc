#include "tools/repartsim/report_sweep.h"

#include <fstream>
#include <iterator>

#include "model/campaign/sweep_text.h"
#include "sim/fingerprint.h"

namespace repartsim::tools {

std::pair<std::string, std::string> BinaryIdentity() {
  static const std::pair<std::string, std::string> identity = [] {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    sim::Hasher h;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    h.Add(std::string_view(bytes));
    return std::make_pair(std::string(REPARTSIM_VERSION), sim::Hex64(h.Finish()));
  }();
  return identity;
}

void PrintSweepSummary(const SweepReport& report, std::FILE* out) {
  const std::string text = campaign::SweepSummaryText(report);
  std::fwrite(text.data(), 1, text.size(), out);
}

void PrintSweepTotals(const SweepReport& report, std::FILE* out) {
  const std::string text = campaign::SweepTotalsText(report);
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace repartsim::tools
