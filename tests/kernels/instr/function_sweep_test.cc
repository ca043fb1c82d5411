// CPU: the function sweep's reference and accuracy measure (instr.intrinsics, instr.trig_range),
// and the two families' argument ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/core/seeded_values.h"
#include "kernels/instr/detail/function_sweep_reference.h"
#include "kernels/instr/intrinsics/intrinsics_domains.h"
#include "kernels/instr/trig_range/trig_range_domains.h"

namespace warpwatch::kernels::instr_detail {
namespace {

TEST(FunctionSweep, ExactValuesAreTheDoubleFunctions) {
  EXPECT_DOUBLE_EQ(ExactValue(MathFn::kSinfFast, 1.0f, 2.0f), std::sin(1.0));
  EXPECT_DOUBLE_EQ(ExactValue(MathFn::kExpf, 1.0f, 2.0f), std::exp(1.0));
  EXPECT_DOUBLE_EQ(ExactValue(MathFn::kFdividef, 1.0f, 4.0f), 0.25);
  EXPECT_DOUBLE_EQ(ExactValue(MathFn::kRsqrtf, 4.0f, 2.0f), 0.5);
  EXPECT_TRUE(AbsoluteErrorFor(MathFn::kSinf));
  EXPECT_FALSE(AbsoluteErrorFor(MathFn::kExpf));
}

TEST(FunctionSweep, FloatRoundedValuesHaveHalfAnUlpOfError) {
  const SweepDomain d = IntrinsicsDomain(MathFn::kExpf);
  std::vector<float> values;
  for (uint64_t t = 0; t < 1000; ++t) {
    const float in = SeededFloat(kSeed, t);
    values.push_back(static_cast<float>(ExactValue(MathFn::kExpf, SweepStart(in, d), 0)));
  }
  const double err = MaxFunctionError(MathFn::kExpf, d, kSeed, values);
  EXPECT_LE(err, std::ldexp(1.0, -24));
  values[3] *= 1.001f;
  EXPECT_GT(MaxFunctionError(MathFn::kExpf, d, kSeed, values), 9e-4);
}

TEST(FunctionSweep, ReferenceSumsEveryCall) {
  SweepDomain d;
  d.scale = 0;  // x0 = offset for every thread
  d.offset = 2;
  d.step = 0;
  EXPECT_NEAR(SweepReference(MathFn::kRsqrtf, d, kSeed, 0), kSweepCalls / std::sqrt(2.0), 1e-9);
}

// The inputs lie in [0.5, 1.5): the first and last arguments of a sweep bound its range.
float FirstArgument(const SweepDomain& d) { return SweepStart(0.5f, d); }
float LastArgument(const SweepDomain& d) {
  return SweepStart(1.5f - 1.0f / 16777216, d) + kSweepCalls * d.step;
}

TEST(TrigRangeDomains, SmallArgumentsStayBelowTheFastPathLimitAndLargeOnesAbove) {
  const SweepDomain small = TrigRangeDomain(false);
  EXPECT_LT(std::fabs(FirstArgument(small)), kTrigFastPathLimit);
  EXPECT_LT(std::fabs(LastArgument(small)), kTrigFastPathLimit);
  const SweepDomain large = TrigRangeDomain(true);
  EXPECT_GE(FirstArgument(large), kTrigFastPathLimit);
  // Step 1 is exact at these magnitudes: consecutive calls get distinct arguments.
  const float x = FirstArgument(large);
  EXPECT_NE(x + large.step, x);
}

TEST(IntrinsicsDomains, SineStaysNearTheDocumentedRange) {
  const SweepDomain d = IntrinsicsDomain(MathFn::kSinfFast);
  EXPECT_GE(FirstArgument(d), -3.1416f);
  EXPECT_LE(LastArgument(d), 3.1416f + 0.26f);
}

}  // namespace
}  // namespace warpwatch::kernels::instr_detail
