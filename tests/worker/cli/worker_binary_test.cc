// Tests of the warpwatch-worker binary itself on a machine without a GPU: `list` prints the
// catalog (implemented families plain, the others "(not built)"), `run` exits 2 with a clear
// message. WARPWATCH_WORKER_PATH is the binary under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "tests/worker/support/shell_command.h"
#include "worker/device/device_info.h"
#include "worker/executor/process_executor.h"

namespace warpwatch::worker {
namespace {

using Output = CommandOutput;  // stdout and stderr

Output RunBinary(const std::string& args) {
  return RunShellCommand(std::string(WARPWATCH_WORKER_PATH) + " " + args + " 2>&1");
}

// The line that heads `family` in the listing: its name at the start of a line, then a space
// or the end of the line. Empty when absent.
std::string HeaderLine(const std::string& text, const std::string& family) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (line == family || line.rfind(family + " ", 0) == 0) return line;
    start = end + 1;
  }
  return "";
}

TEST(WorkerBinary, ListPrintsEveryCatalogFamily) {
  Output out = RunBinary("list");
  ASSERT_EQ(out.exit_code, 0) << out.text;
  for (const catalog::FamilyInfo& f : catalog::Families()) {
    EXPECT_FALSE(HeaderLine(out.text, f.name).empty()) << f.name << " missing from:\n" << out.text;
    EXPECT_NE(out.text.find("guide: " + f.guide_section), std::string::npos) << f.name;
  }
}

TEST(WorkerBinary, EveryFamilyIsImplementedOrMarkedNotBuilt) {
  Output out = RunBinary("list");
  ASSERT_EQ(out.exit_code, 0) << out.text;
  const std::vector<std::string> built = kernels::ImplementedFamilies();
  for (const catalog::FamilyInfo& f : catalog::Families()) {
    std::string header = HeaderLine(out.text, f.name);
    ASSERT_FALSE(header.empty()) << f.name;
    const bool implemented = std::find(built.begin(), built.end(), f.name) != built.end();
    const bool marked = header.find("(not built)") != std::string::npos;
    EXPECT_NE(implemented, marked) << "family " << f.name << ": header \"" << header
                                   << "\" but implemented=" << implemented;
  }
  // Every implementation answers to a catalog family (the registry aborts otherwise).
  for (const std::string& name : built) EXPECT_NE(catalog::FindFamily(name), nullptr) << name;
}

TEST(WorkerBinary, TheExampleFamilyIsListedBuiltAndOptIn) {
  Output out = RunBinary("list");
  ASSERT_EQ(out.exit_code, 0) << out.text;
  EXPECT_EQ(HeaderLine(out.text, "example.grid_stride"),
            "example.grid_stride (opt-in: runs when a job names it)")
      << out.text;
  EXPECT_NE(out.text.find("    grid_stride [recommended]  the same, each thread striding"),
            std::string::npos)
      << out.text;
}

TEST(WorkerBinary, RunWithoutAGpuExitsTwoWithAClearMessage) {
  if (CudaDeviceCount().ok()) {
    GTEST_SKIP() << "a CUDA device is present: this test is for machines without one";
  }
  Output out = RunBinary("run --family testing.fault --variant ok");
  EXPECT_EQ(out.exit_code, 2) << out.text;
  EXPECT_NE(out.text.find("no CUDA device"), std::string::npos) << out.text;
}

TEST(WorkerBinary, ExecChildWithoutAGpuReportsFatalThroughTheExecutor) {
  if (CudaDeviceCount().ok()) {
    GTEST_SKIP() << "a CUDA device is present: this test is for machines without one";
  }
  ProcessExecutorOptions options;
  options.child_argv = {WARPWATCH_WORKER_PATH, "exec"};
  ProcessExecutor executor(options);
  ExecutionRequest request;
  catalog::Point p;
  p.family = "testing.fault";
  p.variant = "ok";
  p.params["n"] = 1024;
  request.points = {p};
  auto result = executor.Execute(request, {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable) << result.status().ToString();
  EXPECT_NE(result.status().message().find("no CUDA device"), std::string::npos)
      << result.status().ToString();
}

// Refused before any GPU is looked for: the same answer on a machine with or without one.
TEST(WorkerBinary, RunRefusesBadTestContentionValuesWithExitOne) {
  Output out = RunBinary("run --family testing.fault --variant ok --test-contention-gib=0");
  EXPECT_EQ(out.exit_code, 1) << out.text;
  EXPECT_NE(out.text.find("--test-contention-gib=0: each buffer must be"), std::string::npos)
      << out.text;
  out = RunBinary("run --family testing.fault --test-contention-gib=1 --test-contention-duty=2");
  EXPECT_EQ(out.exit_code, 1) << out.text;
  EXPECT_NE(out.text.find("--test-contention-duty=2"), std::string::npos) << out.text;
  out = RunBinary("run --family testing.fault --test-contention-gib=much");
  EXPECT_NE(out.exit_code, 0) << out.text;
  EXPECT_NE(out.text.find("--test-contention-gib"), std::string::npos) << out.text;
}

TEST(WorkerBinary, RunRefusesAnUnknownContentionEngineNamingTheFlag) {
  Output out =
      RunBinary("run --family testing.fault --test-contention-gib=1 --test-contention-engine=dma");
  EXPECT_NE(out.exit_code, 0) << out.text;
  EXPECT_NE(out.text.find("--test-contention-engine=dma: must be kernel or copy"),
            std::string::npos)
      << out.text;
  out = RunBinary("run --family testing.fault --test-contention-engine=copy");
  EXPECT_EQ(out.exit_code, 1) << out.text;
  EXPECT_NE(out.text.find("--test-contention-engine needs --test-contention-gib"),
            std::string::npos)
      << out.text;
}

TEST(WorkerBinary, ServeRefusesBadTestContentionValues) {
  Output out = RunBinary("serve --server 127.0.0.1:1 --test-contention-duty=0.5");
  EXPECT_EQ(out.exit_code, 2) << out.text;
  EXPECT_NE(out.text.find("--test-contention-duty needs --test-contention-gib"), std::string::npos)
      << out.text;
}

TEST(WorkerBinary, TestContentionFlagsAreNotInTheHelp) {
  Output out = RunBinary("run --help");
  EXPECT_EQ(out.exit_code, 0) << out.text;
  EXPECT_NE(out.text.find("--out"), std::string::npos) << out.text;
  EXPECT_EQ(out.text.find("contention"), std::string::npos) << out.text;
}

TEST(WorkerBinary, UnknownSubcommandFails) {
  Output out = RunBinary("frobnicate");
  EXPECT_NE(out.exit_code, 0);
}

}  // namespace
}  // namespace warpwatch::worker
