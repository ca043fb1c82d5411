// CPU: dynamic_parallelism's reference sum.
#include <gtest/gtest.h>

#include "kernels/core/seeded_values.h"
#include "kernels/dynamic_parallelism/dynamic_parallelism_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(NestedReductionReference, SumsTheSeededInts) {
  EXPECT_EQ(NestedReductionReference(0, kSeed), 0);
  EXPECT_EQ(NestedReductionReference(2, kSeed),
            SeededInt(kSeed, 0, kNestedMaxValue) + SeededInt(kSeed, 1, kNestedMaxValue));
}

TEST(NestedReductionReference, TheLargestSumFitsAnInt) {
  EXPECT_LE(int64_t{kNestedMaxValue} << 24, int64_t{2147483647});
}

}  // namespace
}  // namespace warpwatch::kernels
