// File: tests/cli/format/verdict_format_test.cc
// What the CLI shows of the detector's verdicts: a run's coverage, a series' noise and smallest
// detectable change, and the DETECTS column of a run's results.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/format/result_units.h"
#include "cli/format/run_view.h"
#include "cli/format/series_view.h"

namespace warpwatch::cli {
namespace {

TEST(VerdictFormatTest, CoverageNamesWhatWasJudgedAndWhyTheRestWasNot) {
  v1::AnalysisCoverage coverage;
  EXPECT_EQ(CoverageLabel(coverage), "-");  // never analysed
  coverage.set_state("PENDING");
  EXPECT_EQ(CoverageLabel(coverage), "PENDING");
  coverage.set_state("DONE");
  coverage.set_cases(144);
  coverage.set_judged(140);
  EXPECT_EQ(CoverageLabel(coverage), "140/144");
  (*coverage.mutable_unsure())["throttled"] = 1;
  (*coverage.mutable_unsure())["too_few_runs"] = 3;
  EXPECT_EQ(CoverageLabel(coverage), "140/144 (3 too_few_runs, 1 throttled)");
}

TEST(VerdictFormatTest, SmallPercentagesKeepTwoDigits) {
  EXPECT_EQ(FormatFinePercent(0.0012), "0.12%");
  EXPECT_EQ(FormatFinePercent(0.015), "1.5%");
  EXPECT_EQ(FormatFinePercent(0.12), "12%");
  EXPECT_EQ(FormatFinePercent(-1), "-");
}

TEST(VerdictFormatTest, ASeriesShowsItsNoiseAndWhatItCanDetect) {
  v1::Series series;
  series.set_series_id("reduce/cub?n=16777216@NVIDIA H100 80GB HBM3");
  series.set_noise_sigma(0.0012);
  series.set_min_detectable_change(0.031);
  series.set_noise_pairs(240);
  series.add_points()->set_median_seconds(3e-5);
  std::ostringstream out;
  PrintSeries(series, out);
  EXPECT_NE(out.str().find("noise: sigma 0.12%"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("smallest slowdown caught (95 %): 3.1%"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("240 run pairs"), std::string::npos) << out.str();
  v1::Series unanalysed;
  unanalysed.set_series_id("reduce/cub?n=16777216@NVIDIA H100 80GB HBM3");
  std::ostringstream none;
  PrintSeries(unanalysed, none);
  EXPECT_EQ(none.str().find("noise:"), std::string::npos) << none.str();
}

TEST(VerdictFormatTest, ResultsShowTheSmallestDetectableChangeOfEachPoint) {
  v1::Measurement judged;
  judged.mutable_case_()->set_canonical("memory.coalescing/copy?n=16777216");
  judged.set_min_detectable_change(0.01);
  v1::Measurement fresh;
  fresh.mutable_case_()->set_canonical("memory.coalescing/copy?n=67108864");
  std::ostringstream out;
  PrintMeasurementTable({judged, fresh}, out);
  EXPECT_NE(out.str().find("DETECTS"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("1%"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace warpwatch::cli
