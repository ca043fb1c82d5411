// CPU-only tests of control.unroll: the reference and the nightly points.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/control/unroll/unroll_reference.h"
#include "kernels/control/unroll/unroll_step.h"
#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(UnrollReference, RunsEveryStepOfEveryRepetition) {
  const auto out = UnrollReference({0, 1}, kSeed);
  const float x = SeededFloat(kSeed, 1);
  float y = x;
  for (int step = 0; step < kUnrollOuterReps * kUnrollInnerSteps; ++step) {
    y = std::fma(y, 0.75f, x + static_cast<float>(step % kUnrollInnerSteps) / 16);
  }
  EXPECT_EQ(out[1], y);
  EXPECT_NE(out[0], out[1]);
}

TEST(UnrollVerifiedElements, CoverBothEdgesAndAStrideBetween) {
  const int64_t n = 1 << 24;
  const auto picked = UnrollVerifiedElements(n);
  EXPECT_EQ(picked.front(), 0);
  EXPECT_EQ(picked.back(), n - 1);
  EXPECT_EQ(picked[kUnrollVerifyEdge] % kUnrollVerifyStride, 0);
  EXPECT_EQ(UnrollVerifiedElements(7).size(), 7u);
}

TEST(UnrollFamily, EveryNightlyPointIsAccepted) {
  const Family* family = FindImplementation("control.unroll");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"unroll_1", "unroll_4", "unroll_full"}) {
    const auto made = family->MakeCase(MakePoint("control.unroll", variant), FakeH100Properties());
    EXPECT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
  }
}

}  // namespace
}  // namespace warpwatch::kernels
