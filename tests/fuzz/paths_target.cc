// FuzzPaths: see fuzz_targets.h. The file names and numbers of issue 54's audit (R1, R3, R5,
// R12, R19), as a fuzz target beside the property test tests/checker/campaign/
// hostile_names_test.cc: the input's bytes, less '/' and NUL, are one file name.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "checker/campaign/choice_file.h"
#include "checker/campaign/output_files.h"
#include "checker/campaign/repro_command.h"
#include "checker/report/run_text.h"
#include "sim/choice_list.h"
#include "sim/json_text.h"
#include "sim/utf8.h"
#include "tests/fuzz/fuzz_targets.h"

namespace repartsim::fuzz {

namespace {

// Aborts (the finding) unless `condition` holds.
void Require(bool condition) {
  if (!condition) std::abort();
}

bool HasControlByte(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

// The name in a choice file header, a JSON report and on the terminal.
void CheckWriters(const std::string& name) {
  auto file = campaign::ParseChoicesFile(
      "# scenario=" + campaign::HeaderValue(name) + " seed=1\n" + sim::ChoiceList().ToText(), "x");
  Require(file.ok() && file.value().scenario == name && file.value().seed == 1u);
  const std::string json = sim::JsonText(nlohmann::json{{"path", name}}, 1);
  Require(!sim::FirstInvalidUtf8(json).has_value());
  Require(nlohmann::json::parse(json)["path"].get<std::string>() == sim::JsonSafe(name));
  Require(!HasControlByte(sim::VisibleText(name)));
  Require(!HasControlByte(campaign::ShellCommand({"run", name, "--seed", "0"})));
}

// An output naming the input file is refused; another name is not.
void CheckCollision(const std::string& name) {
  if (name == "." || name == "..") return;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("repartsim-fuzz-paths-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << "x";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    Require(campaign::CheckOutputFiles({{"--json", path}}, {path}).has_value());
    // Another name is accepted, unless it is too long for the write probe beside it
    // (`NAME.out.tmp.PID` past NAME_MAX: refused as unwritable, which is right).
    if (name.size() + std::string(".out.tmp.4294967295").size() <= 255) {
      Require(!campaign::CheckOutputFiles({{"--json", path + ".out"}}, {path}).has_value());
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace

int FuzzPaths(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::string name;
  for (const char c : bytes.substr(0, 255)) {
    if (c != '/' && c != '\0') name += c;
  }
  if (name.empty()) name = "x";
  CheckWriters(name);
  CheckCollision(name);
  // The input as a report's number (1e999, 2^64, -0, ...): a located error or a value.
  const std::string report =
      "{\"path\": \"x.yaml\", \"profile\": \"reference\", \"rules\": \"\", "
      "\"summary\": {\"seed\": " +
      bytes + ", \"trace_hash\": \"0x0000000000000001\"}}";
  (void)report::ReadRunIdentity(report, "r.json");
  return 0;
}

}  // namespace repartsim::fuzz
