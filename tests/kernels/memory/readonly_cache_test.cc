// CPU-only tests of memory.readonly_cache: the gather indices and the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/readonly_cache/readonly_cache_kernels.h"
#include "kernels/memory/readonly_cache/readonly_cache_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(ReadonlyGatherIndex, StaysInItsWindowAndInsideTheInput) {
  const int64_t n = 3 * kReadonlyWindow + 100;  // a short last window
  for (int64_t i = 0; i < n; i += 37) {
    const int idx = ReadonlyGatherIndex(kSeed, i, n);
    EXPECT_GE(idx, i - i % kReadonlyWindow) << i;
    EXPECT_LT(idx, std::min(n, i - i % kReadonlyWindow + kReadonlyWindow)) << i;
  }
}

TEST(ReadonlyGatherIndex, ReusesWordsIrregularly) {
  std::set<int> distinct;
  for (int64_t i = 0; i < kReadonlyWindow; ++i) {
    distinct.insert(ReadonlyGatherIndex(kSeed, i, kReadonlyWindow));
  }
  // Draws with replacement: about 1 - 1/e of the window, so some words are read more than once.
  EXPECT_LT(distinct.size(), static_cast<size_t>(kReadonlyWindow * 0.7));
  EXPECT_GT(distinct.size(), static_cast<size_t>(kReadonlyWindow * 0.55));
  EXPECT_NE(ReadonlyGatherIndex(kSeed, 0, kReadonlyWindow) + 1,
            ReadonlyGatherIndex(kSeed, 1, kReadonlyWindow));
}

TEST(ReadonlyCacheReference, GathersTheSeededInput) {
  const auto out = ReadonlyCacheReference(10, kSeed, kSeed + 1);
  for (int64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(out[i], SeededFloat(kSeed, ReadonlyGatherIndex(kSeed + 1, i, 10))) << i;
  }
}

TEST(ReadonlyCacheFamily, TextureAboveItsLimitIsSkippedOthersAreNot) {
  const Family* family = FindImplementation("memory.readonly_cache");
  ASSERT_NE(family, nullptr);
  const int64_t big = (int64_t{1} << 27) + 1;
  auto tex = family->MakeCase(MakePoint("memory.readonly_cache", "texture", {{"n", big}}),
                              FakeH100Properties());
  ASSERT_FALSE(tex.ok());
  EXPECT_EQ(tex.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(
      family
          ->MakeCase(MakePoint("memory.readonly_cache", "ldg", {{"n", big}}), FakeH100Properties())
          .ok());
}

}  // namespace
}  // namespace warpwatch::kernels
