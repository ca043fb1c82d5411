// CPU-only tests of occupancy.shared_memory: the reference and the points MakeCase refuses.
#include <gtest/gtest.h>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/occupancy/shared_memory/shared_memory_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(SharedReverseReference, ReversesEachSliceAndTheShortLastOne) {
  const auto out = SharedReverseReference(7, 4, kSeed);
  const int expected_index[] = {3, 2, 1, 0, 6, 5, 4};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(out[i], SeededFloat(kSeed, expected_index[i])) << i;
}

TEST(SharedMemoryFamily, NightlyPointsAreAcceptedTooLittleOrTooMuchIsNot) {
  const Family* family = FindImplementation("occupancy.shared_memory");
  ASSERT_NE(family, nullptr);
  const cudaDeviceProp prop = FakeH100Properties();
  EXPECT_TRUE(family->MakeCase(MakePoint("occupancy.shared_memory", "minimal"), prop).ok());
  for (int64_t bytes : {16384, 49152, 102400}) {
    EXPECT_TRUE(
        family
            ->MakeCase(MakePoint("occupancy.shared_memory", "padded", {{"shared_bytes", bytes}}),
                       prop)
            .ok())
        << bytes;
  }
  auto small = family->MakeCase(MakePoint("occupancy.shared_memory", "padded",
                                          {{"block_size", 1024}, {"shared_bytes", 1024}}),
                                prop);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.status().code(), StatusCode::kInvalidArgument);
  auto big = family->MakeCase(
      MakePoint("occupancy.shared_memory", "padded", {{"shared_bytes", 232448 + 1024}}), prop);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace warpwatch::kernels
