// The calculator against the toolkit's own cuda_occupancy.h (host-only inline functions, no GPU or
// runtime needed): for every compute capability 7.5..12.x with its real devices' properties, a
// sweep of block sizes, register counts (register-limited ones included) and shared memory must
// give the same active blocks and the same per-resource limits as
// cudaOccMaxActiveBlocksPerMultiprocessor.
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "worker/occupancy/occupancy_calculator.h"

namespace warpwatch::worker {
namespace {

struct OccupancyHeaderGpu {
  const char* name;
  int major, minor, threads_per_sm;
  int64_t shared_per_sm, optin, reserved;
};

// Properties as cudaGetDeviceProperties reports them on these GPUs (per SM and per block).
const std::vector<OccupancyHeaderGpu>& Gpus() {
  static const auto* gpus = new std::vector<OccupancyHeaderGpu>{
      {"T4 (7.5)", 7, 5, 1024, 64 << 10, 64 << 10, 0},
      {"A100 (8.0)", 8, 0, 2048, 164 << 10, 163 << 10, 1024},
      {"A10 (8.6)", 8, 6, 1536, 100 << 10, 99 << 10, 1024},
      {"Orin (8.7)", 8, 7, 2048, 164 << 10, 163 << 10, 1024},
      {"L40S (8.9)", 8, 9, 1536, 100 << 10, 99 << 10, 1024},
      {"H100 (9.0)", 9, 0, 2048, 228 << 10, 227 << 10, 1024},
      {"B200 (10.0)", 10, 0, 2048, 228 << 10, 227 << 10, 1024},
      {"B300 (10.3)", 10, 3, 2048, 228 << 10, 227 << 10, 1024},
      {"Thor (11.0)", 11, 0, 1536, 228 << 10, 227 << 10, 1024},
      {"RTX 5090 (12.0)", 12, 0, 1536, 100 << 10, 99 << 10, 1024},
      {"GB10 (12.1)", 12, 1, 1536, 100 << 10, 99 << 10, 1024},
  };
  return *gpus;
}

TEST(OccupancyHeader, CalculatorAgreesWithCudaOccupancyHForEveryArchitecture) {
  int cases = 0, register_limited = 0, shared_limited = 0;
  for (const OccupancyHeaderGpu& g : Gpus()) {
    cudaOccDeviceProp prop;
    prop.computeMajor = g.major;
    prop.computeMinor = g.minor;
    prop.maxThreadsPerBlock = 1024;
    prop.maxThreadsPerMultiprocessor = g.threads_per_sm;
    prop.regsPerBlock = 65536;
    prop.regsPerMultiprocessor = 65536;
    prop.warpSize = 32;
    prop.sharedMemPerBlock = 48 << 10;
    prop.sharedMemPerMultiprocessor = static_cast<size_t>(g.shared_per_sm);
    prop.numSms = 1;
    prop.sharedMemPerBlockOptin = static_cast<size_t>(g.optin);
    prop.reservedSharedMemPerBlock = static_cast<size_t>(g.reserved);

    DeviceResources d;
    d.major = g.major;
    d.minor = g.minor;
    d.max_threads_per_sm = g.threads_per_sm;
    d.shared_per_block = 48 << 10;
    d.shared_per_block_optin = g.optin;
    d.shared_per_sm = g.shared_per_sm;
    d.reserved_shared_per_block = g.reserved;
    const SmLimits limits = SmLimitsFor(d);
    EXPECT_TRUE(limits.known_architecture) << g.name;

    for (int block : {32, 33, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 1024}) {
      for (int regs : {0, 16, 24, 32, 40, 48, 56, 64, 65, 72, 80, 96, 128, 168, 200, 255}) {
        for (int64_t static_smem : {int64_t{0}, int64_t{1000}})
        for (bool opted_in : {false, true})
          for (int64_t dyn : {0, 4096, 20000, 48 << 10, 100 << 10, 160 << 10}) {
            // As the runtime converts cudaFuncAttributes: maxDynamicSharedSizeBytes is 48 KiB
            // less the static size unless the kernel opted into the device's per-block maximum.
            const int64_t max_dynamic = (opted_in ? g.optin : 48 << 10) - static_smem;
            cudaOccFuncAttributes attr;
            attr.maxThreadsPerBlock = 1024;
            attr.numRegs = regs;
            attr.sharedSizeBytes = static_cast<size_t>(static_smem);
            attr.partitionedGCConfig = PARTITIONED_GC_OFF;
            attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
            attr.maxDynamicSharedSizeBytes = static_cast<size_t>(max_dynamic);
            attr.numBlockBarriers = 1;
            attr.virtualResourceCount = 0;
            cudaOccDeviceState state;
            cudaOccResult want;
            ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&want, &prop, &attr, &state, block,
                                                              static_cast<size_t>(dyn)),
                      CUDA_OCC_SUCCESS)
                << g.name;

            KernelResources k;
            k.block_threads = block;
            k.registers_per_thread = regs;
            k.static_shared_bytes = static_smem;
            k.dynamic_shared_bytes = dyn;
            k.max_dynamic_shared_bytes = max_dynamic;
            OccupancyEstimate got = EstimateOccupancy(k, limits);
            const std::string where = std::string(g.name) + " block " + std::to_string(block) +
                                      " regs " + std::to_string(regs) + " static " +
                                      std::to_string(static_smem) + " dynamic " +
                                      std::to_string(dyn) + (opted_in ? " (opted in)" : "");
            ASSERT_EQ(got.active_blocks, want.activeBlocksPerMultiprocessor) << where;
            EXPECT_EQ(got.blocks_by_warps, want.blockLimitWarps) << where;
            if (want.blockLimitRegs != INT_MAX) {
              EXPECT_EQ(got.blocks_by_registers, want.blockLimitRegs) << where;
              EXPECT_EQ(got.registers_per_block, want.allocatedRegistersPerBlock) << where;
            }
            if (want.blockLimitSharedMem != INT_MAX) {
              EXPECT_EQ(got.blocks_by_shared, want.blockLimitSharedMem) << where;
            }
            EXPECT_EQ(got.shared_per_block, static_cast<int64_t>(want.allocatedSharedMemPerBlock))
                << where;
            const int want_block_limit = std::min(want.blockLimitBlocks, want.blockLimitBarriers);
            EXPECT_EQ(got.blocks_by_block_limit, want_block_limit) << where;
            if (want.activeBlocksPerMultiprocessor > 0) {
              const unsigned bit = got.limiter == v1::OCCUPANCY_LIMITER_WARPS ? OCC_LIMIT_WARPS
                                   : got.limiter == v1::OCCUPANCY_LIMITER_REGISTERS
                                       ? OCC_LIMIT_REGISTERS
                                   : got.limiter == v1::OCCUPANCY_LIMITER_SHARED_MEMORY
                                       ? OCC_LIMIT_SHARED_MEMORY
                                       : OCC_LIMIT_BLOCKS | OCC_LIMIT_BARRIERS;
              EXPECT_NE(want.limitingFactors & bit, 0u)
                  << where << ": the limiter is not one the header names";
            }
            ++cases;
            if (want.activeBlocksPerMultiprocessor == want.blockLimitRegs &&
                want.blockLimitRegs < want.blockLimitWarps) {
              ++register_limited;
            }
            if (want.activeBlocksPerMultiprocessor == want.blockLimitSharedMem &&
                want.blockLimitSharedMem < want.blockLimitWarps) {
              ++shared_limited;
            }
          }
      }
    }
  }
  std::printf("%d cases, %d register-limited, %d shared-memory-limited\n", cases, register_limited,
              shared_limited);
  EXPECT_GT(register_limited, 100);
  EXPECT_GT(shared_limited, 100);
}

}  // namespace
}  // namespace warpwatch::worker
