// The warpwatch-worker binary carries native code for every architecture of the CMake list and
// PTX for its virtual ones, in every translation unit (cuobjdump --list-elf --list-ptx). Needs no
// GPU: it reads the binary. Skipped, saying so, where the toolkit has no cuobjdump.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "tests/worker/support/shell_command.h"

namespace {

// CMAKE_CUDA_ARCHITECTURES entries: "90-real" is code, "121-virtual" PTX, "121" both.
void ExpectedArchitectures(std::map<int, bool>* real, std::map<int, bool>* ptx) {
  std::stringstream in(WW_CMAKE_CUDA_ARCHITECTURES);
  std::string entry;
  while (in >> entry) {
    const int arch = std::stoi(entry);
    if (entry.find("-virtual") == std::string::npos) (*real)[arch] = true;
    if (entry.find("-real") == std::string::npos) (*ptx)[arch] = true;
  }
}

TEST(WorkerArchitectures, TheWorkerCarriesCodeForEveryBuiltArchitecture) {
  if (::access(WW_CUOBJDUMP, X_OK) != 0) {
    std::printf("skipped: %s is missing (install the toolkit's cuobjdump to check the "
                "architectures the worker carries)\n", WW_CUOBJDUMP);
    GTEST_SKIP() << "skipped: no cuobjdump at " << WW_CUOBJDUMP;
  }
  std::map<int, bool> want_real, want_ptx;
  ExpectedArchitectures(&want_real, &want_ptx);
  ASSERT_FALSE(want_real.empty()) << "no architecture in '" << WW_CMAKE_CUDA_ARCHITECTURES << "'";

  const warpwatch::worker::CommandOutput out = warpwatch::worker::RunShellCommand(
      std::string(WW_CUOBJDUMP) + " --list-elf --list-ptx '" + WARPWATCH_WORKER_PATH + "' 2>&1");
  const std::string& listing = out.text;
  ASSERT_EQ(out.exit_code, 0) << listing;
  // "ELF file    1: warpwatch-worker.1.sm_90.cubin", "PTX file    1: warpwatch-worker.1.sm_121.ptx"
  const std::regex elf(R"(^ELF file\s+\d+:.*\.sm_(\d+)[a-z]?\.cubin\s*$)");
  const std::regex ptx(R"(^PTX file\s+\d+:.*\.sm_(\d+)[a-z]?\.ptx\s*$)");
  std::map<int, int> elf_count, ptx_count;
  std::stringstream lines(listing);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, m, elf)) ++elf_count[std::stoi(m[1])];
    if (std::regex_match(line, m, ptx)) ++ptx_count[std::stoi(m[1])];
  }
  int per_arch = 0;
  for (const auto& [arch, count] : elf_count) per_arch = std::max(per_arch, count);
  for (const auto& [arch, unused] : want_real) {
    EXPECT_GT(elf_count[arch], 0) << "no sm_" << arch << " code in the worker:\n" << listing;
    EXPECT_EQ(elf_count[arch], per_arch)
        << "some translation units lack sm_" << arch << " code:\n" << listing;
  }
  for (const auto& [arch, unused] : want_ptx) {
    EXPECT_GT(ptx_count[arch], 0) << "no compute_" << arch << " PTX in the worker:\n" << listing;
  }
  for (const auto& [arch, count] : elf_count) {
    EXPECT_TRUE(want_real.count(arch)) << "unexpected sm_" << arch << " code (" << count << ")";
  }
  std::printf("%zu architectures of native code, %d translation units each; PTX for %zu\n",
              elf_count.size(), per_arch, ptx_count.size());
}

}  // namespace
