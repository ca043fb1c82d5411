// CPU-only tests of latency.ilp: the reference, the verified sample and the points refused.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/core/family.h"
#include "kernels/latency/ilp/ilp_chains.h"
#include "kernels/latency/ilp/ilp_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(IlpReference, OneChainIsTheWholeRecurrence) {
  float c = 0.75f;
  for (int k = 0; k < kIlpTotalFmas; ++k) c = std::fma(c, 0.999f, 0.001f);
  EXPECT_EQ(IlpReferenceValue(1, 0.75f), c);
}

TEST(IlpReference, ChainsSplitTheStepsAndAddInOrder) {
  float c0 = 0.75f;
  float c1 = 0.875f;
  for (int k = 0; k < kIlpTotalFmas / 2; ++k) {
    c0 = std::fma(c0, 0.999f, 0.001f);
    c1 = std::fma(c1, 0.999f, 0.001f);
  }
  EXPECT_EQ(IlpReferenceValue(2, 0.75f), c0 + c1);
}

TEST(IlpVerifiedThreads, SpreadOverTheGridAndIncludeTheLast) {
  const auto picked = IlpVerifiedThreads(1000);
  ASSERT_FALSE(picked.empty());
  EXPECT_EQ(picked.front(), 0);
  EXPECT_EQ(picked.back(), 999);
  EXPECT_EQ(picked[1], kIlpVerifyStride);
}

TEST(IlpFamily, BlocksThatCannotAllBeResidentAreSkipped) {
  const Family* family = FindImplementation("latency.ilp");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"ilp1", "ilp2", "ilp4", "ilp8"}) {
    EXPECT_TRUE(family->MakeCase(MakePoint("latency.ilp", variant), FakeH100Properties()).ok());
  }
  const auto made = family->MakeCase(
      MakePoint("latency.ilp", "ilp1", {{"block_size", 256}, {"blocks_per_sm", 9}}),
      FakeH100Properties());
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace warpwatch::kernels
