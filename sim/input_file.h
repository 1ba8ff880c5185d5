// The one reader of every file a user hands the tools: scenarios, SQL files, choice files, run
// and sweep reports. It refuses a directory and never reads more than its limit plus one byte,
// so a device such as /dev/zero, a FIFO or a huge file costs at most the limit in memory and
// time and ends in a located error (exit 64), not an exception or an abort.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "sim/result.h"

namespace repartsim::sim {

// The whole of the file at `path` ("-" is not special). `what` names the kind of file in
// errors ("scenario file", "choice file", ...). Errors, located at `path`:
//   "cannot read <what>: <strerror>"            (missing, unreadable)
//   "is a directory, not a <what>"
//   "<what> of N bytes exceeds the limit of M bytes"       (a regular file)
//   "<what> is longer than the limit of M bytes"           (a device or a FIFO)
//   "<what> is a FIFO that no writer opened within N s"    (kFifoWriterWaitMs)
// A FIFO is read from its writer's first bytes (or its close) to its end; opening it does not
// wait for a writer, the first read waits at most kFifoWriterWaitMs.
// REQUIRES: max_bytes > 0 and small enough that max_bytes + 1 fits in memory.
inline constexpr int kFifoWriterWaitMs = 30'000;
Result<std::string> ReadInputFile(const std::string& path, size_t max_bytes, std::string_view what);

}  // namespace repartsim::sim
