// CPU-only tests of memory.alignment: the reference and the points MakeCase refuses.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/alignment/alignment_kernels.h"
#include "kernels/memory/alignment/alignment_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(AlignmentReference, ReadsFromTheOffsetOn) {
  const auto out = AlignmentReference(5, 3, kSeed);
  ASSERT_EQ(out.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], SeededFloat(kSeed, i + 3)) << i;
}

TEST(AlignmentReference, OffsetZeroIsThePlainCopy) {
  const auto out = AlignmentReference(4, 0, kSeed);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], SeededFloat(kSeed, i)) << i;
}

TEST(AlignmentFamily, EveryNightlyPointIsAccepted) {
  const Family* family = FindImplementation("memory.alignment");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"aligned", "misaligned"}) {
    const auto made =
        family->MakeCase(MakePoint("memory.alignment", variant), FakeH100Properties());
    EXPECT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
  }
}

TEST(AlignmentFamily, AnOffsetBeyondTheInputsSlackIsRefused) {
  const Family* family = FindImplementation("memory.alignment");
  ASSERT_NE(family, nullptr);
  const auto made = family->MakeCase(
      MakePoint("memory.alignment", "misaligned", {{"offset", kAlignmentMaxOffset + 1}}),
      FakeH100Properties());
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), StatusCode::kInvalidArgument) << made.status().ToString();
}

}  // namespace
}  // namespace warpwatch::kernels
