// CPU-only tests of kernels/core/point_1d.h: reading a point's variant, n and 1-D launch.
#include "kernels/core/point_1d.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;

enum class Pick { kA, kB };

const VariantTable<Pick>& Picks() {
  static const auto& table = NewVariantTable<Pick>({{"a", Pick::kA}, {"b", Pick::kB}});
  return table;
}

catalog::Point PointOf(const std::string& variant, std::map<std::string, int64_t> params) {
  catalog::Point p;
  p.family = "memory.coalescing";  // any catalog family: only the key's text uses it
  p.variant = variant;
  p.params = std::move(params);
  return p;
}

TEST(ReadPoint1D, ReadsTheVariantKeyAndN) {
  const catalog::Point point = PointOf("b", {{"n", 1000}});
  StatusOr<Point1D<Pick>> p = ReadPoint1D(point, Picks());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->variant, Pick::kB);
  EXPECT_EQ(p->n, 1000);
  EXPECT_EQ(p->key, point.Canonical());
}

TEST(ReadPoint1D, AnUnknownVariantIsRefusedBeforeAMissingN) {
  StatusOr<Point1D<Pick>> p = ReadPoint1D(PointOf("c", {}), Picks());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("unknown variant \"c\""), std::string::npos)
      << p.status().ToString();
}

TEST(ReadPoint1D, AMissingNIsRefused) {
  StatusOr<Point1D<Pick>> p = ReadPoint1D(PointOf("a", {}), Picks());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("missing axis \"n\""), std::string::npos)
      << p.status().ToString();
}

TEST(ReadLaunch1D, SizesTheGridForTheItemsEachThreadTakes) {
  StatusOr<Launch1D> launch =
      ReadLaunch1D(PointOf("a", {{"block_size", 256}}), 1000001, 4, FakeH100Properties());
  ASSERT_TRUE(launch.ok()) << launch.status().ToString();
  EXPECT_EQ(launch->block, 256u);
  EXPECT_EQ(launch->grid, 977u);  // ceil(1000001 / 1024)
  const LaunchShape shape = launch->ShapeOf(reinterpret_cast<const void*>(&Picks));
  EXPECT_EQ(shape.grid.x, 977u);
  EXPECT_EQ(shape.block.x, 256u);
  EXPECT_EQ(shape.dynamic_shared_bytes, 0u);
}

TEST(ReadLaunch1D, ABlockAboveTheDeviceIsAPreconditionAndAPartWarpIsRefusedWhenAsked) {
  StatusOr<Launch1D> big =
      ReadLaunch1D(PointOf("a", {{"block_size", 2048}}), 100, 1, FakeH100Properties());
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), StatusCode::kFailedPrecondition);
  StatusOr<Launch1D> part = ReadLaunch1D(PointOf("a", {{"block_size", 48}}), 100, 1,
                                         FakeH100Properties(), /*whole_warps=*/true);
  ASSERT_FALSE(part.ok());
  EXPECT_EQ(part.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(part.status().message().find("block_size must be whole warps"), std::string::npos);
  EXPECT_TRUE(ReadLaunch1D(PointOf("a", {{"block_size", 48}}), 100, 1, FakeH100Properties()).ok());
}

}  // namespace
}  // namespace warpwatch::kernels
