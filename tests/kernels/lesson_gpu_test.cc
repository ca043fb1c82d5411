// GPU (label `gpu`): the properties a family's lesson depends on, checked on the real device, and
// impossible points that only the device can reveal.
#include <gtest/gtest.h>

#include <string>

#include "kernels/core/family.h"
#include "kernels/occupancy/registers/registers_kernels.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::MakePoint;

cudaFuncAttributes Attributes(RegisterBound bound) {
  StatusOr<cudaFuncAttributes> attr = PolynomialAttributes(bound);
  EXPECT_TRUE(attr.ok()) << attr.status().ToString();
  return attr.ok() ? *attr : cudaFuncAttributes{};
}

// The guide's cliff: above 64 registers a 512-thread block no longer fits twice on an SM with
// 64 K registers. If a new compiler changes the register counts, this says the lesson is gone.
TEST(RegistersLesson, UnboundedKernelWantsMoreThan64RegistersAndFitsOneBlockOf512) {
  WW_REQUIRE_CUDA_DEVICE();
  const cudaFuncAttributes attr = Attributes(RegisterBound::kUnbounded);
  EXPECT_GT(attr.numRegs, 64) << "unbounded polynomial kernel";
  StatusOr<int> per_sm = PolynomialBlocksPerSm(RegisterBound::kUnbounded, 512);
  ASSERT_TRUE(per_sm.ok()) << per_sm.status().ToString();
  EXPECT_EQ(*per_sm, 1) << "registers per thread: " << attr.numRegs;
}

TEST(RegistersLesson, Bounds512x2FitTwoBlocksOf512In64Registers) {
  WW_REQUIRE_CUDA_DEVICE();
  const cudaFuncAttributes attr = Attributes(RegisterBound::kBounds512x2);
  EXPECT_LE(attr.numRegs, 64);
  StatusOr<int> per_sm = PolynomialBlocksPerSm(RegisterBound::kBounds512x2, 512);
  ASSERT_TRUE(per_sm.ok()) << per_sm.status().ToString();
  EXPECT_EQ(*per_sm, 2) << "registers per thread: " << attr.numRegs;
}

TEST(RegistersLesson, Bounds1024x2SpillToLocalMemory) {
  WW_REQUIRE_CUDA_DEVICE();
  const cudaFuncAttributes attr = Attributes(RegisterBound::kBounds1024x2);
  EXPECT_LE(attr.numRegs, 32);
  EXPECT_GT(attr.localSizeBytes, 0u) << "registers per thread: " << attr.numRegs;
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
