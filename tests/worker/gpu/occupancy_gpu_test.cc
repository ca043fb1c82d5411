// GPU test: the occupancy calculator and the engine's theoretical occupancy agree with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor on the real device, for a light kernel and for the
// register-hungry occupancy.registers kernels (the calculator's register-limited path).
#include <gtest/gtest.h>

#include <cstdio>

#include "kernels/occupancy/registers/registers_kernels.h"
#include "kernels/testing/fault/fault_kernels.h"
#include "tests/worker/gpu/gpu_test_support.h"
#include "worker/occupancy/occupancy_report.h"

namespace warpwatch::worker {
namespace {

TEST(OccupancyGpu, CalculatorMatchesTheOccupancyApi) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const void* fn = kernels::fault::FaultKernelFunction(kernels::fault::FaultKind::kOk);
  cudaFuncAttributes attr;
  ASSERT_EQ(cudaFuncGetAttributes(&attr, fn), cudaSuccess);
  for (int block : {32, 64, 96, 128, 256, 512, 768, 1024}) {
    for (size_t dyn : {size_t{0}, size_t{4096}, size_t{20000}, size_t{48 * 1024}}) {
      int api_blocks = 0;
      ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api_blocks, fn, block, dyn),
                cudaSuccess);
      OccupancyEstimate e =
          EstimateOccupancy(KernelResourcesOf(attr, block, dyn), SmLimitsOf(prop));
      EXPECT_EQ(e.active_blocks, api_blocks)
          << "block " << block << ", dynamic shared " << dyn << ", registers " << attr.numRegs
          << ": calculator " << e.active_blocks << " (warps " << e.blocks_by_warps << ", regs "
          << e.blocks_by_registers << ", shared " << e.blocks_by_shared << ", blocks "
          << e.blocks_by_block_limit << ") vs cudaOccupancyMaxActiveBlocksPerMultiprocessor "
          << api_blocks;

      kernels::LaunchShape shape;
      shape.function = fn;
      shape.block = dim3(block);
      shape.grid = dim3(1000);
      shape.dynamic_shared_bytes = dyn;
      auto occ = TheoreticalOccupancy(shape, prop);
      ASSERT_TRUE(occ.ok()) << occ.status().ToString();
      EXPECT_EQ(occ->active_blocks_per_sm(), api_blocks);
      EXPECT_DOUBLE_EQ(occ->theoretical(),
                       static_cast<double>(api_blocks * ((block + 31) / 32)) /
                           (prop.maxThreadsPerMultiProcessor / 32));
      EXPECT_NE(occ->limiter(), v1::OCCUPANCY_LIMITER_UNSPECIFIED);
    }
  }
}

TEST(OccupancyGpu, CalculatorMatchesTheOccupancyApiForTheRegisterKernels) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const SmLimits limits = SmLimitsOf(prop);
  int register_limited = 0;
  for (kernels::RegisterBound bound :
       {kernels::RegisterBound::kUnbounded, kernels::RegisterBound::kBounds512x1,
        kernels::RegisterBound::kBounds512x2, kernels::RegisterBound::kBounds1024x2}) {
    const void* fn = kernels::RecurrenceKernel(bound);
    auto attr = kernels::RecurrenceAttributes(bound);
    ASSERT_TRUE(attr.ok()) << attr.status().ToString();
    std::printf("bound %d: %d registers, %zu bytes local, max %d threads\n",
                static_cast<int>(bound), attr->numRegs, attr->localSizeBytes,
                attr->maxThreadsPerBlock);
    for (int block : {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024}) {
      if (block > attr->maxThreadsPerBlock) continue;
      for (size_t dyn : {size_t{0}, size_t{16384}}) {
        int api_blocks = 0;
        ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api_blocks, fn, block, dyn),
                  cudaSuccess);
        OccupancyEstimate e = EstimateOccupancy(KernelResourcesOf(*attr, block, dyn), limits);
        EXPECT_EQ(e.active_blocks, api_blocks)
            << "bound " << static_cast<int>(bound) << ", block " << block << ", dynamic shared "
            << dyn << ", registers " << attr->numRegs << ": calculator " << e.active_blocks
            << " (warps " << e.blocks_by_warps << ", regs " << e.blocks_by_registers
            << ", shared " << e.blocks_by_shared << ", blocks " << e.blocks_by_block_limit
            << ") vs cudaOccupancyMaxActiveBlocksPerMultiprocessor " << api_blocks;
        if (e.limiter == v1::OCCUPANCY_LIMITER_REGISTERS && e.active_blocks == api_blocks) {
          ++register_limited;
        }
      }
    }
  }
  // The unbounded kernel wants more than 64 registers: at 512 threads it is register-limited on
  // every architecture with 64 K registers per SM, so the register path was checked.
  EXPECT_GT(register_limited, 0) << "no register-limited case: the register path went unchecked";
}

}  // namespace
}  // namespace warpwatch::worker
