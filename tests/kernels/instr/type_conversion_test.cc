// CPU: the double-constant loop equals the float one bit for bit, and the narrow integer loops
// wrap like their types.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/core/seeded_values.h"
#include "kernels/instr/type_conversion/type_conversion_recurrence.h"
#include "kernels/instr/type_conversion/type_conversion_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(TypeConversion, DoubleExpressionRoundsLikeTheSinglePrecisionFma) {
  for (uint64_t t = 0; t < 2000; ++t) {
    const float c = ConversionStart(SeededFloat(kSeed, t), static_cast<int>(t % 8));
    float v_double = c;
    float v_float = c;
    for (int i = 0; i < 40; ++i) {
      v_double = static_cast<float>(static_cast<double>(v_double) * 0.5 + c);
      v_float = std::fma(v_float, 0.5f, c);
      ASSERT_EQ(v_double, v_float) << t << " step " << i;
    }
  }
}

TEST(TypeConversion, NarrowStepsWrapToTheirType) {
  const signed char c = ConversionIntStep<signed char>(static_cast<signed char>(-128), 3, 0);
  EXPECT_EQ(c, 64);  // (-128 >> 1) * 3 = -192, whose low byte is 0x40
  EXPECT_EQ(ConversionIntStep<int>(8, 3, 1), 13);
  EXPECT_NE(TypeConversionReference(ConversionKind::kChar, kSeed, 3, 256),
            TypeConversionReference(ConversionKind::kShort, kSeed, 3, 256));
  EXPECT_NE(TypeConversionReference(ConversionKind::kInt, kSeed, 3, 256),
            TypeConversionReference(ConversionKind::kInt, kSeed, 3, 255));
}

}  // namespace
}  // namespace warpwatch::kernels
