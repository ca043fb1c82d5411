// CPU-only tests of shared.bank_conflicts: the word map that makes the conflicts, the reference,
// and the points MakeCase refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

// Distinct words per bank a warp-wide read touches, the most over the banks: the conflict degree.
int ConflictDegree(int stride, int j, int k) {
  std::set<int> words_in_bank[32];
  for (int lane = 0; lane < 32; ++lane) {
    const int word = BankWord(lane, stride, j, k);
    words_in_bank[word % 32].insert(word);
  }
  size_t degree = 0;
  for (const auto& words : words_in_bank) degree = std::max(degree, words.size());
  return static_cast<int>(degree);
}

TEST(BankConflictsWordMap, EveryReadOfAStrideMeetsGcdWayConflicts) {
  for (int stride = 1; stride <= kBankMaxStride; ++stride) {
    const int expected = std::gcd(stride, 32);
    for (int j = 0; j < kBankOuterSteps; j += 7) {
      for (int k = 0; k < kBankInnerReads; k += 5) {
        EXPECT_EQ(ConflictDegree(stride, j, k), expected) << "stride " << stride;
      }
    }
  }
}

TEST(BankConflictsWordMap, StrideZeroIsABroadcastOfOneWord) {
  std::set<int> words;
  for (int lane = 0; lane < 32; ++lane) words.insert(BankWord(lane, 0, 3, 4));
  EXPECT_EQ(words.size(), 1u);
}

TEST(BankConflictsWordMap, EveryWordReadIsInsideTheTable) {
  EXPECT_LT(BankWord(31, kBankMaxStride, kBankRowCycle - 1, kBankInnerReads - 1), kBankTableWords);
}

TEST(BankConflictsReference, EachThreadSumsItsLanesWordsInOrder) {
  const auto out = BankConflictsReference(64, 3, kSeed);
  ASSERT_EQ(out.size(), 64u);
  for (int lane : {0, 5, 31}) {
    float sum = 0.0f;
    for (int j = 0; j < kBankOuterSteps; ++j) {
      for (int k = 0; k < kBankInnerReads; ++k) sum += SeededFloat(kSeed, BankWord(lane, 3, j, k));
    }
    EXPECT_EQ(out[lane], sum);
    EXPECT_EQ(out[lane + 32], sum);
  }
  EXPECT_NE(out[0], out[1]);
}

TEST(BankConflictsFamily, NNotAWholeNumberOfThreadsIsRefused) {
  const Family* family = FindImplementation("shared.bank_conflicts");
  ASSERT_NE(family, nullptr);
  const auto made = family->MakeCase(
      MakePoint("shared.bank_conflicts", "conflict_free", {{"n", kBankReadsPerThread + 1}}),
      FakeH100Properties());
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), StatusCode::kInvalidArgument) << made.status().ToString();
}

TEST(BankConflictsFamily, EveryNightlyPointIsAccepted) {
  const Family* family = FindImplementation("shared.bank_conflicts");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"conflict_free", "strided", "broadcast"}) {
    const auto made =
        family->MakeCase(MakePoint("shared.bank_conflicts", variant), FakeH100Properties());
    EXPECT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
  }
}

}  // namespace
}  // namespace warpwatch::kernels
