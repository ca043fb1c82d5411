// CPU: matmul's reference entries against a brute-force product, and the sampled entries.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/core/seeded_values.h"
#include "kernels/matmul/matmul_kernels.h"
#include "kernels/matmul/matmul_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(MatmulReference, EntriesEqualTheFullProduct) {
  constexpr int kSide = 32;
  std::vector<float> a(kSide * kSide), b(kSide * kSide);
  for (int i = 0; i < kSide * kSide; ++i) {
    a[i] = static_cast<float>(SeededInt(kMatmulSeedA, i, kMatmulMaxEntry));
    b[i] = static_cast<float>(SeededInt(kMatmulSeedB, i, kMatmulMaxEntry));
  }
  for (int row = 0; row < kSide; row += 5) {
    for (int col = 0; col < kSide; col += 3) {
      float sum = 0;
      for (int k = 0; k < kSide; ++k) sum += a[row * kSide + k] * b[k * kSide + col];
      EXPECT_EQ(MatmulReferenceEntry(kSide, row, col), sum) << row << "," << col;
    }
  }
}

TEST(MatmulReference, SampledEntriesIncludeTheCornersAndStayInside) {
  const auto entries = MatmulSampledEntries(96, 100);
  ASSERT_EQ(entries.size(), 104u);
  EXPECT_EQ(entries[3], std::make_pair(95, 95));
  for (const auto& [row, col] : entries) {
    EXPECT_GE(row, 0);
    EXPECT_LT(row, 96);
    EXPECT_GE(col, 0);
    EXPECT_LT(col, 96);
  }
}

}  // namespace
}  // namespace warpwatch::kernels
