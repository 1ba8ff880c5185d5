// Output files of the verbs: how a report, trace, choice file or page is written, and how
// every output a verb was asked for is checked before any work, so that a bad path costs no
// run and a finished run is never lost to a path found bad at the end.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/result.h"

namespace repartsim::campaign {

// Writes `text` to `path` ("-" = stdout) atomically: a temporary file next to it, written,
// flushed (fsync), closed and checked, then renamed over `path`, so a crash or a full disk
// never leaves a truncated or empty report. Special files (/dev/..., FIFOs) are written in
// place. Error, located at `path`: "cannot write the report: <strerror(errno)>".
// A symlink is written through: the file it names is replaced, the link stays. A path that
// names a descriptor this process holds (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
// also through symlinks) is written to that descriptor, as "-" is to stdout.
sim::Status WriteTextFile(const std::string& path, const std::string& text);

// The descriptor `path` names: 1 for "-" and /dev/stdout, 2 for /dev/stderr, N for /dev/fd/N
// or /proc/self/fd/N, also at the end of a chain of symlinks; nullopt for any other path.
std::optional<int> OutputDescriptor(const std::string& path);
// The file a report for `path` is written to: `path`, or the file a symlink `path` names.
std::string OutputTarget(const std::string& path);

// Why `path` cannot be written, checked before any run ("cannot write <path>: <reason>"):
// its directory is missing or not writable, or it is a directory. nullopt when it can;
// "-" (stdout) always can.
std::optional<std::string> OutputPathProblem(const std::string& path);

// One output of a verb: the flag that names it (for errors) and its path ("" = not asked for).
struct OutputFile {
  std::string flag;
  std::string path;
};
// The first problem among a verb's outputs: which one (an index into them), whether the
// message is about its path (else about its flag), and the message.
struct OutputProblem {
  size_t index = 0;
  bool at_path = false;
  std::string message;
};
// Checks a verb's outputs together: each with OutputPathProblem, and no two naming the same
// file (after resolving '.', '..' and symlinks) or both stdout ('-'), which would overwrite or
// interleave each other: "--junit names the same file as --json (x.xml)", "--json - and
// --trace - cannot both write to stdout" (about the second flag), and none naming one of the
// verb's `inputs` (scenario files, choice files, reports it reads), which it would overwrite.
std::optional<OutputProblem> CheckOutputFiles(const std::vector<OutputFile>& outputs,
                                              const std::vector<std::string>& inputs = {});

}  // namespace repartsim::campaign
