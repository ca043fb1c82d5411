// File: tests/cli/format/format_test.cc
// Tables, durations and the progress bar of the CLI.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/format/duration.h"
#include "cli/format/progress_bar.h"
#include "cli/format/table.h"

namespace warpwatch::cli {
namespace {

TEST(TableTest, PadsColumnsToTheWidestCellAndTrimsLineEnds) {
  Table table({"ID", "STATE"});
  table.AddRow({"1", "QUEUED"});
  table.AddRow({"1234", "RUNNING"});
  std::ostringstream out;
  table.Print(out);
  EXPECT_EQ(out.str(), "ID    STATE\n1     QUEUED\n1234  RUNNING\n");
}

TEST(TableTest, ShortRowsArePadded) {
  Table table({"A", "B", "C"});
  table.AddRow({"x"});
  std::ostringstream out;
  table.Print(out);
  EXPECT_EQ(out.str(), "A  B  C\nx\n");
}

TEST(ProgressBarTest, FillsInProportionAndClamps) {
  EXPECT_EQ(ProgressBar(0, 10, 10), "[..........]");
  EXPECT_EQ(ProgressBar(5, 10, 10), "[#####.....]");
  EXPECT_EQ(ProgressBar(12, 10, 4), "[####]");
  EXPECT_EQ(ProgressBar(3, 0, 4), "[....]");
}

TEST(ProgressBarTest, FractionShowsPercentOrAnUnknownTotal) {
  EXPECT_EQ(ProgressFraction(12, 40), "12/40 30%");
  EXPECT_EQ(ProgressFraction(3, 0), "3/?");
}

TEST(ProgressBarTest, EllipsizeCutsLongText) {
  EXPECT_EQ(Ellipsize("abcdefgh", 5), "ab...");
  EXPECT_EQ(Ellipsize("abc", 5), "abc");
}

TEST(DurationTest, PicksTwoUnits) {
  EXPECT_EQ(FormatDuration(0.25), "250ms");
  EXPECT_EQ(FormatDuration(42), "42s");
  EXPECT_EQ(FormatDuration(185), "3m05s");
  EXPECT_EQ(FormatDuration(2 * 3600 + 7 * 60), "2h07m");
  EXPECT_EQ(FormatDuration(3 * 86400 + 4 * 3600), "3d04h");
  EXPECT_EQ(FormatDuration(-1), "0s");
}

TEST(DurationTest, TimestampsAreUtcAndUnsetIsADash) {
  google::protobuf::Timestamp t;
  EXPECT_EQ(FormatTimestamp(t), "-");
  t.set_seconds(1700000000);
  EXPECT_EQ(FormatTimestamp(t), "2023-11-14 22:13:20Z");
}

}  // namespace
}  // namespace warpwatch::cli
