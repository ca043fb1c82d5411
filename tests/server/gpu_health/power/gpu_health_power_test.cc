// Tests of the health power study's machinery: it can see a sick GPU, it ignores a fleet-wide
// change, it resamples whole runs, and its pool, rates and file reading do what they say.
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

TEST(HealthPowerTest, OneGpuSlowerOnItsHbmFamiliesForThreeNightsIsDegradedWithThatSubsystem) {
  const RunPool pool = SyntheticPool();
  FleetOptions o = EightGpus();
  o.fault.gpus = {0};
  o.fault.from_night = 5;
  o.fault.subsystem = v1::GPU_SUBSYSTEM_HBM_BANDWIDTH;
  o.fault.slowdown = 0.15;
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
  FleetOptions o = EightGpus();
  o.fault.gpus = {0};
  o.fault.from_night = 7;
  o.fault.subsystem = v1::GPU_SUBSYSTEM_HBM_BANDWIDTH;
  o.fault.slowdown = 0.15;
  const std::vector<v1::GpuHealth> verdicts = VerdictsAfter(pool, o, 8);
  EXPECT_EQ(verdicts[0].state(), v1::GPU_HEALTH_STATE_HEALTHY);
  ASSERT_GT(verdicts[0].evidence_size(), 0);  // watching
  EXPECT_TRUE(verdicts[0].evidence(0).ongoing());
}

TEST(HealthPowerTest, AFleetWideSlowdownDegradesNoGpu) {
  const RunPool pool = SyntheticPool();
  FleetOptions o = EightGpus();
  for (int i = 0; i < o.gpus; ++i) o.fault.gpus.push_back(i);
  o.fault.from_night = 5;
  o.fault.subsystem = v1::GPU_SUBSYSTEM_HBM_BANDWIDTH;
  o.fault.slowdown = 0.15;
  const std::vector<v1::GpuHealth> verdicts = VerdictsAfter(pool, o, 8);
  for (size_t i = 0; i < verdicts.size(); ++i) {
    EXPECT_EQ(verdicts[i].state(), v1::GPU_HEALTH_STATE_HEALTHY) << "GPU " << i;
    EXPECT_EQ(verdicts[i].evidence_size(), 0) << "GPU " << i;
  }
}

TEST(HealthPowerTest, AnOutlierSeenByEveryGrowingViewOfItsNightIsReportedOnce) {
  const RunPool pool = SyntheticPool();
  FleetOptions o = EightGpus();
  o.fault.gpus = {0};
  o.fault.from_night = 4;
  o.fault.subsystem = v1::GPU_SUBSYSTEM_HBM_BANDWIDTH;
  o.fault.slowdown = 0.15;
  VirtualFleet fleet(pool, o);
  for (int n = 0; n < 5; ++n) fleet.RunNight();
  const RunSummary& run = fleet.histories()[0].runs.back();
  ASSERT_EQ(run.outliers.size(), 12u);  // each HBM case once, however many views saw it
  for (const CaseOutlier& c : run.outliers) {
    EXPECT_EQ(SubsystemOfFamily(c.family), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH) << c.case_key;
    EXPECT_GT(c.change, 0.10) << c.case_key;
  }
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
