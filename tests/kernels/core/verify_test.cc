// CPU-only tests of kernels/core/verify.h's comparison messages.
#include "kernels/core/verify.h"

#include <gtest/gtest.h>

#include <cstdint>
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

TEST(CompareExact, BytesPrintAsNumbers) {
  const VerifyResult r = CompareExact(std::vector<uint8_t>{65}, {66}, "b");
  EXPECT_EQ(r.status.message(), "b: 1 of 1 elements differ; first at index 0: expected 65, got 66");
}

TEST(CompareExact, ASizeMismatchFails) {
  EXPECT_FALSE(CompareExact(std::vector<int>{1, 2}, {1}, "x").status.ok());
}

}  // namespace
}  // namespace warpwatch::kernels
