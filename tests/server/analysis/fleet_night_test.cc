// Fleet outliers within one night, on a real PostgreSQL (docs/regressions.md "Fleet view"): peers
// are the devices of the same schedule run, or without a schedule the same-software runs of the
// window, so a change that moves the whole fleet never marks a device.
#include <gtest/gtest.h>

#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {
namespace {

constexpr int kFleetNightDevices = 8;

std::string FleetNightGpu(int i) { return "GPU-" + std::to_string(i); }

class FleetNightTest : public RunAnalyzerTest {
 protected:
  int Outliers() { return Count("kind = 'OUTLIER'"); }
  // One night of every GPU, each run analysed as it finishes (the order workers finish in), a day
  // after the night before.
  void Night(double median, int64_t schedule_run, const std::string& git_sha, int slow_device = -1,
             double slow_median = 0) {
    ExpireModelNoise();
    for (int i = 0; i < kFleetNightDevices; ++i) {
      RunOptions options = OnDevice(FleetNightGpu(i));
      options.schedule_run_id = schedule_run;
      options.git_sha = git_sha;
      AddRun({Copy(i == slow_device ? slow_median : median * (1 + 0.001 * (i % 3)))}, options);
      ASSERT_EQ(AnalyzeAll(), 1);
    }
  }
  // Two clean nights: the case's between-run noise on the model (two analysed runs of a GPU),
  // without which the fleet view judges nothing (FleetOutliersTest.WithoutTheCaseNoise...).
  void History(double median, const std::string& git_sha, bool scheduled) {
    for (int n = 0; n < 2; ++n) Night(median, scheduled ? AddScheduleRun() : 0, git_sha);
    ASSERT_EQ(Outliers(), 0);
  }
};

TEST_F(FleetNightTest, AChangeOfTheWholeFleetInOneScheduleRunMarksNoDevice) {
  History(1.0e-4, "", true);
  // The next night every GPU is 3 % slower: the first GPUs to finish must not be judged against
  // the others' runs of the night before.
  Night(1.03e-4, AddScheduleRun(), "");
  EXPECT_EQ(Outliers(), 0);
}

TEST_F(FleetNightTest, AChangeOfTheWholeFleetWithANewBuildMarksNoDeviceWithoutASchedule) {
  History(1.0e-4, "abc123", false);
  Night(1.03e-4, 0, "def456");
  EXPECT_EQ(Outliers(), 0);
}

TEST_F(FleetNightTest, OneDeviceFivePercentSlowerAmongEightIsAnOutlier) {
  History(1.0e-4, "", true);
  Night(1.0e-4, AddScheduleRun(), "", /*slow_device=*/5, /*slow_median=*/1.05e-4);
  pqxx::result r = Sql("SELECT device_uuid, change FROM regression WHERE kind = 'OUTLIER'");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), FleetNightGpu(5));
  EXPECT_NEAR(r[0][1].as<double>(), 0.05, 0.005);
}

TEST_F(FleetNightTest, OneSlowDeviceIsFoundWithoutAScheduleToo) {
  History(1.0e-4, "abc123", false);
  Night(1.0e-4, 0, "abc123", /*slow_device=*/2, /*slow_median=*/1.06e-4);
  pqxx::result r = Sql("SELECT device_uuid FROM regression WHERE kind = 'OUTLIER'");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), FleetNightGpu(2));
}

// A rolling upgrade: three of the eight GPUs run a new build in the same schedule run, 6 %
// slower. That is the software's change (the incident's to name), not three sick GPUs; with every
// build as peers the night gave 5 OUTLIER rows (the three new-build GPUs 5.8 % slower, and two
// old-build GPUs analysed early 5.5 % faster than the peers then finished), and two such nights
// three DEGRADED verdicts.
TEST_F(FleetNightTest, GpusOnAnotherBuildInTheSameScheduleRunAreNotEachOthersPeers) {
  History(1.0e-4, "", true);
  ExpireModelNoise();
  const int64_t schedule_run = AddScheduleRun();
  for (int i = 0; i < kFleetNightDevices; ++i) {
    RunOptions options = OnDevice(FleetNightGpu(i));
    options.schedule_run_id = schedule_run;
    const bool upgraded = i % 3 == 0;  // GPUs 0, 3, 6
    options.git_sha = upgraded ? "new-build" : "";
    AddRun({Copy(1.0e-4 * (upgraded ? 1.06 : 1 + 0.001 * (i % 3)))}, options);
    ASSERT_EQ(AnalyzeAll(), 1);
  }
  EXPECT_EQ(Outliers(), 0);
  // The five old-build GPUs were still compared with each other; the three new-build ones had
  // too few peers of their build.
  EXPECT_EQ(Sql("SELECT count(*) FROM fleet_judged_run").at(0).at(0).as<int>(), 5);
}

// A schedule fires its night's 8 jobs at once; the runs finish one by one. The first three
// happen to include the night's two fast GPUs (3 % faster than the other six): against them
// alone GPUs 0 and 3 read 3.1 % slower.
class ScheduledNightTest : public FleetNightTest {
 protected:
  void FiredNight(const std::vector<double>& medians, int never_finishes = -1) {
    ExpireModelNoise();
    const int64_t schedule_run = AddScheduleRun();
    std::vector<int64_t> jobs;
    for (size_t i = 0; i < medians.size(); ++i) {
      jobs.push_back(Sql("INSERT INTO job (spec, state, max_attempts, schedule_run_id)"
                         " VALUES ('{}', 'QUEUED', 1, $1) RETURNING id",
                         schedule_run)
                         .at(0)
                         .at(0)
                         .as<int64_t>());
    }
    for (size_t i = 0; i < medians.size(); ++i) {
      if (static_cast<int>(i) == never_finishes) continue;
      RunOptions options = OnDevice(FleetNightGpu(static_cast<int>(i)));
      options.job_id = jobs[i];
      AddRun({Copy(medians[i])}, options);
      Sql("UPDATE job SET state = 'SUCCEEDED' WHERE id = $1", jobs[i]);
      ASSERT_EQ(AnalyzeAll(), 1);
    }
  }
  int SlowerOutliers() { return Count("kind = 'OUTLIER' AND change > 0"); }
  const std::vector<double> kEarlyFast = {1.0e-4, 0.97e-4, 0.97e-4, 1.0e-4,
                                          1.0e-4, 1.001e-4, 1.0e-4, 1.001e-4};
};

TEST_F(ScheduledNightTest, NoGpuIsJudgedAgainstTheFirstFewRunsOfItsNight) {
  History(1.0e-4, "", true);
  FiredNight(kEarlyFast);
  EXPECT_EQ(SlowerOutliers(), 0);
  EXPECT_EQ(Count("kind = 'OUTLIER' AND change < 0"), 2);  // the two fast ones, against all
}

TEST_F(ScheduledNightTest, JudgingFromTheFirstFourRunsMarksGpusSlowerThanTheEarlyFastOnes) {
  config_.fleet_min_night_share = 0;  // the rule before: judged from 4 GPUs on
  History(1.0e-4, "", true);
  FiredNight(kEarlyFast);
  EXPECT_EQ(SlowerOutliers(), 2);  // GPUs 0 and 3, against GPUs 0-3 alone
}

TEST_F(ScheduledNightTest, AJobThatNeverRunsDoesNotKeepTheNightFromBeingJudged) {
  History(1.0e-4, "", true);
  std::vector<double> medians(kFleetNightDevices, 1.0e-4);
  medians[5] = 1.06e-4;
  FiredNight(medians, /*never_finishes=*/7);
  pqxx::result r = Sql("SELECT device_uuid FROM regression WHERE kind = 'OUTLIER'");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), FleetNightGpu(5));
}

// The GPU health verdict tells a run seen clean from one not looked at by these rows. The
// night's first runs are compared only when its later runs are analysed.
TEST_F(FleetNightTest, EveryRunOfAComparedNightRecordsWhatTheFleetViewComparedOfIt) {
  History(1.0e-4, "", true);
  EXPECT_EQ(Sql("SELECT count(*) FROM fleet_judged_run").at(0).at(0).as<int>(), 0)
      << "the first two nights had no between-run noise to compare with";
  Night(1.0e-4, AddScheduleRun(), "");
  pqxx::result r = Sql(
      "SELECT f.cases, array_to_string(f.families, ','), m.family FROM run r"
      " JOIN fleet_judged_run f ON f.run_id = r.id JOIN measurement m ON m.run_id = r.id"
      " WHERE r.id > (SELECT max(id) - 8 FROM run) ORDER BY r.id");
  ASSERT_EQ(r.size(), static_cast<size_t>(kFleetNightDevices));
  for (const auto& row : r) {
    EXPECT_EQ(row[0].as<int>(), 1);
    EXPECT_EQ(row[1].as<std::string>(), row[2].as<std::string>());
  }
  // Each row written once: the first four runs by the fourth run's analysis (the first with 4
  // devices), each later run by its own; the later analyses, each with a loop of its own as
  // another replica's would be, send the earlier runs again and leave them unwritten.
  EXPECT_EQ(Sql("SELECT count(DISTINCT xmin::text) FROM fleet_judged_run").at(0).at(0).as<int>(),
            kFleetNightDevices - 3);
}

}  // namespace
}  // namespace warpwatch::server::testing
