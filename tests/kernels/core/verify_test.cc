// CPU-only tests of kernels/core/verify.h's comparison messages.
#include "kernels/core/verify.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warpwatch::kernels {
namespace {

TEST(CompareExact, EqualArraysAreOk) {
  const VerifyResult r = CompareExact(std::vector<float>{1, 2, 3}, {1, 2, 3}, "case");
  EXPECT_TRUE(r.status.ok());
  EXPECT_EQ(r.max_error, 0);
}

TEST(CompareExact, NamesTheFirstMismatchAndCountsThemAll) {
  const VerifyResult r = CompareExact(std::vector<float>{1, 2, 3, 4}, {1, 2.5f, 3, 0}, "fam/var");
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(),
            "fam/var: 2 of 4 elements differ; first at index 1: expected 2, got 2.5");
  EXPECT_EQ(r.max_error, 4);
}

// Large outputs are compared on several threads (kernels/core/parallel_for.h): the message still
// names the earliest mismatch and counts every part's.
TEST(CompareExact, LargeArraysNameTheEarliestMismatchOfAllParts) {
  const int64_t n = 3 * kParallelForMinChunk + 7;
  ASSERT_GT(ParallelForParts(n), 0);
  std::vector<float> expected(static_cast<size_t>(n), 1.0f);
  std::vector<float> got = expected;
  got[static_cast<size_t>(2 * kParallelForMinChunk + 5)] = 4.0f;
  got[static_cast<size_t>(kParallelForMinChunk + 3)] = 3.0f;
  const VerifyResult r = CompareExact(expected, got, "big");
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(), "big: 2 of " + std::to_string(n) +
                                    " elements differ; first at index " +
                                    std::to_string(kParallelForMinChunk + 3) +
                                    ": expected 1, got 3");
  EXPECT_EQ(r.max_error, 3);
}

TEST(CompareExact, BytesPrintAsNumbers) {
  const VerifyResult r = CompareExact(std::vector<uint8_t>{65}, {66}, "b");
  EXPECT_EQ(r.status.message(), "b: 1 of 1 elements differ; first at index 0: expected 65, got 66");
}

TEST(CompareExact, ASizeMismatchFails) {
  EXPECT_FALSE(CompareExact(std::vector<int>{1, 2}, {1}, "x").status.ok());
}

TEST(CompareWithin, ToleranceZeroIsTheExactComparison) {
  const VerifyResult r = CompareWithin(std::vector<double>{1, 2}, {1, 2.0000001}, 0, "exact");
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(), CompareExact(std::vector<double>{1, 2}, {1, 2.0000001}, "exact")
                                    .status.message());
}

TEST(CompareWithin, AcceptsRelativeErrorsUpToTheToleranceOfTheLargerOfOneAndExpected) {
  // 1e-6 relative of 100 is 1e-4; below 1 the bound is absolute (1e-6).
  const VerifyResult r =
      CompareWithin(std::vector<double>{100, 0.5}, {100.00009, 0.5000009}, 1e-6, "tol");
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_NEAR(r.max_error, 9e-5, 1e-9);  // the largest difference, though within tolerance
}

TEST(CompareWithin, CountsAndNamesTheFirstElementBeyondTheTolerance) {
  const VerifyResult r =
      CompareWithin(std::vector<double>{1, 2, 3}, {1, 2.1, 3.5}, 1e-3, "fam/var");
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("fam/var: 2 of 3 elements differ by more than 0.001"),
            std::string::npos)
      << r.status.message();
  EXPECT_NE(r.status.message().find("first at index 1: expected 2, got 2.1"), std::string::npos)
      << r.status.message();
  EXPECT_DOUBLE_EQ(r.max_error, 0.5);
}

}  // namespace
}  // namespace warpwatch::kernels
