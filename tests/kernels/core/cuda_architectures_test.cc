// Tests of kernels/core/cuda_architectures: the built list as CMake gave it, the image a device
// runs, and the precondition families use for newer hardware (no GPU).
#include "kernels/core/cuda_architectures.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

// The release list of cmake/WarpwatchCudaArchitectures.cmake.
ArchitectureSet Release() { return {{75, 80, 86, 89, 90, 100, 103, 120, 121}, {121}}; }

TEST(CudaArchitectures, BuiltListIsCMakesList) {
  // CMAKE_CUDA_ARCHITECTURES with spaces, e.g. "75-real 90-real 121-real 121-virtual".
  std::vector<int> real, virt;
  std::stringstream in(WW_TEST_CMAKE_CUDA_ARCHITECTURES);
  std::string entry;
  while (in >> entry) {
    const int arch = std::stoi(entry);
    const bool is_virtual = entry.find("-virtual") != std::string::npos;
    const bool is_real = entry.find("-real") != std::string::npos;
    if (!is_virtual) real.push_back(arch);
    if (!is_real) virt.push_back(arch);
  }
  ASSERT_FALSE(real.empty()) << WW_TEST_CMAKE_CUDA_ARCHITECTURES;
  EXPECT_EQ(BuiltArchitectures().real, real) << WW_TEST_CMAKE_CUDA_ARCHITECTURES;
  EXPECT_EQ(BuiltArchitectures().virtual_, virt) << WW_TEST_CMAKE_CUDA_ARCHITECTURES;
}

TEST(CudaArchitectures, NamesListNativeCodeThenPtx) {
  EXPECT_EQ(ArchitectureNames({{75, 90}, {121}}),
            (std::vector<std::string>{"sm_75", "sm_90", "compute_121"}));
  EXPECT_EQ(DeviceArchitectureName(8, 9), "sm_89");
  EXPECT_EQ(DeviceArchitectureName(12, 1), "sm_121");
}

TEST(CudaArchitectures, ADeviceInTheListRunsItsNativeCode) {
  EXPECT_EQ(CodeArchitectureFor(9, 0, Release()), "sm_90");
  EXPECT_EQ(CodeArchitectureFor(7, 5, Release()), "sm_75");
  EXPECT_EQ(CodeArchitectureFor(12, 1, Release()), "sm_121");
}

TEST(CudaArchitectures, ANewerMinorRunsItsMajorsNativeCode) {
  EXPECT_EQ(CodeArchitectureFor(8, 7, Release()), "sm_86");  // Orin: not in the list
  EXPECT_EQ(CodeArchitectureFor(12, 1, {{75, 90, 120}, {120}}), "sm_120");
}

TEST(CudaArchitectures, ADeviceWithoutNativeCodeJitsThePtx) {
  EXPECT_EQ(CodeArchitectureFor(13, 0, Release()), "compute_121 (PTX, JIT)");
  // CI's list on an A100: no sm_8x code, and PTX of 12.1 cannot run on 8.0.
  EXPECT_EQ(CodeArchitectureFor(8, 0, {{75, 90, 121}, {121}}), "none");
  EXPECT_EQ(CodeArchitectureFor(9, 0, {{}, {75}}), "compute_75 (PTX, JIT)");
}

TEST(CudaArchitectures, OlderGpusAreSkippedWithTheReason) {
  cudaDeviceProp prop = testing::FakeH100Properties();
  EXPECT_TRUE(RequireComputeCapability(prop, 8, 0, "cp.async").ok());
  EXPECT_TRUE(RequireComputeCapability(prop, 9, 0, "clusters").ok());
  Status s = RequireComputeCapability(prop, 10, 0, "tcgen05");
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "needs sm_100+ (tcgen05); this GPU is sm_90");
  prop.major = 7;
  prop.minor = 5;
  EXPECT_EQ(RequireComputeCapability(prop, 8, 0, "cp.async").code(),
            StatusCode::kFailedPrecondition);
  EXPECT_TRUE(RequireComputeCapability(prop, 7, 5, "anything").ok());
}

TEST(CudaArchitectures, TwoBlocksOf1024AreSkippedOnSmsOf1536Threads) {
  // sm_75/86/89/12x code of launch_bounds_1024_2 cannot ask for two 1024-thread blocks.
  const Family* family = FindImplementation("occupancy.registers");
  ASSERT_NE(family, nullptr);
  cudaDeviceProp prop = testing::FakeH100Properties();
  prop.major = 8;
  prop.minor = 9;
  prop.maxThreadsPerMultiProcessor = 1536;
  auto made = family->MakeCase(
      testing::MakePoint("occupancy.registers", "launch_bounds_1024_2", {{"block_size", 1024}}),
      prop);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), StatusCode::kFailedPrecondition) << made.status().ToString();
  EXPECT_NE(made.status().message().find("2048 threads per SM"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::kernels
