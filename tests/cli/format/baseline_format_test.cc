// File: tests/cli/format/baseline_format_test.cc
// The pinned-baseline views, and a downsampled week in the series view.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/format/baseline_view.h"
#include "cli/format/series_view.h"

namespace warpwatch::cli {
namespace {

v1::BaselinePin APin() {
  v1::BaselinePin pin;
  pin.set_id(7);
  pin.add_run_ids(12);
  pin.add_run_ids(34);
  pin.set_pinned_by("ci");
  pin.set_note("release 1.0");
  pin.mutable_pinned_at()->set_seconds(1764000000);
  return pin;
}

TEST(BaselineViewTest, AChangeNamesThePinItsRunsAndWho) {
  std::ostringstream out;
  PrintPinChange(APin(), "pinned", out);
  EXPECT_EQ(out.str(), "pinned baseline 7: runs 12 34 for every series they measured (by ci)\n");
  v1::BaselinePin one = APin();
  one.set_series_id("reduce/tree?n=1024@H100");
  out.str("");
  PrintPinChange(one, "unpinned", out);
  EXPECT_EQ(out.str(),
            "unpinned baseline 7: runs 12 34 for series reduce/tree?n=1024@H100 (by ci)\n");
}

TEST(BaselineViewTest, TheTableHasOneRowAPinAndSaysWhenThereIsNone) {
  std::ostringstream out;
  PrintBaselineTable({APin()}, out);
  EXPECT_EQ(out.str().rfind("ID  RUNS", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("7   12 34  (every series)  ci"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("release 1.0"), std::string::npos);
  std::ostringstream none;
  PrintBaselineTable({}, none);
  EXPECT_EQ(none.str(), "no baseline pins\n");
}

TEST(SeriesViewTest, ADownsampledWeekShowsItsRunCountInsteadOfARun) {
  v1::Series series;
  series.set_series_id("reduce/tree?n=1024@H100");
  v1::SeriesPoint* week = series.add_points();
  week->set_downsampled(true);
  week->set_runs(5);
  week->set_median_seconds(1e-3);
  v1::SeriesPoint* run = series.add_points();
  run->set_run_id(42);
  run->set_median_seconds(1e-3);
  std::ostringstream out;
  PrintSeries(series, out);
  EXPECT_NE(out.str().find("(6 runs, oldest first)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("week (5 runs)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\n42 "), std::string::npos) << out.str();
}

}  // namespace
}  // namespace warpwatch::cli
