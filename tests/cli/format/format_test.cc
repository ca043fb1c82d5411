// File: tests/cli/format/format_test.cc
// Tables, durations and the progress bar of the CLI.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/format/duration.h"
#include "cli/format/progress_bar.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

TEST(TerminalSafeTest, DropsEscapeSequencesAndBlanksControlCharacters) {
  EXPECT_EQ(TerminalSafe("plain reduce/x?n=1"), "plain reduce/x?n=1");
  EXPECT_EQ(TerminalSafe("a\x1b[31mred\x1b[0m"), "ared");  // CSI (colour)
  EXPECT_EQ(TerminalSafe("a\x1b]0;title\x07"
                         "b"),
            "ab");                                            // OSC ended by BEL
  EXPECT_EQ(TerminalSafe("a\x1b]8;;http://x\x1b\\b"), "ab");  // OSC ended by ST
  EXPECT_EQ(TerminalSafe("a\x1b"
                         "cb"),
            "ab");  // ESC c (reset)
  EXPECT_EQ(TerminalSafe("a\r\nb\tc\x7f"), "a  b c ");
  EXPECT_EQ(TerminalSafe("a\xc2\x9b"
                         "2Jb"),
            "a 2Jb");  // C1 CSI
  EXPECT_EQ(TerminalSafe("H100 \xe2\x80\x94 \xc3\xa9"),
            "H100 \xe2\x80\x94 \xc3\xa9");  // UTF-8 kept
  EXPECT_EQ(TerminalSafe("trailing\x1b"), "trailing");
  EXPECT_EQ(TerminalSafe("x\x1b[12;3"), "x");  // a CSI cut off before its final byte
}

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
