// Point::Canonical and ParseCanonical: the case key every component agrees on.
#include <gtest/gtest.h>

#include <string>

#include "common/catalog/plan.h"

namespace warpwatch::catalog {
namespace {

TEST(CanonicalTest, SortsParametersByName) {
  Point p{"memory.coalescing", "strided", {{"stride", 4}, {"n", 1024}, {"block_size", 256}}};
  EXPECT_EQ(p.Canonical(), "memory.coalescing/strided?block_size=256&n=1024&stride=4");
}

TEST(CanonicalTest, PointWithoutParametersHasNoQuestionMark) {
  EXPECT_EQ((Point{"reduce", "cub", {}}).Canonical(), "reduce/cub");
}

TEST(CanonicalTest, EveryNightlyPointRoundTrips) {
  v1::JobSpec spec;
  spec.add_families("*");
  spec.add_families("testing.fault");
  StatusOr<std::vector<Point>> points = ExpandSpec(spec, PlanLimits{1 << 20});
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  for (const Point& p : *points) {
    StatusOr<Point> back = ParseCanonical(p.Canonical());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(back->family, p.family);
    EXPECT_EQ(back->variant, p.variant);
    EXPECT_EQ(back->params, p.params);
    EXPECT_EQ(back->Canonical(), p.Canonical());
  }
}

TEST(ParseCanonicalTest, ParsesNegativeAndLargeValues) {
  StatusOr<Point> p = ParseCanonical("f.g/v_1?a=-5&b=9223372036854775807&c=0");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->family, "f.g");
  EXPECT_EQ(p->variant, "v_1");
  EXPECT_EQ(p->params.at("a"), -5);
  EXPECT_EQ(p->params.at("b"), 9223372036854775807);
  EXPECT_EQ(p->params.at("c"), 0);
}

TEST(ParseCanonicalTest, RejectsMalformedOrNonCanonicalKeys) {
  for (const char* key : {
           "", "reduce", "/cub", "reduce/", "reduce/cub?", "reduce/cub?n", "reduce/cub?n=",
           "reduce/cub?=1", "reduce/cub?n=1&", "reduce/cub?n=x", "reduce/cub?n=1x", "reduce/cub?n=+1",
           "reduce/cub?n=01", "reduce/cub?n=-0", "reduce/cub?n=99999999999999999999",
           "reduce/cub?n=1&block_size=2", "reduce/cub?n=1&n=2", "Reduce/cub", "reduce/c.b",
           "reduce/cub/x", "reduce/cub?N=1", "reduce/cub?n=1?m=2",
       }) {
    StatusOr<Point> p = ParseCanonical(key);
    EXPECT_FALSE(p.ok()) << key;
    if (!p.ok()) {
      EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument) << key;
      EXPECT_EQ(p.status().message().rfind(std::string("case key \"") + key + "\": ", 0), 0u)
          << p.status().message();
    }
  }
}

}  // namespace
}  // namespace warpwatch::catalog
