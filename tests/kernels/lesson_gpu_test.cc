// GPU (label `gpu`): the properties a family's lesson depends on, checked on the real device, and
// impossible points that only the device can reveal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/occupancy/registers/registers_kernels.h"
#include "kernels/occupancy/registers/registers_recurrence.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::MakePoint;

cudaFuncAttributes Attributes(RegisterBound bound) {
  StatusOr<cudaFuncAttributes> attr = RecurrenceAttributes(bound);
  EXPECT_TRUE(attr.ok()) << attr.status().ToString();
  return attr.ok() ? *attr : cudaFuncAttributes{};
}

// The guide's cliff: above 64 registers a 512-thread block no longer fits twice on an SM with
// 64 K registers. If a new compiler changes the register counts, this says the lesson is gone.
TEST(RegistersLesson, UnboundedKernelWantsMoreThan64RegistersAndFitsOneBlockOf512) {
  WW_REQUIRE_CUDA_DEVICE();
  const cudaFuncAttributes attr = Attributes(RegisterBound::kUnbounded);
  EXPECT_GT(attr.numRegs, 64) << "unbounded recurrence kernel";
  StatusOr<int> per_sm = RecurrenceBlocksPerSm(RegisterBound::kUnbounded, 512);
  ASSERT_TRUE(per_sm.ok()) << per_sm.status().ToString();
  EXPECT_EQ(*per_sm, 1) << "registers per thread: " << attr.numRegs;
}

TEST(RegistersLesson, Bounds512x2FitTwoBlocksOf512In64Registers) {
  WW_REQUIRE_CUDA_DEVICE();
  const cudaFuncAttributes attr = Attributes(RegisterBound::kBounds512x2);
  EXPECT_LE(attr.numRegs, 64);
  // A few bytes of spilled loop bookkeeping are fine; the live state must stay in registers.
  EXPECT_LE(attr.localSizeBytes, 32u) << "registers per thread: " << attr.numRegs;
  StatusOr<int> per_sm = RecurrenceBlocksPerSm(RegisterBound::kBounds512x2, 512);
  ASSERT_TRUE(per_sm.ok()) << per_sm.status().ToString();
  EXPECT_EQ(*per_sm, 2) << "registers per thread: " << attr.numRegs;
}

// Capped at 32 registers, most of the kStateWords live values go to local memory.
TEST(RegistersLesson, Bounds1024x2SpillTheStateToLocalMemory) {
  WW_REQUIRE_CUDA_DEVICE();
  const cudaFuncAttributes attr = Attributes(RegisterBound::kBounds1024x2);
  EXPECT_LE(attr.numRegs, 32);
  EXPECT_GE(attr.localSizeBytes, 4u * (kStateWords - 32))
      << "registers per thread: " << attr.numRegs;
}

// Median time of `variant` at the family's nightly n and block 512, through the family's own
// Case (verified before it is timed), on a cold-ish stream like the engine's.
double MedianMilliseconds(const std::string& variant) {
  cudaDeviceProp prop{};
  EXPECT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const Family* family = FindImplementation("occupancy.registers");
  EXPECT_NE(family, nullptr);
  if (family == nullptr) return 0;
  const catalog::Point point = MakePoint("occupancy.registers", variant, {{"block_size", 512}});
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  EXPECT_TRUE(made.ok()) << point.Canonical() << ": " << made.status().ToString();
  if (!made.ok()) return 0;
  Case& c = **made;
  cudaStream_t stream = nullptr;
  EXPECT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  EXPECT_EQ(cudaEventCreate(&start), cudaSuccess);
  EXPECT_EQ(cudaEventCreate(&stop), cudaSuccess);
  std::vector<double> times;
  Status status = c.Setup(stream);
  EXPECT_TRUE(status.ok()) << status.ToString();
  if (status.ok()) status = c.Run(stream);
  EXPECT_TRUE(status.ok()) << status.ToString();
  if (status.ok()) {
    const VerifyResult verified = c.Verify(stream);
    EXPECT_TRUE(verified.status.ok()) << verified.status.ToString();
  }
  for (int i = 0; i < 21 && status.ok(); ++i) {
    EXPECT_EQ(cudaEventRecord(start, stream), cudaSuccess);
    status = c.Run(stream);
    EXPECT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
    float ms = 0;
    EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  std::printf("occupancy.registers %s: median %.1f us\n", variant.c_str(),
              1000.0 * times[times.size() / 2]);
  return times[times.size() / 2];
}

// The lesson in time: two blocks of 512 (64 registers) beat one (72 registers), and capping at 32
// registers costs more in local-memory traffic than the extra occupancy buys.
TEST(RegistersLesson, RecommendedBoundsBeatBothTheUnboundedAndTheOverCappedKernel) {
  WW_REQUIRE_CUDA_DEVICE();
  const double unbounded = MedianMilliseconds("regs_unbounded");
  const double recommended = MedianMilliseconds("launch_bounds_512_2");
  const double capped = MedianMilliseconds("launch_bounds_1024_2");
  ASSERT_GT(recommended, 0);
  EXPECT_LT(recommended, unbounded) << "launch_bounds_512_2 vs regs_unbounded";
  EXPECT_LT(recommended, capped) << "launch_bounds_512_2 vs launch_bounds_1024_2";
}

TEST(ImpossibleConfigOnDevice, UnboundedKernelAt1024ThreadsIsSkippedWithTheRegisterCount) {
  WW_REQUIRE_CUDA_DEVICE();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const Family* family = FindImplementation("occupancy.registers");
  ASSERT_NE(family, nullptr);
  const catalog::Point point =
      MakePoint("occupancy.registers", "regs_unbounded", {{"block_size", 1024}});
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  ASSERT_FALSE(made.ok()) << point.Canonical() << " was accepted";
  EXPECT_EQ(made.status().code(), StatusCode::kFailedPrecondition) << made.status().ToString();
  EXPECT_NE(made.status().message().find("registers per thread"), std::string::npos)
      << made.status().ToString();
}

TEST(ImpossibleConfigOnDevice, BlocksAboveTheDeviceMaximumAreSkipped) {
  WW_REQUIRE_CUDA_DEVICE();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const int too_big = prop.maxThreadsPerBlock + 32;
  for (const char* family_name : {"memory.coalescing", "reduce", "occupancy.block_size"}) {
    const catalog::FamilyInfo* info = catalog::FindFamily(family_name);
    ASSERT_NE(info, nullptr);
    const std::string variant = info->variants.front().name;
    const catalog::Point point = MakePoint(family_name, variant, {{"block_size", too_big}});
    StatusOr<std::unique_ptr<Case>> made = FindImplementation(family_name)->MakeCase(point, prop);
    ASSERT_FALSE(made.ok()) << point.Canonical();
    EXPECT_EQ(made.status().code(), StatusCode::kFailedPrecondition)
        << point.Canonical() << ": " << made.status().ToString();
  }
}

}  // namespace
}  // namespace warpwatch::kernels
