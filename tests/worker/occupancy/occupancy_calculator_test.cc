// Tests of the guide's occupancy calculator, with figures worked out by hand from cuda_occupancy.h's
// formulas (CUDA 13.0) for real devices' properties. occupancy_header_test.cc sweeps many more
// cases against the header's own functions.
#include "worker/occupancy/occupancy_calculator.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

// cudaDeviceProp figures of real devices (per SM / per block).
DeviceResources Device(int major, int minor, int threads_per_sm, int64_t shared_per_sm,
                       int64_t optin, int64_t reserved) {
  DeviceResources d;
  d.major = major;
  d.minor = minor;
  d.max_threads_per_sm = threads_per_sm;
  d.registers_per_block = 65536;
  d.registers_per_sm = 65536;
  d.shared_per_block = 48 * 1024;
  d.shared_per_block_optin = optin;
  d.shared_per_sm = shared_per_sm;
  d.reserved_shared_per_block = reserved;
  return d;
}
SmLimits T4() { return SmLimitsFor(Device(7, 5, 1024, 64 * 1024, 64 * 1024, 0)); }
SmLimits A100() { return SmLimitsFor(Device(8, 0, 2048, 164 * 1024, 163 * 1024, 1024)); }
SmLimits A10() { return SmLimitsFor(Device(8, 6, 1536, 100 * 1024, 99 * 1024, 1024)); }
SmLimits L40S() { return SmLimitsFor(Device(8, 9, 1536, 100 * 1024, 99 * 1024, 1024)); }
SmLimits H100() { return SmLimitsFor(Device(9, 0, 2048, 228 * 1024, 227 * 1024, 1024)); }
SmLimits B200() { return SmLimitsFor(Device(10, 0, 2048, 228 * 1024, 227 * 1024, 1024)); }
SmLimits Rtx5090() { return SmLimitsFor(Device(12, 0, 1536, 100 * 1024, 99 * 1024, 1024)); }

KernelResources Kernel(int block, int regs, int64_t dynamic_shared = 0, int64_t static_shared = 0) {
  KernelResources k;
  k.block_threads = block;
  k.registers_per_thread = regs;
  k.static_shared_bytes = static_shared;
  k.dynamic_shared_bytes = dynamic_shared;
  return k;
}

TEST(OccupancyCalculator, ArchitectureTablesFollowTheHeader) {
  EXPECT_EQ(T4().max_blocks_per_sm, 16);
  EXPECT_EQ(T4().shared_allocation_unit, 256);
  EXPECT_EQ(A100().max_blocks_per_sm, 32);
  EXPECT_EQ(A10().max_blocks_per_sm, 16);
  EXPECT_EQ(L40S().max_blocks_per_sm, 24);
  EXPECT_EQ(H100().max_blocks_per_sm, 32);
  EXPECT_EQ(Rtx5090().max_blocks_per_sm, 24);
  EXPECT_EQ(SmLimitsFor(Device(11, 0, 1536, 228 * 1024, 227 * 1024, 1024)).max_blocks_per_sm, 24);
  EXPECT_EQ(SmLimitsFor(Device(10, 3, 2048, 228 * 1024, 227 * 1024, 1024)).max_blocks_per_sm, 32);
  for (const SmLimits& l : {T4(), A100(), A10(), L40S(), H100(), B200(), Rtx5090()}) {
    EXPECT_EQ(l.register_sub_partitions, 4) << l.device.major << "." << l.device.minor;
    EXPECT_EQ(l.register_allocation_unit, 256);
    EXPECT_TRUE(l.known_architecture);
  }
  EXPECT_EQ(A100().shared_allocation_unit, 128);
  EXPECT_FALSE(SmLimitsFor(Device(13, 0, 2048, 228 * 1024, 227 * 1024, 1024)).known_architecture);
}

TEST(OccupancyCalculator, GuideExample64RegistersFitsTwoBlocksOf512) {
  OccupancyEstimate e = EstimateOccupancy(Kernel(512, 64), H100());
  EXPECT_EQ(e.blocks_by_registers, 2);  // 64*32 = 2048 per warp; 16384/2048 = 8 warps/partition
  EXPECT_EQ(e.active_blocks, 2);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.5);
}

TEST(OccupancyCalculator, GuideExample65RegistersFitsOneBlock) {
  // 65*32 = 2080 -> 2304 per warp; 16384/2304 = 7 warps per sub-partition, 28 per SM: one block.
  OccupancyEstimate e = EstimateOccupancy(Kernel(512, 65), H100());
  EXPECT_EQ(e.blocks_by_registers, 1);
  EXPECT_EQ(e.registers_per_block, 16 * 2304);
  EXPECT_EQ(e.active_blocks, 1);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.25);
}

TEST(OccupancyCalculator, RegisterLimitCountsWholeWarpsPerSubPartition) {
  // 168 regs: 5376 per warp (already a multiple of 256); 16384/5376 = 3 warps per sub-partition,
  // 12 per SM. A pooled count (65536/5376 = 12.19) happens to agree; 200 regs does not:
  // 6400 per warp, 2 per sub-partition = 8 warps, where 65536/6400 = 10.
  EXPECT_EQ(EstimateOccupancy(Kernel(128, 168), A100()).blocks_by_registers, 3);
  OccupancyEstimate e = EstimateOccupancy(Kernel(64, 200), A100());
  EXPECT_EQ(e.blocks_by_registers, 4);  // 8 warps / 2 warps per block
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
  EXPECT_DOUBLE_EQ(e.theoretical, 8.0 / 64.0);
}

TEST(OccupancyCalculator, RegisterLimitedOnTuringWithItsSmallerSm) {
  // T4: 32 warps per SM. 96 regs: 3072 per warp, 5 per sub-partition = 20 warps; blocks of 256
  // (8 warps): 2 blocks, 16 of 32 warps.
  OccupancyEstimate e = EstimateOccupancy(Kernel(256, 96), T4());
  EXPECT_EQ(e.blocks_by_warps, 4);
  EXPECT_EQ(e.blocks_by_registers, 2);
  EXPECT_EQ(e.active_blocks, 2);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.5);
}

TEST(OccupancyCalculator, HardwareCheckRoundsABlocksWarpsToTheSubPartitions) {
  // A device with half the SM's registers per block: 5 warps of 6400 registers allocate 32000
  // (under 32768), but the hardware check assumes 8 warps, 51200: no block fits.
  DeviceResources d = Device(8, 6, 1536, 100 * 1024, 99 * 1024, 1024);
  d.registers_per_block = 32768;
  OccupancyEstimate e = EstimateOccupancy(Kernel(160, 200), SmLimitsFor(d));
  EXPECT_EQ(e.blocks_by_registers, 0);
  EXPECT_EQ(e.active_blocks, 0);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
}

TEST(OccupancyCalculator, WarpsPerBlockRoundUp) {
  // 33 threads take 2 warps: 48 warps / 2 = 24 blocks on an L40S, then its block limit of 24.
  OccupancyEstimate e = EstimateOccupancy(Kernel(33, 16), L40S());
  EXPECT_EQ(e.blocks_by_warps, 24);
  EXPECT_EQ(e.active_blocks, 24);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_WARPS);
  EXPECT_DOUBLE_EQ(e.theoretical, 1.0);
}

TEST(OccupancyCalculator, WarpsLimitLargeLightBlocks) {
  OccupancyEstimate e = EstimateOccupancy(Kernel(1024, 16), H100());
  EXPECT_EQ(e.active_blocks, 2);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_WARPS);
  EXPECT_DOUBLE_EQ(e.theoretical, 1.0);
}

TEST(OccupancyCalculator, BlockLimitBindsTinyBlocks) {
  OccupancyEstimate e = EstimateOccupancy(Kernel(32, 16), H100());
  EXPECT_EQ(e.active_blocks, 32);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_BLOCKS);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.5);
  // The A10 holds 16 blocks of one warp: a third of its 48 warps.
  e = EstimateOccupancy(Kernel(32, 16), A10());
  EXPECT_EQ(e.active_blocks, 16);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_BLOCKS);
}

TEST(OccupancyCalculator, SharedMemoryLimitsBigTiles) {
  // 48 KiB + 1 KiB reserved per block: 233472 / 50176 = 4 blocks.
  OccupancyEstimate e = EstimateOccupancy(Kernel(256, 32, 48 * 1024), H100());
  EXPECT_EQ(e.blocks_by_shared, 4);
  EXPECT_EQ(e.active_blocks, 4);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_SHARED_MEMORY);
}

TEST(OccupancyCalculator, SharedMemoryRoundsToTheArchitecturesGranularity) {
  // Turing: 256-byte units and no reserved memory; 20000 -> 20224 bytes; 65536 / 20224 = 3.
  OccupancyEstimate e = EstimateOccupancy(Kernel(128, 32, 20000), T4());
  EXPECT_EQ(e.shared_per_block, 20224);
  EXPECT_EQ(e.blocks_by_shared, 3);
  // Ampere: 128-byte units plus 1 KiB reserved; 20000 + 1024 -> 21120; 167936 / 21120 = 7.
  e = EstimateOccupancy(Kernel(128, 32, 20000), A100());
  EXPECT_EQ(e.shared_per_block, 21120);
  EXPECT_EQ(e.blocks_by_shared, 7);
}

TEST(OccupancyCalculator, SharedMemoryOverThePerBlockLimitFitsNothing) {
  // 100 KiB dynamic on an RTX 5090: over its 99 KiB opt-in limit (+1 KiB reserved).
  OccupancyEstimate e = EstimateOccupancy(Kernel(128, 32, 100 * 1024), Rtx5090());
  EXPECT_EQ(e.blocks_by_shared, 0);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_SHARED_MEMORY);
  // A kernel that did not opt in may not use more than its maxDynamicSharedSizeBytes.
  KernelResources k = Kernel(128, 32, 64 * 1024);
  k.max_dynamic_shared_bytes = 48 * 1024;
  EXPECT_EQ(EstimateOccupancy(k, H100()).active_blocks, 0);
  k.max_dynamic_shared_bytes = 100 * 1024;
  EXPECT_EQ(EstimateOccupancy(k, H100()).active_blocks, 3);  // 233472 / 66560
}

TEST(OccupancyCalculator, TooManyRegistersPerBlockFitsNothing) {
  OccupancyEstimate e = EstimateOccupancy(Kernel(1024, 128), H100());
  EXPECT_EQ(e.active_blocks, 0);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
}

TEST(OccupancyCalculator, BlockOverTheDevicesThreadLimitFitsNothing) {
  OccupancyEstimate e = EstimateOccupancy(Kernel(2048, 16), H100());
  EXPECT_EQ(e.blocks_by_warps, 0);
  EXPECT_EQ(e.active_blocks, 0);
}

}  // namespace
}  // namespace warpwatch::worker
