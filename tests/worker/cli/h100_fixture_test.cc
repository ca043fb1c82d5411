// The committed H100 runs (tests/fixtures/h100_nightly.json and h100_repeated/) parse as the
// RunResult the worker writes, survive a round trip through its JSON, and hold what the engine
// records since the fidelity work: real kernel names, CUPTI kernel times, stop reasons, clocks.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "worker/cli/result_json.h"

namespace warpwatch::worker {
namespace {

const std::string kFixtures = std::string(WARPWATCH_SOURCE_DIR) + "/tests/fixtures";

// Points whose timed region is copies only: no kernel for CUPTI to time.
const std::set<std::string> kCopiesOnly = {
    "memory.coalescing/memcpy", "transfer.host_device/pageable", "transfer.host_device/pinned",
    "transfer.host_device/write_combining", "transfer.host_device/small_copies"};

v1::RunResult Load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  StatusOr<v1::RunResult> run = RunResultFromJson(text.str());
  EXPECT_TRUE(run.ok()) << path << ": " << run.status().ToString();
  return run.ok() ? *run : v1::RunResult();
}

TEST(H100Fixture, SurvivesARoundTripThroughTheRunFileFormat) {
  const v1::RunResult run = Load(kFixtures + "/h100_nightly.json");
  ASSERT_EQ(run.measurements_size(), 144);  // the whole suite: 29 families at nightly defaults
  StatusOr<std::string> json = RunResultToJson(run);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  StatusOr<v1::RunResult> back = RunResultFromJson(*json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  // Field by field (maps compare as maps: their serialised order is unspecified).
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*back, run));
}

TEST(H100Fixture, EveryMeasuredPointCarriesRealKernelNamesAndItsOwnGpuTime) {
  const v1::RunResult run = Load(kFixtures + "/h100_nightly.json");
  int ok = 0;
  for (const v1::Measurement& m : run.measurements()) {
    if (m.status() != v1::POINT_STATUS_OK) continue;
    ++ok;
    const std::string key = m.case_().canonical();
    EXPECT_TRUE(m.stop_reason() == "noise" || m.stop_reason() == "converged" ||
                m.stop_reason() == "max_samples" || m.stop_reason() == "timeout")
        << key << ": " << m.stop_reason();
    EXPECT_GT(m.median_sm_clock_mhz(), 0) << key;
    EXPECT_EQ(m.sample_sm_clock_mhz_size(), m.samples_seconds_size()) << key;
    if (kCopiesOnly.count(m.case_().family() + "/" + m.case_().variant())) {
      EXPECT_EQ(m.kernels_size(), 0) << key;
      EXPECT_NE(m.duration_note().find("launches no kernel"), std::string::npos) << key;
      continue;
    }
    ASSERT_GE(m.kernels_size(), 1) << key << ": " << m.duration_note();
    EXPECT_EQ(m.kernel_name(), m.kernels(0).name()) << key;
    // A real symbol (an Itanium one, behind nvcc's per-file prefix for -rdc code), demangled: no
    // label like "coalescing_copy<contiguous>" and no raw symbol as the name.
    const std::string& mangled = m.kernels(0).mangled();
    EXPECT_TRUE(mangled.rfind("_Z", 0) == 0 || mangled.rfind("__nv_static_", 0) == 0)
        << key << ": " << mangled;
    EXPECT_EQ(m.kernel_name().find("_Z"), std::string::npos) << key << ": " << m.kernel_name();
    EXPECT_GT(m.kernel_median_seconds(), 0) << key;
    // Flagged only where events and kernels should agree (catalog timed_region empty).
    EXPECT_FALSE(m.times_disagree()) << key;
  }
  EXPECT_EQ(ok, 144);
}

TEST(H100Fixture, TheBookReductionsNameBothTheirKernels) {
  const v1::RunResult run = Load(kFixtures + "/h100_nightly.json");
  for (const v1::Measurement& m : run.measurements()) {
    if (m.case_().family() == "reduce" && m.case_().variant() == "unrolling8") {
      ASSERT_EQ(m.kernels_size(), 2);
      EXPECT_EQ(m.kernels(0).name(), "UnrollingKernel<8>");
      EXPECT_EQ(m.kernels(1).name(), "ShuffleReduceKernel");
      return;
    }
  }
  FAIL() << "reduce/unrolling8 not in the fixture";
}

TEST(H100Fixture, TheRepeatedRunsAreEightRunsOfTheSameSuite) {
  int runs = 0;
  for (const char* name : {"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"}) {
    const v1::RunResult run =
        Load(kFixtures + "/h100_repeated/h100_run_" + std::string(name) + ".json");
    EXPECT_EQ(run.measurements_size(), 172) << name;
    ++runs;
  }
  EXPECT_EQ(runs, 8);
}

}  // namespace
}  // namespace warpwatch::worker
