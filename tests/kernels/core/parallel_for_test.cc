// Tests for kernels/core/parallel_for.cc.
#include "kernels/core/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace warpwatch::kernels {
namespace {

TEST(ParallelForTest, CoversEveryIndexExactlyOnceInPartOrder) {
  const int64_t n = 5 * kParallelForMinChunk + 12345;
  std::vector<unsigned char> hits(static_cast<size_t>(n), 0);
  const int parts = ParallelForParts(n);
  std::vector<int64_t> begins(static_cast<size_t>(parts), -1), ends(static_cast<size_t>(parts), -1);
  ParallelFor(n, [&](int k, int64_t begin, int64_t end) {
    begins[static_cast<size_t>(k)] = begin;
    ends[static_cast<size_t>(k)] = end;
    for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
  });
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<size_t>(i)], 1) << i;
  EXPECT_EQ(begins.front(), 0);
  EXPECT_EQ(ends.back(), n);
  for (int k = 1; k < parts; ++k) EXPECT_EQ(begins[k], ends[k - 1]) << k;
}

TEST(ParallelForTest, SmallInputsRunOnTheCallingThreadInOnePart) {
  EXPECT_EQ(ParallelForParts(kParallelForMinChunk), 1);
  std::atomic<int> calls{0};
  ParallelFor(1000, [&](int k, int64_t begin, int64_t end) {
    EXPECT_EQ(k, 0);
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 1000);
    ++calls;
  });
  EXPECT_EQ(calls.load(), 1);
  ParallelFor(0, [&](int, int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls.load(), 1);
}

TEST(ParallelForTest, NeverMoreThanSixteenParts) {
  EXPECT_LE(ParallelForParts(int64_t{1} << 40), 16);
  EXPECT_GE(ParallelForParts(int64_t{1} << 40), 1);
}

}  // namespace
}  // namespace warpwatch::kernels
