// Change points stored per touched series (GPU model and one device) and replaced on every run;
// fleet outliers from the latest runs of each device of a model. On a real PostgreSQL.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

constexpr double kNoise = 0.002;

class ChangePointFleetTest : public AnalysisTest {
 protected:
  // These runs all start within seconds: the model-wide change points are recomputed on each.
  void SetUp() override {
    AnalysisTest::SetUp();
    config_.model_change_points_interval = std::chrono::seconds(0);
  }

  // Two runs of each of `devices`, analysed a day before the next run: the case's between-run
  // noise on the model, without which the fleet view judges nothing. Returns each one's last run.
  std::vector<int64_t> HealthyHistory(const std::vector<std::string>& devices) {
    std::vector<int64_t> last;
    for (const std::string& uuid : devices) {
      last.push_back(AddNoisyRuns(Point{}, 2, kNoise, OnDevice(uuid))[1]);
    }
    EXPECT_EQ(AnalyzeAll(), static_cast<int>(2 * devices.size()));
    EXPECT_EQ(Sql("SELECT count(*) FROM regression").at(0).at(0).as<int>(), 0);
    ExpireModelNoise();
    return last;
  }

  pqxx::result ChangePoints(const std::string& device) {
    return Sql(
        "SELECT run_id, relative_change, median_before, median_after, p_value, id FROM change_point"
        " WHERE series_id = $1 AND device_uuid = $2 ORDER BY at",
        SeriesOf(Point{}), device);
  }
};

TEST_F(ChangePointFleetTest, APlantedStepIsStoredOnTheModelAndTheDeviceSeries) {
  Point base;
  AddNoisyRuns(base, 30, kNoise);
  Point slower = base;
  slower.median = base.median * 1.05;
  const std::vector<int64_t> step = AddNoisyRuns(slower, 15, kNoise);
  ASSERT_EQ(AnalyzeAll(), 45);
  for (const std::string& device : {std::string(""), std::string(kDeviceA)}) {
    pqxx::result cps = ChangePoints(device);
    ASSERT_EQ(cps.size(), 1u) << "device '" << device << "'";
    EXPECT_EQ(cps[0][0].as<int64_t>(), step.front());
    EXPECT_NEAR(cps[0][1].as<double>(), 0.05, 0.005);
    EXPECT_NEAR(cps[0][2].as<double>(), base.median, base.median * 0.003);
    EXPECT_NEAR(cps[0][3].as<double>(), slower.median, slower.median * 0.003);
    EXPECT_LE(cps[0][4].as<double>(), 0.001);
  }
}

TEST_F(ChangePointFleetTest, EachRunReplacesTheSeriesChangePoints) {
  Point base;
  AddNoisyRuns(base, 30, kNoise);
  Point slower = base;
  slower.median = base.median * 1.05;
  const std::vector<int64_t> first_step = AddNoisyRuns(slower, 15, kNoise);
  ASSERT_EQ(AnalyzeAll(), 45);
  const int64_t first_row = ChangePoints("")[0][5].as<int64_t>();
  Point slowest = base;
  slowest.median = base.median * 1.10;
  const std::vector<int64_t> second_step = AddNoisyRuns(slowest, 15, kNoise);
  ASSERT_EQ(AnalyzeAll(), 15);
  pqxx::result cps = ChangePoints("");
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0][0].as<int64_t>(), first_step.front());
  EXPECT_EQ(cps[1][0].as<int64_t>(), second_step.front());
  EXPECT_NE(cps[0][5].as<int64_t>(), first_row);  // recomputed and rewritten, not kept
  EXPECT_EQ(Sql("SELECT count(*) FROM change_point").at(0).at(0).as<int>(), 4);
}

TEST_F(ChangePointFleetTest, TheModelSeriesIsRecomputedOncePerIntervalOfRunStartsNotPerRun) {
  config_.model_change_points_interval = std::chrono::hours(12);
  Point base;
  AddNoisyRuns(base, 30, kNoise);
  ASSERT_EQ(AnalyzeAll(), 30);
  Point slower = base;
  slower.median = base.median * 1.05;
  const std::vector<int64_t> step = AddNoisyRuns(slower, 15, kNoise);
  ASSERT_EQ(AnalyzeAll(), 15);
  // All within one night: the model series was recomputed by the first run (30 flat points, no
  // change point) and not since; the device's own series on every run.
  EXPECT_EQ(ChangePoints("").size(), 0u);
  ASSERT_EQ(ChangePoints(kDeviceA).size(), 1u);
  // A run that starts 13 h after the first recomputes the model series over all of them.
  const int64_t next = AddNoisyRuns(slower, 1, kNoise)[0];
  Sql("UPDATE run SET started_at = (SELECT min(started_at) FROM run) + interval '13 hours',"
      " finished_at = (SELECT min(started_at) FROM run) + interval '13 hours 1 minute'"
      " WHERE id = " +
      std::to_string(next));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result cps = ChangePoints("");
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0][0].as<int64_t>(), step.front());
}

TEST_F(ChangePointFleetTest, StationaryNoiseGivesNoChangePoints) {
  AddNoisyRuns(Point{}, 60, 0.003);
  ASSERT_EQ(AnalyzeAll(), 60);
  EXPECT_EQ(Sql("SELECT count(*) FROM change_point").at(0).at(0).as<int>(), 0);
}

TEST_F(ChangePointFleetTest, ASickDeviceIsReportedAsAFleetOutlierOnItsOwnRun) {
  const std::vector<int64_t> others = HealthyHistory({"GPU-1", "GPU-2", "GPU-3", "GPU-4"});
  Point sick;
  sick.median = 1.10e-4;
  const int64_t run = AddRun({sick}, OnDevice("GPU-5"));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = Sql(
      "SELECT run_id, device_uuid, state, baseline_run_ids::text, change, method FROM regression"
      " WHERE kind = 'OUTLIER'");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<int64_t>(), run);
  EXPECT_EQ(r[0][1].as<std::string>(), "GPU-5");
  EXPECT_EQ(r[0][2].as<std::string>(), "OPEN");
  EXPECT_EQ(r[0][3].as<std::string>(),
            "{" + std::to_string(others[0]) + "," + std::to_string(others[1]) + "," +
                std::to_string(others[2]) + "," + std::to_string(others[3]) + "}");
  EXPECT_NEAR(r[0][4].as<double>(), 0.10, 0.01);
  EXPECT_NE(r[0][5].as<std::string>().find("fleet"), std::string::npos);
}

TEST_F(ChangePointFleetTest, DevicesOutsideTheFleetWindowAreNotCompared) {
  HealthyHistory({"GPU-1", "GPU-2", "GPU-3", "GPU-4"});
  Sql("UPDATE run SET started_at = now() - interval '2 days', finished_at = now() - interval"
      " '2 days'");
  Point sick;
  sick.median = 1.10e-4;
  AddRun({sick}, OnDevice("GPU-5"));
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE kind = 'OUTLIER'").at(0).at(0).as<int>(), 0);
}

// FleetConfig::min_devices (4) good devices, the judged one included, are needed.
TEST_F(ChangePointFleetTest, TooFewDevicesJudgeNoOutlier) {
  HealthyHistory({"GPU-1", "GPU-2"});
  Point sick;
  sick.median = 1.10e-4;
  AddRun({sick}, OnDevice("GPU-5"));
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE kind = 'OUTLIER'").at(0).at(0).as<int>(), 0);
}

}  // namespace
}  // namespace warpwatch::server::testing
