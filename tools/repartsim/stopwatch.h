// Wall time of one verb: progress lines, --max-seconds and --time-budget, the timings a report
// shows. The model and the campaign layer never read a clock (the determinism lint); the verbs
// read it here and pass it in.
#pragma once

#include <chrono>
#include <cstdint>

namespace repartsim::tools {

class Stopwatch {
 public:
  int64_t Ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count();
  }
  double Seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // True at most once a second (the first time one second after the start): a progress line.
  bool EverySecond() {
    const Clock::time_point now = Clock::now();
    if (now - last_ < std::chrono::seconds(1)) return false;
    last_ = now;
    return true;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

}  // namespace repartsim::tools
