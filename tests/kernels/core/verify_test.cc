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

}  // namespace
}  // namespace warpwatch::kernels
