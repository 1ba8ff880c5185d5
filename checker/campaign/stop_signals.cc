#include "checker/campaign/stop_signals.h"

#include "sim/assert.h"

namespace repartsim::campaign {

namespace {

volatile std::sig_atomic_t g_received = 0;

extern "C" void OnStopSignal(int signal) { g_received = signal; }

}  // namespace

StopSignals::StopSignals() {
  g_received = 0;
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  REPARTSIM_ASSERT(sigaction(SIGINT, &action, &old_int_) == 0);
  REPARTSIM_ASSERT(sigaction(SIGTERM, &action, &old_term_) == 0);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

int StopSignals::Received() { return g_received; }

void StopSignals::ResetInChild() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

}  // namespace repartsim::campaign
