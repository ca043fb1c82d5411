// File: tests/server/incidents/explain/attribute_diff_test.cc
#include "server/incidents/explain/attribute_diff.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

v1::Measurement Kernel(int registers, double theoretical, v1::OccupancyLimiter limiter) {
  v1::Measurement m;
  v1::Occupancy* o = m.mutable_occupancy();
  o->set_block_size(256);
  o->set_grid_size(1024);
  o->set_registers_per_thread(registers);
  o->set_theoretical(theoretical);
  o->set_limiter(limiter);
  return m;
}

TEST(AttributeDiffTest, MoreRegistersNameTheLimiterAndTheOccupancy) {
  const auto diffs = DiffAttributes({Kernel(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)},
                                    Kernel(40, 0.75, v1::OCCUPANCY_LIMITER_REGISTERS));
  ASSERT_EQ(diffs.size(), 3u);
  EXPECT_EQ(AttributeWords(diffs[0]), "registers 30 -> 40 per thread");
  EXPECT_EQ(AttributeWords(diffs[1]), "theoretical occupancy 100 % -> 75 %");
  EXPECT_EQ(AttributeWords(diffs[2]), "occupancy limiter became registers (was warps)");
}

TEST(AttributeDiffTest, SpillsAndSharedMemoryAreNamed) {
  v1::Measurement now = Kernel(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS);
  now.mutable_occupancy()->set_local_bytes_per_thread(64);
  now.mutable_occupancy()->set_static_shared_bytes(4096);
  const auto diffs = DiffAttributes({Kernel(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)}, now);
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].attribute(), "local_bytes_per_thread");
  EXPECT_EQ(diffs[1].attribute(), "static_shared_bytes");
}

TEST(AttributeDiffTest, AchievedOccupancyMovesOnlyBeyondTwoPoints) {
  v1::Measurement base = Kernel(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS);
  base.mutable_occupancy()->set_achieved(0.80);
  v1::Measurement now = base;
  now.mutable_occupancy()->set_achieved(0.79);
  EXPECT_TRUE(DiffAttributes({base}, now).empty());
  now.mutable_occupancy()->set_achieved(0.60);
  const auto diffs = DiffAttributes({base}, now);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(AttributeWords(diffs[0]), "achieved occupancy 80 % -> 60 %");
}

TEST(AttributeDiffTest, EqualKernelsDifferInNothing) {
  EXPECT_TRUE(DiffAttributes({Kernel(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)},
                             Kernel(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS))
                  .empty());
}

TEST(AttributeDiffTest, WithoutOccupancyOnTheBaselineNothingIsCompared) {
  EXPECT_TRUE(DiffAttributes({v1::Measurement()}, Kernel(40, 0.75, v1::OCCUPANCY_LIMITER_REGISTERS))
                  .empty());
}

}  // namespace
}  // namespace warpwatch::server::incidents
