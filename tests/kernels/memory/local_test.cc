// CPU-only tests of memory.local: the reference and the array sizes MakeCase accepts.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/local/local_array.h"
#include "kernels/memory/local/local_kernels.h"
#include "kernels/memory/local/local_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(LocalReference, FoldsTheRotatedArrayRoundByRound) {
  const int size = 4;
  const auto out = LocalReference({0, 1, 2}, size, kSeed);
  ASSERT_EQ(out.size(), 3u);
  const float x = SeededFloat(kSeed, 2);
  float acc = 0.0f;
  for (int round = 0; round < kLocalRounds; ++round) {
    for (int j = 0; j < size; ++j) {
      const int k = (j + round + kLocalShift) % size;
      acc = std::fma(acc, 0.5f, std::fma(x, 1.0f + k / 64.0f, static_cast<float>(k)));
    }
  }
  EXPECT_EQ(out[2], acc);
  EXPECT_NE(out[0], out[1]);
}

TEST(LocalVerifiedElements, CoverBothEdgesAndAStrideBetween) {
  const int64_t n = 1 << 20;
  const auto picked = LocalVerifiedElements(n);
  EXPECT_EQ(picked.front(), 0);
  EXPECT_EQ(picked.back(), n - 1);
  EXPECT_EQ(picked[kLocalVerifyEdge] % kLocalVerifyStride, 0);
  EXPECT_EQ(LocalVerifiedElements(5).size(), 5u);
}

TEST(LocalFamily, BuiltSizesAreAcceptedOthersRefused) {
  const Family* family = FindImplementation("memory.local");
  ASSERT_NE(family, nullptr);
  for (int64_t size : {4, 8, 16, 32, 64}) {
    EXPECT_TRUE(LocalArraySizeSupported(size));
    for (const char* variant : {"dynamic_index", "unrolled_registers"}) {
      const auto made = family->MakeCase(MakePoint("memory.local", variant, {{"array_size", size}}),
                                         FakeH100Properties());
      EXPECT_TRUE(made.ok()) << variant << " " << size << ": " << made.status().ToString();
    }
  }
  EXPECT_FALSE(LocalArraySizeSupported(128));
  const auto made = family->MakeCase(
      MakePoint("memory.local", "dynamic_index", {{"array_size", 128}}), FakeH100Properties());
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace warpwatch::kernels
