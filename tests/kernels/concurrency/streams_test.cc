// CPU: concurrency.streams' chunking, reference and overlap figure.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/concurrency/streams/streams_reference.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {
namespace {

TEST(StreamsReference, ChunksCoverEveryElementOnce) {
  for (int64_t n : {int64_t{1}, int64_t{3}, int64_t{10}, int64_t{1000003}}) {
    for (int chunks : {1, 3, 4, 7}) {
      int64_t expected_begin = 0;
      for (int k = 0; k < chunks; ++k) {
        int64_t begin = 0;
        int64_t end = 0;
        ChunkRange(n, chunks, k, &begin, &end);
        EXPECT_EQ(begin, expected_begin) << n << "/" << chunks << " chunk " << k;
        EXPECT_GE(end, begin);
        expected_begin = end;
      }
      EXPECT_EQ(expected_begin, n) << n << "/" << chunks;
    }
  }
}

TEST(StreamsReference, TheChainDependsOnEveryStep) {
  const float x = SeededFloat(kSeed, 9);
  EXPECT_EQ(StreamWorkReference(kSeed, 9, 0), x);
  EXPECT_EQ(StreamWorkReference(kSeed, 9, 1), std::fma(x, 1.0f - 1.0f / 1024, x));
  EXPECT_NE(StreamWorkReference(kSeed, 9, 1024), StreamWorkReference(kSeed, 9, 1023));
}

TEST(StreamsReference, HiddenFraction) {
  EXPECT_DOUBLE_EQ(HiddenFraction(3.0, 1.0), 2.0 / 3);
  EXPECT_DOUBLE_EQ(HiddenFraction(2.0, 2.0), 0.0);
  EXPECT_EQ(HiddenFraction(0, 1), 0);
}

}  // namespace
}  // namespace warpwatch::kernels
