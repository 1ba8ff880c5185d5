// SIGINT and SIGTERM as a request to stop a long campaign cleanly (Ctrl-C, a CI timeout,
// `kubectl delete`): while a StopSignals lives, either signal only records itself; the work
// checks Received() between runs, writes what it finished and exits 128 + the signal. The
// previous handlers are restored on destruction. A worker forked meanwhile calls
// ResetInChild: it dies of the signal, and its parent does the reporting.
#pragma once

#include <csignal>

namespace repartsim::campaign {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal received since construction (SIGINT or SIGTERM), else 0.
  static int Received();
  // In a forked worker: the default actions.
  static void ResetInChild();

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace repartsim::campaign
