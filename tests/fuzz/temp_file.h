// A per-process scratch file for the targets whose reader takes a path (choices, merge).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace repartsim::fuzz {

// Writes `size` bytes to a file named after `name` and this process; returns its path.
inline std::string WriteScratchFile(const char* name, const uint8_t* data, size_t size) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("repartsim-fuzz-" + std::to_string(getpid()) + "-" + name))
                               .string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f) != 0) std::abort();
  return path;
}

}  // namespace repartsim::fuzz
