// File: tests/server/store/analysis_series_read_test.cc
// The analysis' history read (server/store/pg_analysis_series.cc) on a real PostgreSQL: each
// series' newest points, read from the measurement partitions above the GPU's (or model's) recent
// runs only, and the same points as a read of every partition when a series is short there.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "server/store/detail/pg_analysis_tx.h"
#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

using analysis::SeriesPoint;
using SeriesMap = std::map<std::string, std::vector<SeriesPoint>>;

Point CaseX(double median = 1e-4) {
  Point p;
  p.median = median;
  return p;
}
Point CaseY() {
  Point p;
  p.variant = "stride";
  p.params = {{"block_size", 256}, {"n", 16777216}, {"stride", 2}};
  return p;
}

class AnalysisSeriesReadTest : public AnalysisTest {
 protected:
  // LoadSeries as the analysis of a run of `device` calls it ("" reads the GPU model), in a
  // transaction of its own that flushes its statistics, so pg_stat_user_indexes shows which
  // partitions it read.
  SeriesMap Read(const std::vector<std::string>& series, const std::string& device, size_t newest) {
    pqxx::connection c(url_);
    pqxx::work tx(c);
    analysis::ClaimedRun run;
    run.device_uuid = kDeviceA;
    run.gpu_model = kModel;
    detail::PgAnalysisTx atx(tx, run);
    StatusOr<SeriesMap> read = atx.LoadSeries(series, device, newest, 0.1);
    EXPECT_TRUE(read.ok()) << read.status().ToString();
    tx.exec("SELECT pg_stat_force_next_flush()");
    tx.commit();
    return read.ok() ? *read : SeriesMap();
  }
  static std::vector<int64_t> RunIds(const std::vector<SeriesPoint>& points) {
    std::vector<int64_t> ids;
    for (const SeriesPoint& p : points) ids.push_back(p.point.run_id);
    return ids;
  }
  // Index scans of partition `name` so far (every index of it).
  int64_t IndexScansOf(const std::string& name) {
    return Sql("SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes WHERE relname = $1",
               name)
        .at(0)
        .at(0)
        .as<int64_t>();
  }
};

TEST_F(AnalysisSeriesReadTest, AFullSeriesIsReadFromThePartitionsOfItsNewestRunsOnly) {
  std::vector<int64_t> old_runs;
  for (int i = 0; i < 6; ++i) old_runs.push_back(AddRun({CaseX()}));
  // The next runs start a partition of their own (migration 0019 makes ranges of 1,000 ids).
  Sql("SELECT setval('run_id_seq', 1000)");
  std::vector<int64_t> new_runs;
  for (int i = 0; i < 6; ++i) new_runs.push_back(AddRun({CaseX()}));
  const std::string old_partition = PartitionOf(old_runs.front());
  ASSERT_FALSE(old_partition.empty());
  ASSERT_EQ(PartitionOf(old_runs.back()), old_partition);
  ASSERT_NE(PartitionOf(new_runs.front()), old_partition);

  const int64_t scans_before = IndexScansOf(old_partition);
  const std::string x = SeriesOf(CaseX());
  for (const std::string& device : {std::string(kDeviceA), std::string()}) {
    SCOPED_TRACE(device.empty() ? "model read" : "device read");
    SeriesMap read = Read({x}, device, 3);
    EXPECT_EQ(RunIds(read[x]), std::vector<int64_t>(new_runs.end() - 3, new_runs.end()));
    for (const SeriesPoint& p : read[x]) EXPECT_TRUE(p.baseline_eligible);
  }
  // The six newest runs of the GPU (twice `newest`) are all in the new partition: the old one is
  // not read at all (without the bound every partition's series index is scanned).
  EXPECT_EQ(IndexScansOf(old_partition), scans_before);
  // A read that needs the old runs reads them.
  SeriesMap all = Read({x}, kDeviceA, 12);
  std::vector<int64_t> every = old_runs;
  every.insert(every.end(), new_runs.begin(), new_runs.end());
  EXPECT_EQ(RunIds(all[x]), every);
  EXPECT_GT(IndexScansOf(old_partition), scans_before);
}

TEST_F(AnalysisSeriesReadTest, ASeriesTheGpusRecentRunsDidNotMeasureStillGetsItsNewestPoints) {
  // Case X in five runs, then ten runs of case Y only (ad-hoc jobs of another family): X has no
  // point among the GPU's eight newest runs, the bound of a read of 4.
  std::vector<int64_t> x_runs, y_runs;
  for (int i = 0; i < 5; ++i) x_runs.push_back(AddRun({CaseX()}));
  for (int i = 0; i < 10; ++i) y_runs.push_back(AddRun({CaseY()}));
  const std::string x = SeriesOf(CaseX());
  const std::string y = SeriesOf(CaseY());
  for (const std::string& device : {std::string(kDeviceA), std::string()}) {
    SCOPED_TRACE(device.empty() ? "model read" : "device read");
    SeriesMap read = Read({x, y}, device, 4);
    EXPECT_EQ(RunIds(read[x]), std::vector<int64_t>(x_runs.begin() + 1, x_runs.end()));
    EXPECT_EQ(RunIds(read[y]), std::vector<int64_t>(y_runs.end() - 4, y_runs.end()));
  }
  // A series with a point above the bound but fewer than asked for gets its older points too.
  const int64_t both = AddRun({CaseX(), CaseY()});
  SeriesMap read = Read({x}, kDeviceA, 4);
  EXPECT_EQ(RunIds(read[x]), (std::vector<int64_t>{x_runs[2], x_runs[3], x_runs[4], both}));
}

TEST_F(AnalysisSeriesReadTest, APointAtAStandingFindingsLevelIsNotABaseline) {
  const std::vector<int64_t> good = AddNoisyRuns(CaseX(), 10, 0.002);
  ASSERT_EQ(AnalyzeAll(), 10);
  const int64_t slow = AddRun({CaseX(1.2e-4)});
  ASSERT_EQ(AnalyzeAll(), 1);
  ASSERT_EQ(
      Sql("SELECT count(*) FROM regression_run WHERE run_id = $1", slow).at(0).at(0).as<int64_t>(),
      1);
  const std::string x = SeriesOf(CaseX());
  SeriesMap read = Read({x}, kDeviceA, 20);
  ASSERT_EQ(read[x].size(), good.size() + 1);
  for (const SeriesPoint& p : read[x]) {
    EXPECT_EQ(p.baseline_eligible, p.point.run_id != slow) << "run " << p.point.run_id;
  }
}

}  // namespace
}  // namespace warpwatch::server::testing
