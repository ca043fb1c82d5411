// CPU-only tests of the families' CPU references (what Verify compares the GPU against).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/core/seeded_values.h"
#include "kernels/memory/aos_soa/aos_soa_reference.h"
#include "kernels/memory/coalescing/coalescing_reference.h"
#include "kernels/occupancy/registers/registers_recurrence.h"
#include "kernels/occupancy/registers/registers_reference.h"
#include "kernels/reduce/reduce_reference.h"
#include "kernels/shared/transpose/transpose_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(References, TransposeSwapsRowsAndColumnsAndCopyDoesNot) {
  const auto t = TransposeReference(3, true, kSeed);
  const auto c = TransposeReference(3, false, kSeed);
  for (int r = 0; r < 3; ++r) {
    for (int col = 0; col < 3; ++col) {
      EXPECT_EQ(t[col * 3 + r], SeededFloat(kSeed, r * 3 + col));
      EXPECT_EQ(c[r * 3 + col], SeededFloat(kSeed, r * 3 + col));
    }
  }
}

TEST(References, StridedCopyReadsEveryStrideElement) {
  const auto out = CoalescingReference(4, 3, kSeed);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], SeededFloat(kSeed, i * 3));
}

TEST(References, ReduceInputsKeepTheSumInAnInt) {
  EXPECT_EQ(ReduceMaxValue(1), 255);
  EXPECT_EQ(ReduceMaxValue(int64_t{1} << 28), 7);
  EXPECT_EQ(ReduceMaxValue(int64_t{1} << 32), 0);
  const int max_value = ReduceMaxValue(int64_t{1} << 28);
  EXPECT_LE(static_cast<int64_t>(max_value) << 28, int64_t{2147483647});
  int64_t sum = 0;
  for (int i = 0; i < 10; ++i) sum += SeededInt(kSeed, i, 255);
  EXPECT_EQ(ReduceReference(10, kSeed, 255), sum);
}

TEST(References, ParticlesOnlyChangeX) {
  const int64_t n = 5;
  for (ParticleLayout layout : {ParticleLayout::kAos, ParticleLayout::kSoa}) {
    const auto out = AosSoaReference(layout, n, kSeed);
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(out[ParticleFloatIndex(layout, n, i, 0)], SeededFloat(kSeed, i) + 1.0f);
      EXPECT_EQ(out[ParticleFloatIndex(layout, n, i, 3)], SeededFloat(kSeed + 3, i));
    }
  }
  EXPECT_EQ(ParticleFloatIndex(ParticleLayout::kAos, n, 2, 1), 9);
  EXPECT_EQ(ParticleFloatIndex(ParticleLayout::kSoa, n, 2, 1), 7);
}

// The reference's per-byte recurrence against a double-precision evaluation of the same steps:
// the state stays bounded (|s| < 1/2) and single rounding per fma keeps float close to double.
TEST(References, RecurrenceMatchesADoubleEvaluationAndStaysBounded) {
  for (int b : {1, 77, 128, 200, 255}) {
    const double x = (b - 128) / 512.0;
    std::vector<double> s(kStateWords);
    for (int k = 0; k < kStateWords; ++k) s[k] = x * InitScale(k) + InitOffset(k);
    double p = x;
    for (int r = 0; r < kRounds; ++r) {
      for (int k = 0; k < kStateWords; ++k) {
        p = (FlipCarry(k) ? -p : p) * s[k] + (FlipInput(k) ? -x : x);
        s[k] = p;
        ASSERT_LT(std::fabs(p), 0.5) << "byte " << b << " round " << r << " step " << k;
      }
    }
    EXPECT_NEAR(RecurrenceOfByte(static_cast<uint8_t>(b)), p, 1e-5) << "byte " << b;
  }
}

TEST(References, RecurrenceReferenceLooksUpTheSeededBytes) {
  const auto out = RecurrenceReference(1000, kSeed);
  for (int i = 0; i < 1000; i += 97) {
    EXPECT_EQ(out[i], RecurrenceOfByte(SeededByte(kSeed, i))) << i;
  }
  EXPECT_NE(RecurrenceOfByte(1), RecurrenceOfByte(255)) << "the output must depend on the input";
}

}  // namespace
}  // namespace warpwatch::kernels
