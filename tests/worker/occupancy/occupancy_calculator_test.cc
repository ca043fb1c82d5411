// Tests of the guide's occupancy calculator.
#include "worker/occupancy/occupancy_calculator.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

// An SM with 64 K registers, 2048 threads, 32 blocks, 228 KiB shared, 1 KiB reserved per block.
SmLimits Hopper() { return SmLimitsFor(9, 0, 2048, 32, 65536, 65536, 233472, 1024); }

TEST(OccupancyCalculator, GuideExample64RegistersFitsTwoBlocksOf512) {
  OccupancyEstimate e = EstimateOccupancy({512, 64, 0}, Hopper());
  EXPECT_EQ(e.blocks_by_registers, 2);
  EXPECT_EQ(e.active_blocks, 2);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.5);
}

TEST(OccupancyCalculator, GuideExample65RegistersFitsOneBlock) {
  OccupancyEstimate e = EstimateOccupancy({512, 65, 0}, Hopper());
  EXPECT_EQ(e.blocks_by_registers, 1);
  EXPECT_EQ(e.active_blocks, 1);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.25);
}

TEST(OccupancyCalculator, WarpsLimitLargeLightBlocks) {
  OccupancyEstimate e = EstimateOccupancy({1024, 16, 0}, Hopper());
  EXPECT_EQ(e.active_blocks, 2);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_WARPS);
  EXPECT_DOUBLE_EQ(e.theoretical, 1.0);
}

TEST(OccupancyCalculator, BlockLimitBindsTinyBlocks) {
  OccupancyEstimate e = EstimateOccupancy({32, 16, 0}, Hopper());
  EXPECT_EQ(e.active_blocks, 32);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_BLOCKS);
  EXPECT_DOUBLE_EQ(e.theoretical, 0.5);
}

TEST(OccupancyCalculator, SharedMemoryLimitsBigTiles) {
  // 48 KiB + 1 KiB reserved per block: 233472 / 50176 = 4 blocks.
  OccupancyEstimate e = EstimateOccupancy({256, 32, 48 * 1024}, Hopper());
  EXPECT_EQ(e.blocks_by_shared, 4);
  EXPECT_EQ(e.active_blocks, 4);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_SHARED_MEMORY);
}

TEST(OccupancyCalculator, TooManyRegistersPerBlockFitsNothing) {
  OccupancyEstimate e = EstimateOccupancy({1024, 128, 0}, Hopper());
  EXPECT_EQ(e.active_blocks, 0);
  EXPECT_EQ(e.limiter, v1::OCCUPANCY_LIMITER_REGISTERS);
}

}  // namespace
}  // namespace warpwatch::worker
