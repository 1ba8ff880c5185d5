// Goal: the exit codes are documented from their one definition: README.md's "Exit codes"
// table is exactly ExitCodeMarkdownTable(), docs/architecture.md points to it instead of
// keeping a copy, the codes are the ones the enum defines, and the --help summary names every
// code the CLI returns.
// Method: read the two documents from the source tree and compare text.
#include "checker/campaign/exit_code.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/paths.h"

namespace repartsim::campaign {
namespace {
namespace exit_code_test {

std::string ReadSource(const std::string& path) {
  std::ifstream in(std::string(REPARTSIM_SOURCE_DIR) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ExitCodeTest, ReadmeTableIsRenderedFromTheDefinition) {
  const std::string readme = ReadSource("README.md");
  const std::string heading = "\n## Exit codes\n\n";
  const size_t at = readme.find(heading);
  ASSERT_NE(at, std::string::npos);
  const size_t start = at + heading.size();
  const size_t end = readme.find("\n\n", start);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(readme.substr(start, end + 1 - start), ExitCodeMarkdownTable());
}

TEST(ExitCodeTest, ArchitectureDocPointsToTheTableInsteadOfCopyingIt) {
  const std::string doc = ReadSource("docs/architecture.md");
  EXPECT_EQ(doc.find("| Exit | Meaning |"), std::string::npos);
  EXPECT_NE(doc.find("checker/campaign/exit_code.h"), std::string::npos);
}

TEST(ExitCodeTest, DocsListTheEnumsCodesInOrderAndTheSummaryNamesThem) {
  const std::vector<ExitCodeDoc>& docs = ExitCodeDocs();
  std::vector<std::string> codes;
  for (const ExitCodeDoc& d : docs) codes.push_back(d.codes);
  EXPECT_EQ(codes,
            (std::vector<std::string>{"0", "1", "2", "3", "4", "64", "70", "73", "130, 143"}));
  EXPECT_EQ(ExitCodeSummary(),
            "Exit codes: 0 pass, 1 safety violation or rejected rule, 2 liveness violation,\n"
            "3 nondeterminism, 4 capped, 64 bad usage or input, 70 internal error,\n"
            "73 report not written, 130, 143 sweep interrupted (SIGINT, SIGTERM).");
}

}  // namespace exit_code_test
}  // namespace
}  // namespace repartsim::campaign
