// Tests of the health power study's machinery: it can see a sick GPU, it ignores a fleet-wide
// change, it resamples whole runs, it judges a night from the share of its runs it is told, and
// its pool, rates and file reading do what they say.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "server/gpu_health/gpu_verdict.h"
#include "server/gpu_health/health_policy.h"
#include "server/gpu_health/subsystem_map.h"
#include "tests/server/gpu_health/power/night_views.h"
#include "tests/server/gpu_health/power/proportion.h"
#include "tests/server/gpu_health/power/run_files.h"
#include "tests/server/gpu_health/power/run_pool.h"
#include "tests/server/gpu_health/power/virtual_fleet.h"

namespace warpwatch::server::gpu_health::power {
namespace {

using detect::power::FixtureRun;

// Families of three subsystems, four cases each: HBM bandwidth, PCIe transfers, SM arithmetic.
const std::vector<std::string> kFamilies = {"memory.coalescing",    "memory.alignment", "reduce",
                                            "transfer.host_device", "memory.managed",   "matmul"};

// `runs_per_gpu` runs of each of `gpus` GPUs: GPU g is (1 + offset * g) slower on every case,
// each run's medians wander by N(0, noise) (4 x that on the host-side families).
std::vector<FixtureRun> SyntheticRuns(int gpus, int runs_per_gpu, double offset, double noise,
                                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::vector<FixtureRun> runs;
  for (int g = 0; g < gpus; ++g) {
    for (int r = 0; r < runs_per_gpu; ++r) {
      FixtureRun run;
      run.device_uuid = "GPU-" + std::to_string(g);
      run.path = "run_" + std::to_string(r) + "_g" + std::to_string(g);
      for (const std::string& family : kFamilies) {
        const bool host = family == "transfer.host_device" || family == "memory.managed";
        for (int v = 0; v < 4; ++v) {
          detect::CasePoint c;
          c.case_key = family + "/v?n=" + std::to_string(v);
          c.point.device_uuid = run.device_uuid;
          c.point.ok = true;
          c.point.verified = true;
          c.point.median_seconds =
              1e-3 * (v + 1) * (1 + offset * g) * (1 + (host ? 4 : 1) * noise * normal(rng));
          run.cases.push_back(c);
        }
      }
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

RunPool SyntheticPool() {
  StatusOr<RunPool> pool = BuildRunPool(SyntheticRuns(4, 6, 0.002, 0.002, 7), true);
  EXPECT_TRUE(pool.ok()) << pool.status().ToString();
  return *pool;
}

// The verdicts of every GPU after `nights` nights of `options`.
std::vector<v1::GpuHealth> VerdictsAfter(const RunPool& pool, const FleetOptions& options,
                                         int nights) {
  VirtualFleet fleet(pool, options);
  for (int n = 0; n < nights; ++n) fleet.RunNight();
  const TimePoint now = fleet.NightStart(nights - 1) + std::chrono::hours(1);
  std::vector<v1::GpuHealth> out;
  for (const GpuHistory& h : fleet.histories())
    out.push_back(DecideGpuHealth(h, HealthPolicy(), now));
  return out;
}

FleetOptions EightGpus() {
  FleetOptions o;
  o.gpus = 8;
  o.seed = 11;
  return o;
}

// Eight GPUs, `gpus` of them 15 % slower on every HBM-bandwidth case from night `from_night` on.
FleetOptions EightGpusWithHbmFault(std::vector<int> gpus, int from_night) {
  FleetOptions o = EightGpus();
  o.fault.gpus = std::move(gpus);
  o.fault.from_night = from_night;
  o.fault.subsystem = v1::GPU_SUBSYSTEM_HBM_BANDWIDTH;
  o.fault.slowdown = 0.15;
  return o;
}

TEST(HealthPowerTest, OneGpuSlowerOnItsHbmFamiliesForThreeNightsIsDegradedWithThatSubsystem) {
  const RunPool pool = SyntheticPool();
  const FleetOptions o = EightGpusWithHbmFault({0}, 5);
  const std::vector<v1::GpuHealth> verdicts = VerdictsAfter(pool, o, 8);
  ASSERT_EQ(verdicts[0].state(), v1::GPU_HEALTH_STATE_DEGRADED) << verdicts[0].DebugString();
  ASSERT_GT(verdicts[0].evidence_size(), 0);
  EXPECT_EQ(verdicts[0].evidence(0).subsystem(), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(verdicts[0].evidence(0).total_cases(), 12);  // the 3 HBM families' 4 cases each
  for (size_t i = 1; i < verdicts.size(); ++i) {
    EXPECT_EQ(verdicts[i].state(), v1::GPU_HEALTH_STATE_HEALTHY) << "GPU " << i;
  }
}

TEST(HealthPowerTest, OneBadNightOfOneGpuChangesNoVerdict) {
  const RunPool pool = SyntheticPool();
  const FleetOptions o = EightGpusWithHbmFault({0}, 7);
  const std::vector<v1::GpuHealth> verdicts = VerdictsAfter(pool, o, 8);
  EXPECT_EQ(verdicts[0].state(), v1::GPU_HEALTH_STATE_HEALTHY);
  ASSERT_GT(verdicts[0].evidence_size(), 0);  // watching
  EXPECT_TRUE(verdicts[0].evidence(0).ongoing());
}

TEST(HealthPowerTest, AFleetWideSlowdownDegradesNoGpu) {
  const RunPool pool = SyntheticPool();
  const FleetOptions o = EightGpusWithHbmFault({0, 1, 2, 3, 4, 5, 6, 7}, 5);
  const std::vector<v1::GpuHealth> verdicts = VerdictsAfter(pool, o, 8);
  for (size_t i = 0; i < verdicts.size(); ++i) {
    EXPECT_EQ(verdicts[i].state(), v1::GPU_HEALTH_STATE_HEALTHY) << "GPU " << i;
    EXPECT_EQ(verdicts[i].evidence_size(), 0) << "GPU " << i;
  }
}

TEST(HealthPowerTest, AnOutlierSeenByEveryGrowingViewOfItsNightIsReportedOnce) {
  const RunPool pool = SyntheticPool();
  const FleetOptions o = EightGpusWithHbmFault({0}, 4);
  VirtualFleet fleet(pool, o);
  for (int n = 0; n < 5; ++n) fleet.RunNight();
  const RunSummary& run = fleet.histories()[0].runs.back();
  ASSERT_EQ(run.outliers.size(), 12u);  // each HBM case once, however many views saw it
  for (const CaseOutlier& c : run.outliers) {
    EXPECT_EQ(SubsystemOfFamily(c.family), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH) << c.case_key;
    EXPECT_GT(c.change, 0.10) << c.case_key;
  }
}

// One case's night of 32 runs in arrival order: the first three at 1.000 s +- 0.1 %, the 4th
// 6 % slower than them, the 28 later ones spread evenly over 0.94-1.08 s, so that the 4th is an
// outlier against the first 4 arrivals only (against all 32 it is 1.3 robust sigmas out).
std::vector<detect::RunPoint> NightWhoseFourthRunStandsOutOnlyEarly() {
  std::vector<double> medians = {1.000, 1.001, 0.999, 1.060};
  for (int k = 0; k < 28; ++k) medians.push_back(0.94 + 0.14 * k / 27.0);
  std::vector<detect::RunPoint> night;
  for (size_t a = 0; a < medians.size(); ++a) {
    detect::RunPoint p;
    p.run_id = 100 + static_cast<int64_t>(a);
    p.device_uuid = "GPU-" + std::to_string(a);
    p.median_seconds = medians[a];
    p.ok = true;
    p.verified = true;
    p.sm_clock_mhz = 1980;
    night.push_back(p);
  }
  return night;
}

constexpr double kCaseNoise = 0.005;

TEST(HealthPowerTest, ARunOutlyingOnlyTheFirstFourArrivalsIsFlaggedByTodaysRule) {
  const NightJudgement today =
      JudgeArrivals(NightWhoseFourthRunStandsOutOnlyEarly(), FirstJudgingView(0, 32),
                    detect::FleetConfig(), kCaseNoise);
  ASSERT_TRUE(today.outlier[3].has_value());
  EXPECT_EQ(today.outlier[3]->direction, detect::Verdict::kSlower);
  EXPECT_NEAR(today.outlier[3]->change, 0.06, 0.002);  // as the view of 4 runs wrote it
}

TEST(HealthPowerTest, ARunOutlyingOnlyTheFirstFourArrivalsIsNotFlaggedWhenJudgedFromAllRuns) {
  const NightJudgement complete =
      JudgeArrivals(NightWhoseFourthRunStandsOutOnlyEarly(), FirstJudgingView(1.0, 32),
                    detect::FleetConfig(), kCaseNoise);
  EXPECT_TRUE(complete.judged[3]);
  EXPECT_FALSE(complete.outlier[3].has_value());
  for (size_t a = 0; a < complete.outlier.size(); ++a) {
    EXPECT_FALSE(complete.outlier[a].has_value()) << "arrival " << a;
  }
}

TEST(HealthPowerTest, JudgedFromHalfTheNightTheFirstArrivalsAreJudgedByTheLaterViews) {
  const std::vector<detect::RunPoint> night = NightWhoseFourthRunStandsOutOnlyEarly();
  const NightJudgement half =
      JudgeArrivals(night, FirstJudgingView(0.5, 32), detect::FleetConfig(), kCaseNoise);
  for (size_t a = 0; a < night.size(); ++a) EXPECT_TRUE(half.judged[a]) << "arrival " << a;
  EXPECT_FALSE(half.outlier[3].has_value());
}

TEST(HealthPowerTest, NoViewBeforeTheFirstJudgingOneJudges) {
  const std::vector<detect::RunPoint> night = NightWhoseFourthRunStandsOutOnlyEarly();
  const std::vector<detect::RunPoint> first_four(night.begin(), night.begin() + 4);
  EXPECT_TRUE(JudgeArrivals(first_four, 4, detect::FleetConfig(), kCaseNoise).judged[0]);
  const NightJudgement early = JudgeArrivals(first_four, 5, detect::FleetConfig(), kCaseNoise);
  for (size_t a = 0; a < first_four.size(); ++a) EXPECT_FALSE(early.judged[a]) << "arrival " << a;
}

TEST(HealthPowerTest, TheFirstJudgingViewIsTheShareOfTheNightRoundedUp) {
  EXPECT_EQ(FirstJudgingView(0, 32), 1u);
  EXPECT_EQ(FirstJudgingView(0.5, 8), 4u);
  EXPECT_EQ(FirstJudgingView(0.75, 8), 6u);
  EXPECT_EQ(FirstJudgingView(0.9, 32), 29u);
  EXPECT_EQ(FirstJudgingView(0.9, 128), 116u);
  EXPECT_EQ(FirstJudgingView(1.0, 128), 128u);
}

TEST(HealthPowerTest, JudgingFromTheWholeNightIsTheCompleteNightsOneView) {
  const RunPool pool = SyntheticPool();
  FleetOptions from_all = EightGpusWithHbmFault({0}, 5);
  from_all.fault.slowdown = 0.04;
  from_all.judge_from = 1.0;
  FleetOptions complete = from_all;
  complete.judge_from = 0;
  complete.growing_night = false;
  VirtualFleet a(pool, from_all), b(pool, complete);
  for (int n = 0; n < 8; ++n) {
    a.RunNight();
    b.RunNight();
  }
  for (size_t i = 0; i < 8; ++i) {
    const std::vector<RunSummary>& x = a.histories()[i].runs;
    const std::vector<RunSummary>& y = b.histories()[i].runs;
    ASSERT_EQ(x.size(), y.size());
    for (size_t r = 0; r < x.size(); ++r) {
      EXPECT_EQ(x[r].fleet_judged_cases, y[r].fleet_judged_cases) << "GPU " << i << " run " << r;
      ASSERT_EQ(x[r].outliers.size(), y[r].outliers.size()) << "GPU " << i << " run " << r;
      for (size_t k = 0; k < x[r].outliers.size(); ++k) {
        EXPECT_EQ(x[r].outliers[k].case_key, y[r].outliers[k].case_key);
        EXPECT_DOUBLE_EQ(x[r].outliers[k].z, y[r].outliers[k].z);
      }
    }
  }
  EXPECT_FALSE(a.histories()[0].runs.back().outliers.empty());  // the comparison saw outliers
}

TEST(HealthPowerTest, EachGpuNightTakesEveryCaseFromOneWholeRealRun) {
  const RunPool pool = SyntheticPool();
  VirtualFleet fleet(pool, EightGpus());
  for (int night = 0; night < 3; ++night) {
    fleet.RunNight();
    for (size_t i = 0; i < 8; ++i) {
      const int r = fleet.drawn_runs()[i];
      ASSERT_GE(r, 0);
      for (size_t c = 0; c < pool.case_keys.size(); ++c) {
        const double expected = pool.reference_seconds[c] * (1 + fleet.offsets()[i][c]) *
                                (1 + pool.runs[r].residual[c]);
        EXPECT_DOUBLE_EQ(fleet.medians()[i][c], expected) << "GPU " << i << " case " << c;
      }
    }
  }
}

TEST(HealthPowerTest, AFaultRunReplacesTheFaultyGpusDrawFromItsNightOn) {
  const RunPool pool = SyntheticPool();
  FleetOptions o = EightGpus();
  o.fault.gpus = {3};
  o.fault.from_night = 1;
  o.fault.runs = {pool.runs[5], pool.runs[9]};
  VirtualFleet fleet(pool, o);
  fleet.RunNight();
  EXPECT_GE(fleet.drawn_runs()[3], 0);
  fleet.RunNight();
  EXPECT_EQ(fleet.drawn_runs()[3], -1);
  fleet.RunNight();
  EXPECT_EQ(fleet.drawn_runs()[3], -2);
  EXPECT_DOUBLE_EQ(fleet.medians()[3][0], pool.reference_seconds[0] * (1 + fleet.offsets()[3][0]) *
                                              (1 + pool.runs[9].residual[0]));
}

TEST(HealthPowerTest, ANightBeforeTheModelNoiseHasPairsComparesNoCase) {
  const RunPool pool = SyntheticPool();
  VirtualFleet fleet(pool, EightGpus());
  fleet.RunNight();
  EXPECT_TRUE(std::isnan(fleet.case_noise()[0]));
  EXPECT_EQ(fleet.histories()[0].runs.back().fleet_judged_cases, 0);
  fleet.RunNight();
  fleet.RunNight();
  EXPECT_FALSE(std::isnan(fleet.case_noise()[0]));
  EXPECT_EQ(fleet.histories()[0].runs.back().fleet_judged_cases,
            static_cast<int>(pool.case_keys.size()));
  EXPECT_EQ(fleet.histories()[0].runs.back().fleet_judged_families.size(), kFamilies.size());
}

TEST(HealthPowerTest, AHistoryKeepsTheWindowsNewestRuns) {
  const RunPool pool = SyntheticPool();
  FleetOptions o = EightGpus();
  o.window_runs = 3;
  VirtualFleet fleet(pool, o);
  for (int n = 0; n < 5; ++n) fleet.RunNight();
  ASSERT_EQ(fleet.histories()[0].runs.size(), 3u);
  EXPECT_EQ(fleet.histories()[0].runs.front().started_at, fleet.NightStart(2));
}

TEST(HealthPowerTest, OffsetsOfGpusThatDifferOnlyByRunNoiseAreShrunkAway) {
  StatusOr<RunPool> pool = BuildRunPool(SyntheticRuns(4, 6, 0, 0.01, 3), true);
  ASSERT_TRUE(pool.ok());
  double shrunk = 0;
  for (double s : pool->shrink) shrunk += s;
  EXPECT_LT(shrunk / static_cast<double>(pool->shrink.size()), 0.5);
}

TEST(HealthPowerTest, AGpuOffsetWellAboveTheRunNoiseIsKept) {
  StatusOr<RunPool> pool = BuildRunPool(SyntheticRuns(4, 6, 0.02, 0.0005, 3), true);
  ASSERT_TRUE(pool.ok());
  const size_t matmul = pool->case_keys.size() - 1;  // "matmul/..." sorts last
  EXPECT_GT(pool->shrink[matmul], 0.95);
  EXPECT_NEAR(pool->offset_basis[3][matmul] - pool->offset_basis[0][matmul], 0.06 / 1.03, 0.005);
}

TEST(HealthPowerTest, AResidualIsTheRunAgainstItsOwnGpusMedian) {
  std::vector<FixtureRun> runs = SyntheticRuns(2, 3, 0.05, 0, 1);
  runs[1].cases[0].point.median_seconds *= 1.10;  // GPU 0, run 1
  StatusOr<RunPool> pool = BuildRunPool(runs, false);
  ASSERT_TRUE(pool.ok());
  const size_t c = static_cast<size_t>(
      std::find(pool->case_keys.begin(), pool->case_keys.end(), runs[1].cases[0].case_key) -
      pool->case_keys.begin());
  EXPECT_NEAR(pool->runs[1].residual[c], 0.10, 1e-12);
  EXPECT_NEAR(pool->runs[0].residual[c], 0, 1e-12);
  EXPECT_NEAR(pool->runs[4].residual[c], 0, 1e-12);  // GPU 1's runs against GPU 1's median
}

TEST(HealthPowerTest, APoolOfOneGpuIsRefused) {
  EXPECT_FALSE(BuildRunPool(SyntheticRuns(1, 4, 0, 0.01, 1), true).ok());
}

TEST(HealthPowerTest, NoEventGivesTheRuleOfThreeAsTheUpperBound) {
  const Proportion p = RateOf(0, 3000);
  EXPECT_EQ(p.rate, 0);
  EXPECT_DOUBLE_EQ(p.high, 0.001);
}

TEST(HealthPowerTest, TheWilsonBoundsOfTenInAHundredAreTheTextbookOnes) {
  const Proportion p = RateOf(10, 100);
  EXPECT_NEAR(p.low, 0.0552, 5e-4);
  EXPECT_NEAR(p.high, 0.1744, 5e-4);
}

TEST(HealthPowerTest, AGzippedRunIsReadAndItsDecompressedCopyRemoved) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("health_power_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "run_x.json.gz").string();
  const std::string json =
      R"({"started_at": "2026-01-01T02:00:00Z", "environment": {"device": {"uuid": "GPU-A"}},)"
      R"( "measurements": [{"case": {"canonical": "reduce/cub?n=1"}, "status": "POINT_STATUS_OK",)"
      R"( "verified": true, "stats": {"median": 0.002}}]})";
  gzFile out = gzopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzwrite(out, json.data(), static_cast<unsigned>(json.size()));
  gzclose(out);
  const fs::path scratch = dir / "scratch";
  StatusOr<FixtureRun> run = ReadRunFile(path, scratch.string());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->device_uuid, "GPU-A");
  ASSERT_EQ(run->cases.size(), 1u);
  EXPECT_DOUBLE_EQ(run->cases[0].point.median_seconds, 0.002);
  EXPECT_TRUE(fs::is_empty(scratch));
  EXPECT_EQ(ListRunFiles(dir.string(), R"(run_.*\.json\.gz)"), std::vector<std::string>{path});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace warpwatch::server::gpu_health::power
