// A sweep report a CLI test's run of the binary wrote, read by the campaign layer's own reader
// (checker/campaign/sweep_report.h) into its struct: the tests assert fields, not JSON text, and
// include no JSON library.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "checker/campaign/sweep_report.h"

namespace repartsim::testing {

// The sweep report at `path`, as `merge` reads it (every field checked), aggregated (tallies,
// groups); a failed read fails the test and gives an empty report.
inline campaign::SweepReport ReadSweep(const std::string& path) {
  sim::Result<campaign::SweepReport> read = campaign::ReadSweepReport(path);
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().Format());
  campaign::SweepReport report = read.ok() ? std::move(read).value() : campaign::SweepReport{};
  report.Aggregate();
  return report;
}

}  // namespace repartsim::testing
