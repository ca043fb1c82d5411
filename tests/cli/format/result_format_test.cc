// File: tests/cli/format/result_format_test.cc
// Units of the history views: sparklines and result numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "cli/format/result_units.h"
#include "cli/format/sparkline.h"

namespace warpwatch::cli {
namespace {

TEST(SparklineTest, ScalesFromTheLowestToTheHighestBlock) {
  EXPECT_EQ(Sparkline({1, 2, 3, 4, 5, 6, 7, 8}), "▁▂▃▄▅▆▇█");
  EXPECT_EQ(Sparkline({10, 1}), "█▁");
}

TEST(SparklineTest, FlatSeriesSitInTheMiddleAndGapsAreSpaces) {
  EXPECT_EQ(Sparkline({2, 2}), "▄▄");
  EXPECT_EQ(Sparkline({1, NAN, 3}), "▁ █");
  EXPECT_EQ(Sparkline({}), "");
}

TEST(ResultUnitsTest, SecondsCarryTheirUnit) {
  EXPECT_EQ(FormatSeconds(812e-9), "812 ns");
  EXPECT_EQ(FormatSeconds(12.34e-6), "12.3 us");
  EXPECT_EQ(FormatSeconds(4.561e-3), "4.56 ms");
  EXPECT_EQ(FormatSeconds(0), "-");
  EXPECT_EQ(FormatChange(0.042), "+4.2%");
  EXPECT_EQ(FormatChange(-0.003), "-0.3%");
  EXPECT_EQ(FormatPercent(0.75), "75%");
}

}  // namespace
}  // namespace warpwatch::cli
