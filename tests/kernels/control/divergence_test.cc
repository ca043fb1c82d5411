// CPU-only tests of control.divergence: which elements take which path, the paths themselves,
// the reference, and the work each variant counts.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kernels/control/divergence/divergence_kernels.h"
#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/control/divergence/divergence_reference.h"
#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(DivergenceBranches, ThreadBranchSplitsEveryWarpAndWarpBranchNone) {
  for (int warp = 0; warp < 4; ++warp) {
    int thread_a = 0;
    int warp_a = 0;
    for (int lane = 0; lane < 32; ++lane) {
      thread_a += DivergenceTakesPathA(DivergenceBranch::kThread, warp * 32 + lane);
      warp_a += DivergenceTakesPathA(DivergenceBranch::kWarp, warp * 32 + lane);
    }
    EXPECT_EQ(thread_a, 16) << "warp " << warp;
    EXPECT_TRUE(warp_a == 0 || warp_a == 32) << "warp " << warp;
  }
}

TEST(DivergencePaths, ResultsDependOnTheInputAndDifferBetweenPaths) {
  const float x1 = SeededFloat(kSeed, 0);
  const float x2 = SeededFloat(kSeed, 1);
  ASSERT_NE(x1, x2);
  EXPECT_NE(DivergencePathA(x1), DivergencePathA(x2));
  EXPECT_NE(DivergencePathB(x1), DivergencePathB(x2));
  EXPECT_NE(DivergencePathA(x1), DivergencePathB(x1));
  // Each path converges to its fixed point: x + 2^-8, and 2 (sqrt(1 + x) - 1).
  EXPECT_NEAR(DivergencePathA(x1), x1 + 1.0f / 256, 1e-5);
  EXPECT_NEAR(DivergencePathB(x1), 2 * (std::sqrt(1 + x1) - 1), 1e-5);
}

TEST(DivergenceReference, FollowsTheBranchOfEachElement) {
  for (DivergenceBranch branch :
       {DivergenceBranch::kThread, DivergenceBranch::kWarp, DivergenceBranch::kPredicated}) {
    std::vector<int64_t> indices(100);
    for (int i = 0; i < 100; ++i) indices[i] = i;
    const auto out = DivergenceReference(branch, indices, kSeed);
    for (int i = 0; i < 100; ++i) {
      const float x = SeededFloat(kSeed, i);
      EXPECT_EQ(out[i], DivergenceTakesPathA(branch, i) ? DivergencePathA(x) : DivergencePathB(x))
          << i;
    }
  }
}

TEST(DivergenceVerifiedElements, CoverBothEdgesAndAStrideBetweenInOrder) {
  EXPECT_EQ(DivergenceVerifiedElements(10).size(), 10u);
  const int64_t n = 1 << 20;
  const auto picked = DivergenceVerifiedElements(n);
  ASSERT_GT(picked.size(), 2u * kDivergenceVerifyEdge);
  EXPECT_EQ(picked.front(), 0);
  EXPECT_EQ(picked.back(), n - 1);
  EXPECT_EQ(picked[kDivergenceVerifyEdge - 1], kDivergenceVerifyEdge - 1);
  EXPECT_EQ(picked[kDivergenceVerifyEdge] % kDivergenceVerifyStride, 0);
  for (size_t k = 1; k < picked.size(); ++k) ASSERT_LT(picked[k - 1], picked[k]);
  EXPECT_LT(picked.size(), 2u * kDivergenceVerifyEdge + n / kDivergenceVerifyStride + 1);
}

TEST(DivergenceReference, CountsThePathAElements) {
  for (int64_t n : {1, 31, 32, 33, 64, 100, 1000}) {
    for (DivergenceBranch branch : {DivergenceBranch::kThread, DivergenceBranch::kWarp}) {
      int64_t count = 0;
      for (int64_t i = 0; i < n; ++i) count += DivergenceTakesPathA(branch, i);
      EXPECT_EQ(DivergencePathACount(branch, n), count) << "n " << n;
    }
  }
}

TEST(DivergenceFamily, EveryNightlyPointIsAcceptedAndCountsOnePathPerElement) {
  const Family* family = FindImplementation("control.divergence");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"thread_branch", "warp_branch", "predicated"}) {
    auto made = family->MakeCase(MakePoint("control.divergence", variant, {{"n", 64}}),
                                 FakeH100Properties());
    ASSERT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
    EXPECT_DOUBLE_EQ((*made)->work().flops, 32 * kDivergencePathAFlops + 32 * kDivergencePathBFlops)
        << variant;
  }
}

}  // namespace
}  // namespace warpwatch::kernels
