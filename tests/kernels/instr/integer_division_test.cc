// CPU: shift and mask equal division and remainder for power-of-two divisors.
#include <gtest/gtest.h>

#include "kernels/instr/integer_division/integer_division_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(IntegerDivision, OperandsOfAPowerOfTwo) {
  const DivisionOperands op = MakeDivisionOperands(32);
  EXPECT_EQ(op.divisor, 32u);
  EXPECT_EQ(op.log2_divisor, 5);
  EXPECT_EQ(op.mask, 31u);
  EXPECT_EQ(MakeDivisionOperands(1).log2_divisor, 0);
}

TEST(IntegerDivision, ShiftAndMaskEqualDivisionAndRemainder) {
  for (uint32_t d : {1u, 2u, 32u, 1u << 20, 1u << 31}) {
    const DivisionOperands op = MakeDivisionOperands(d);
    for (uint32_t bits : {0x3f000000u, 0x3fc00001u, 0xdeadbeefu}) {
      EXPECT_EQ(DivisionLoop<true>(bits, op, 100), DivisionLoop<false>(bits, op, 100)) << d;
    }
  }
}

TEST(IntegerDivision, TheResultDependsOnTheDivisorAndTheIterations) {
  EXPECT_NE(IntegerDivisionReference(1, 0, 32, 256), IntegerDivisionReference(1, 0, 64, 256));
  EXPECT_NE(IntegerDivisionReference(1, 0, 32, 256), IntegerDivisionReference(1, 0, 32, 255));
}

}  // namespace
}  // namespace warpwatch::kernels
