// CPU-only tests of kernels/core/launch_limits.
#include "kernels/core/launch_limits.h"

#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(LaunchLimits, BlocksWithinTheDeviceLimitsPass) {
  const cudaDeviceProp prop = testing::FakeH100Properties();
  EXPECT_TRUE(CheckBlock(dim3(1024), prop).ok());
  EXPECT_TRUE(CheckBlock(dim3(32, 32), prop).ok());
  EXPECT_EQ(CheckBlock(dim3(1056), prop).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(CheckBlock(dim3(32, 33), prop).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(CheckBlock(dim3(1, 1, 128), prop).code(), StatusCode::kFailedPrecondition);
}

TEST(LaunchLimits, SharedMemoryAboveTheOptInLimitIsAPrecondition) {
  const cudaDeviceProp prop = testing::FakeH100Properties();
  EXPECT_TRUE(CheckSharedBytes(227 * 1024, prop).ok());
  EXPECT_EQ(CheckSharedBytes(227 * 1024 + 1, prop).code(), StatusCode::kFailedPrecondition);
}

TEST(LaunchLimits, GridForRoundsUpAndNeverReturnsZero) {
  const cudaDeviceProp prop = testing::FakeH100Properties();
  EXPECT_EQ(*GridFor(1000, 256, prop), 4u);
  EXPECT_EQ(*GridFor(1024, 256, prop), 4u);
  EXPECT_EQ(*GridFor(0, 256, prop), 1u);
  cudaDeviceProp small = prop;
  small.maxGridSize[0] = 3;
  EXPECT_EQ(GridFor(1000, 256, small).status().code(), StatusCode::kFailedPrecondition);
}

TEST(LaunchLimits, GridStrideBlocksFillsTheSmsButNoMoreThanTheWork) {
  EXPECT_EQ(GridStrideBlocks(int64_t{1} << 28, 2048, 8, 132), 8u * 132u);
  EXPECT_EQ(GridStrideBlocks(5000, 2048, 8, 132), 3u);
  EXPECT_EQ(GridStrideBlocks(1, 2048, 0, 132), 1u);
}

TEST(LaunchLimits, DeviceMemoryCheckLeavesHeadroom) {
  const cudaDeviceProp prop = testing::FakeH100Properties();
  EXPECT_TRUE(CheckDeviceMemory(1e9, prop).ok());
  EXPECT_EQ(CheckDeviceMemory(0.95 * static_cast<double>(prop.totalGlobalMem), prop).code(),
            StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace warpwatch::kernels
