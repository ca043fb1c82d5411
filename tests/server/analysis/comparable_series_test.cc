// Comparable series on a real PostgreSQL: runs measured with other settings than the nightly ones
// form their own series, so they neither join the nightly baseline nor are judged against it
// (common/series/comparable_series.h, docs/regressions.md "Comparable series").
#include <gtest/gtest.h>

#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {
namespace {

constexpr const char* kNoFlush = "{\"l2_flush\": false}";

TEST_F(RunAnalyzerTest, ARunWithoutTheL2FlushIsItsOwnSeries) {
  AddBaseline();
  // Hot-L2 copies are faster; judged against the nightly (cold) baseline they would read as a
  // 30 % improvement.
  const int64_t hot = AddRun({Copy(0.7e-4)}, MeasuredWith(kNoFlush));
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("run_id = " + std::to_string(hot)), 0);
  pqxx::result series = Sql("SELECT series_id FROM measurement WHERE run_id = $1", hot);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0][0].as<std::string>(), SeriesOf(Copy()) + "#l2_flush=off");
  // Its coverage says why it was not judged: the GPU's history of the case is the nightly one.
  ASSERT_OK_AND_ASSIGN(v1::Run stored, store_->GetRun(hot));
  EXPECT_EQ(stored.analysis().judged(), 0);
  ASSERT_EQ(stored.analysis().unsure_size(), 1) << stored.DebugString();
  EXPECT_EQ(stored.analysis().unsure().at("not_comparable"), 1);
}

TEST_F(RunAnalyzerTest, RunsWithoutTheL2FlushNeverJoinTheNightlyBaseline) {
  AddBaseline();
  // Five hot-L2 runs, 30 % faster, then a nightly run at the nightly level: mixed into the
  // nightly baseline the hot runs would pull its median down and flag the nightly run SLOWER.
  for (int i = 0; i < 5; ++i) AddRun({Copy(0.7e-4 * (1 + 0.001 * i))}, MeasuredWith(kNoFlush));
  ASSERT_EQ(AnalyzeAll(), 5);
  const int64_t nightly = AddRun({Copy(1.0005e-4)});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("run_id = " + std::to_string(nightly)), 0);
  EXPECT_EQ(Count("true"), 0);
}

TEST_F(RunAnalyzerTest, ASeriesOfOtherSettingsIsJudgedAgainstItsOwnRuns) {
  for (int i = 0; i < 10; ++i)
    AddRun({Copy(0.7e-4 * (1 + 0.001 * (i % 3)))}, MeasuredWith(kNoFlush));
  ASSERT_EQ(AnalyzeAll(), 10);
  const int64_t slower = AddRun({Copy(0.77e-4)}, MeasuredWith(kNoFlush));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = Sql("SELECT kind, series_id FROM regression WHERE run_id = $1", slower);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "REGRESSION");
  EXPECT_EQ(r[0][1].as<std::string>(), SeriesOf(Copy()) + "#l2_flush=off");
}

}  // namespace
}  // namespace warpwatch::server::testing
