// CPU: instr.arithmetic's 16-bit roundings, the guide's table, the ops/clock/SM formula, and the
// reference's recurrences.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/core/seeded_values.h"
#include "kernels/instr/arithmetic/arithmetic_recurrence.h"
#include "kernels/instr/arithmetic/arithmetic_reference.h"
#include "kernels/instr/arithmetic/arithmetic_throughput.h"

namespace warpwatch::kernels {
namespace {

TEST(ArithmeticReference, RoundToHalfRoundsTiesToEven) {
  EXPECT_EQ(RoundToHalf(1.0 + 1.0 / 2048), 1.0);               // tie, even is 1
  EXPECT_EQ(RoundToHalf(1.0 + 3.0 / 2048), 1.0 + 4.0 / 2048);  // tie, even is up
  EXPECT_EQ(RoundToHalf(1.0 + 1.1 / 2048), 1.0 + 2.0 / 2048);  // above the tie
  EXPECT_EQ(RoundToHalf(-300.3), -300.25);
}

TEST(ArithmeticReference, RoundToBfloat16KeepsEightSignificantBits) {
  EXPECT_EQ(RoundToBfloat16(1.0 + 1.0 / 256), 1.0);
  EXPECT_EQ(RoundToBfloat16(1.0 + 3.0 / 256), 1.0 + 4.0 / 256);
  EXPECT_EQ(RoundToBfloat16(384.0 + 1.0), 384.0);  // ulp 2 at 384: 385 is a tie, even is 384
}

TEST(ArithmeticReference, MultipliersAreExactIn16BitFormats) {
  for (int j = 0; j < kArithmeticChains; ++j) {
    EXPECT_EQ(RoundToBfloat16(ArithmeticMultiplier(j)), ArithmeticMultiplier(j)) << j;
    EXPECT_EQ(RoundToHalf(ArithmeticMultiplier(j)), ArithmeticMultiplier(j)) << j;
  }
}

TEST(ArithmeticReference, ZeroIterationsIsTheSumOfTheStartingValues) {
  const float x = SeededFloat(kSeed, 5);
  double expected = 0;
  for (int j = 0; j < kArithmeticChains; ++j) expected += ArithmeticStart(x, j);
  EXPECT_EQ(ArithmeticReference(ArithmeticOp::kFp32Fma, kSeed, 5, 0), expected);
}

TEST(ArithmeticReference, EveryIterationChangesTheResult) {
  for (ArithmeticOp op : {ArithmeticOp::kFp32Fma, ArithmeticOp::kFp64Fma, ArithmeticOp::kInt32Add,
                          ArithmeticOp::kInt32Mul, ArithmeticOp::kInt32Shift}) {
    const double full = ArithmeticReference(op, kSeed, 7, kArithmeticIterations);
    EXPECT_NE(full, ArithmeticReference(op, kSeed, 7, kArithmeticIterations - 1))
        << static_cast<int>(op);
    EXPECT_TRUE(std::isfinite(full));
  }
}

// In 16-bit formats a chain stops moving once acc * (1 - m) falls below half an ulp of acc, so
// the last iterations may leave it unchanged; the first half of the loop still moves it.
TEST(ArithmeticReference, SixteenBitChainsMoveThroughTheFirstHalfOfTheLoop) {
  for (ArithmeticOp op : {ArithmeticOp::kHalf2Fma, ArithmeticOp::kBf16x2Fma}) {
    const int half = kArithmeticIterations / 2;
    EXPECT_NE(ArithmeticReference(op, kSeed, 7, half), ArithmeticReference(op, kSeed, 7, half - 1))
        << static_cast<int>(op);
  }
}

TEST(ArithmeticReference, FunnelShiftTakesTheHighWord) {
  EXPECT_EQ(HostFunnelShiftLeft(0x80000000u, 0x1u, 1), 0x3u);
  EXPECT_EQ(HostFunnelShiftLeft(0xf0000000u, 0x0u, 4), 0xfu);
  EXPECT_EQ(HostFunnelShiftLeft(0x1u, 0x2u, 0), 0x2u);
}

TEST(ArithmeticThroughput, TheGuideTableForHopper) {
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kFp32Fma, 9, 0), 128);
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kFp64Fma, 9, 0), 64);
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kHalf2Fma, 9, 0), 256);
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kInt32Add, 9, 0), 64);
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kFp64Fma, 8, 6), 2);
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kBf16x2Fma, 7, 0), 0);
  EXPECT_EQ(GuideResultsPerClockPerSm(ArithmeticOp::kFp32Fma, 5, 2), 0);  // not tabulated here
}

TEST(ArithmeticThroughput, ResultsPerClockPerSmDividesByTimeClockAndSms) {
  // 128 results per clock on 132 SMs at 1980 MHz for 1 ms.
  const double results = 128.0 * 132 * 1980e6 * 1e-3;
  EXPECT_NEAR(ResultsPerClockPerSm(results, 1e-3, 1980, 132), 128.0, 1e-9);
  EXPECT_EQ(ResultsPerClockPerSm(results, 1e-3, 0, 132), 0);
  EXPECT_EQ(ArithmeticResults(1), kArithmeticIterations * kArithmeticChains);
}

}  // namespace
}  // namespace warpwatch::kernels
