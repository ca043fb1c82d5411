// CPU-only tests of memory.pitch_2d: the reference and the nightly points.
#include <gtest/gtest.h>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/pitch_2d/pitch_2d_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(Pitch2dReference, DoublesEachElementOfThePackedMatrix) {
  const auto out = Pitch2dReference(3, 2, kSeed);
  ASSERT_EQ(out.size(), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], 2.0f * SeededFloat(kSeed, i)) << i;
}

TEST(Pitch2dFamily, EveryNightlyPointIsAccepted) {
  const Family* family = FindImplementation("memory.pitch_2d");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"packed", "pitched"}) {
    const auto made = family->MakeCase(MakePoint("memory.pitch_2d", variant), FakeH100Properties());
    EXPECT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
  }
}

// Width 1000 floats is 4000 bytes, a multiple of 32: packed rows still start on sectors, so only
// widths like 4001 (16004 bytes) misalign them. The catalog's nightly widths show both cases.
TEST(Pitch2dFamily, NightlyWidthsIncludeOneThatMisalignsPackedRows) {
  const catalog::FamilyInfo* info = catalog::FindFamily("memory.pitch_2d");
  ASSERT_NE(info, nullptr);
  const catalog::AxisInfo* width = info->FindAxis("width");
  ASSERT_NE(width, nullptr);
  bool misaligned = false;
  for (int64_t w : width->nightly) misaligned |= (w * 4) % 32 != 0;
  EXPECT_TRUE(misaligned);
}

}  // namespace
}  // namespace warpwatch::kernels
