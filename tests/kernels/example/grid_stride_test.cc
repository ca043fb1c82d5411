// CPU-only tests of example.grid_stride: its catalog entry (opt-in, so the nightly suite is
// unchanged), its reference, and the points MakeCase accepts and refuses.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/example/grid_stride/grid_stride_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(GridStrideCatalog, IsAnOptInFamilyWithOneRecommendedVariant) {
  const catalog::FamilyInfo* f = catalog::FindFamily("example.grid_stride");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->opt_in);
  EXPECT_FALSE(f->test_only);
  ASSERT_NE(f->FindVariant("grid_stride"), nullptr);
  EXPECT_TRUE(f->FindVariant("grid_stride")->recommended);
  ASSERT_NE(f->FindVariant("one_per_thread"), nullptr);
  EXPECT_FALSE(f->FindVariant("one_per_thread")->recommended);
  ASSERT_NE(f->FindAxis("n"), nullptr);
  EXPECT_EQ(f->FindAxis("n")->nightly, (std::vector<int64_t>{1 << 24}));
  ASSERT_NE(f->FindAxis("block_size"), nullptr);
}

TEST(GridStrideReference, IsTwiceTheInputPlusOne) {
  const std::vector<float> out = GridStrideReference(1000, kSeed);
  ASSERT_EQ(out.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    const float x = SeededFloat(kSeed, static_cast<uint64_t>(i));
    EXPECT_EQ(out[i], 2.0f * x + 1.0f) << i;
    EXPECT_GE(out[i], 2.0f) << i;  // inputs lie in [0.5, 1.5)
    EXPECT_LT(out[i], 4.0f) << i;
  }
}

TEST(GridStrideFamily, EveryNightlyPointIsAcceptedWithTheLaunchItAsks) {
  const Family* family = FindImplementation("example.grid_stride");
  ASSERT_NE(family, nullptr);
  const cudaDeviceProp prop = FakeH100Properties();
  for (const char* variant : {"one_per_thread", "grid_stride"}) {
    auto made = family->MakeCase(MakePoint("example.grid_stride", variant), prop);
    ASSERT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
    const LaunchShape shape = (*made)->Shape();
    EXPECT_NE(shape.function, nullptr) << variant;
    EXPECT_EQ(shape.block.x, 256u) << variant;
    EXPECT_EQ((*made)->work().bytes, 2.0 * 4 * (1 << 24)) << variant;
    // One element per thread covers n; the loop runs one wave: 132 SMs x 2048 / 256 blocks.
    const unsigned expected_grid =
        std::string(variant) == "one_per_thread" ? (1u << 24) / 256 : 132u * 8;
    EXPECT_EQ(shape.grid.x, expected_grid) << variant;
  }
}

TEST(GridStrideFamily, ABlockAboveTheDeviceMaximumIsSkippedAndAnUnknownVariantRefused) {
  const Family* family = FindImplementation("example.grid_stride");
  ASSERT_NE(family, nullptr);
  auto too_big =
      family->MakeCase(MakePoint("example.grid_stride", "grid_stride", {{"block_size", 2048}}),
                       FakeH100Properties());
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), StatusCode::kFailedPrecondition);
  auto unknown =
      family->MakeCase(MakePoint("example.grid_stride", "no_such_variant"), FakeH100Properties());
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace warpwatch::kernels
