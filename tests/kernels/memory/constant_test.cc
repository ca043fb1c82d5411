// CPU-only tests of memory.constant: the addresses each variant's warps read and the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/constant/constant_kernels.h"
#include "kernels/memory/constant/constant_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

std::set<int64_t> WarpWords(ConstantAccess access, int64_t block, int64_t warp) {
  std::set<int64_t> words;
  for (int lane = 0; lane < 32; ++lane) words.insert(ConstantBase(access, block, warp * 32 + lane));
  return words;
}

TEST(ConstantAccessPattern, UniformWarpsReadOneWordDivergentOnesThirtyTwo) {
  EXPECT_EQ(WarpWords(ConstantAccess::kConstantUniform, 5, 2).size(), 1u);
  EXPECT_EQ(WarpWords(ConstantAccess::kConstantDivergent, 5, 2).size(), 32u);
  EXPECT_EQ(WarpWords(ConstantAccess::kGlobalDivergent, 5, 2),
            WarpWords(ConstantAccess::kConstantDivergent, 5, 2));
}

TEST(ConstantReference, FoldsTheTableFromEachThreadsBase) {
  const auto out = ConstantReference(ConstantAccess::kConstantDivergent, 600, 256, kSeed);
  ASSERT_EQ(out.size(), 600u);
  const int64_t i = 513;  // block 2, thread 1
  float acc = 0.0f;
  for (int r = 0; r < kConstantReads; ++r) {
    acc = std::fma(acc, 0.5f, SeededFloat(kSeed, (8 * 2 + 1 + r) % kConstantTableWords));
  }
  EXPECT_EQ(out[i], acc);
  const auto uniform = ConstantReference(ConstantAccess::kConstantUniform, 600, 256, kSeed);
  EXPECT_EQ(uniform[512], uniform[513]);
  EXPECT_NE(uniform[0], uniform[256]);
}

TEST(ConstantFamily, EveryNightlyPointIsAccepted) {
  const Family* family = FindImplementation("memory.constant");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"constant_uniform", "constant_divergent", "global_divergent"}) {
    const auto made = family->MakeCase(MakePoint("memory.constant", variant), FakeH100Properties());
    EXPECT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
  }
}

}  // namespace
}  // namespace warpwatch::kernels
