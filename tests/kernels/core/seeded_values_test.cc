// CPU-only tests of kernels/core/seeded_values.h: deterministic, in range, never zero.
#include "kernels/core/seeded_values.h"

#include <gtest/gtest.h>

namespace warpwatch::kernels {
namespace {

TEST(SeededValues, DependOnlyOnSeedAndIndex) {
  EXPECT_EQ(SeededHash(kSeed, 12345), SeededHash(kSeed, 12345));
  EXPECT_NE(SeededHash(kSeed, 12345), SeededHash(kSeed, 12346));
  EXPECT_NE(SeededHash(kSeed, 12345), SeededHash(kSeed + 1, 12345));
}

TEST(SeededValues, FloatsAreInRangeAndNeverZero) {
  for (uint64_t i = 0; i < 100000; ++i) {
    const float v = SeededFloat(kSeed, i);
    ASSERT_GE(v, 0.5f) << i;
    ASSERT_LT(v, 1.5f) << i;
  }
}

TEST(SeededValues, IntsAreInOneToMaxAndUseTheRange) {
  int seen_max = 0;
  for (uint64_t i = 0; i < 100000; ++i) {
    const int v = SeededInt(kSeed, i, 7);
    ASSERT_GE(v, 1) << i;
    ASSERT_LE(v, 7) << i;
    seen_max = v > seen_max ? v : seen_max;
  }
  EXPECT_EQ(seen_max, 7);
  EXPECT_EQ(SeededInt(kSeed, 3, 1), 1);
}

TEST(SeededValues, BytesAreNeverZero) {
  for (uint64_t i = 0; i < 100000; ++i) ASSERT_NE(SeededByte(kSeed, i), 0) << i;
}

}  // namespace
}  // namespace warpwatch::kernels
