// GPU health verdicts through the real analysis path on a real PostgreSQL (docs/gpu_health.md):
// 8 GPUs of one model measured in one schedule run a night, each run analysed as it finishes
// (fleet OUTLIER rows), then the verdicts read by the PostgreSQL GpuHealthStore.
#include <gtest/gtest.h>

#include "tests/server/gpu_health/fleet_health_fixture.h"

namespace warpwatch::server::testing {
namespace {

TEST_F(FleetHealthTest, OneGpuSlowOnMemoryForThreeNightsIsDegradedWithTheHbmFingerprint) {
  TwoCleanNights();
  for (int night = 0; night < 3; ++night) SickNight(5, 0.07);

  const v1::GpuHealth sick = Health(5);
  EXPECT_EQ(sick.state(), v1::GPU_HEALTH_STATE_DEGRADED) << sick.DebugString();
  ASSERT_EQ(sick.evidence_size(), 1) << sick.DebugString();
  const v1::GpuSubsystemEvidence& e = sick.evidence(0);
  EXPECT_EQ(e.subsystem(), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(e.runs(), 3);
  EXPECT_EQ(e.cases_size(), 3);  // copy, strided and reduce
  EXPECT_NEAR(e.min_change(), 0.07, 0.01);
  EXPECT_GE(e.max_z(), 3.5);
  EXPECT_EQ(sick.judged_runs(), 3);  // the two clean nights were not compared (no noise yet)
  EXPECT_NE(sick.fingerprint().find("HBM bandwidth: 3 cases"), std::string::npos)
      << sick.fingerprint();
  EXPECT_NE(sick.fingerprint().find("for 3 runs"), std::string::npos) << sick.fingerprint();
  EXPECT_NE(sick.fingerprint().find("normal: SM arithmetic, shared memory"), std::string::npos)
      << sick.fingerprint();
  for (int i = 0; i < kDevices; ++i) {
    if (i == 5) continue;
    const v1::GpuHealth peer = Health(i);
    EXPECT_EQ(peer.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(i) << peer.DebugString();
    EXPECT_EQ(peer.evidence_size(), 0) << Gpu(i) << peer.DebugString();
  }
}

TEST_F(FleetHealthTest, AFleetWideSlowdownDegradesNoGpu) {
  TwoCleanNights();
  for (int night = 0; night < 3; ++night) {
    Night([](int) { return FleetHealthSlowdown{0.07, 0.07}; });
  }
  for (int i = 0; i < kDevices; ++i) {
    const v1::GpuHealth health = Health(i);
    EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(i) << health.DebugString();
    EXPECT_EQ(health.judged_runs(), 3) << Gpu(i);
  }
}

TEST_F(FleetHealthTest, OneBadNightAloneChangesNothing) {
  TwoCleanNights();
  SickNight(2, 0.07);

  const v1::GpuHealth health = Health(2);
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY) << health.DebugString();
  // It is watched: the evidence is there, one run of the two a change needs.
  ASSERT_EQ(health.evidence_size(), 1) << health.DebugString();
  EXPECT_EQ(health.evidence(0).runs(), 1);
  EXPECT_NE(health.fingerprint().find("watching HBM bandwidth"), std::string::npos)
      << health.fingerprint();

  CleanNight();  // and it passes
  const v1::GpuHealth after = Health(2);
  EXPECT_EQ(after.state(), v1::GPU_HEALTH_STATE_HEALTHY) << after.DebugString();
  EXPECT_EQ(after.evidence_size(), 0) << after.DebugString();
}

TEST_F(FleetHealthTest, AGpuWithoutARunForTheExpiryIsUnknown) {
  TwoCleanNights();
  CleanNight();
  const TimePoint now = std::chrono::system_clock::now();
  EXPECT_EQ(Health(0, now).state(), v1::GPU_HEALTH_STATE_HEALTHY);

  const v1::GpuHealth later = Health(0, now + policy_.expiry + std::chrono::hours(1));
  EXPECT_EQ(later.state(), v1::GPU_HEALTH_STATE_UNKNOWN) << later.DebugString();
  EXPECT_NE(later.reason().find("expired: no judged run since"), std::string::npos)
      << later.reason();
}

TEST_F(FleetHealthTest, AGpuSlowByAQuarterOnTwoNightsIsFailing) {
  TwoCleanNights();
  SickNight(1, 0.25);
  SickNight(1, 0.25);
  const v1::GpuHealth health = Health(1);
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_FAILING) << health.DebugString();
  ASSERT_EQ(health.evidence_size(), 1);
  EXPECT_TRUE(health.evidence(0).failing());
}

TEST_F(FleetHealthTest, TwoCleanNightsBringADegradedGpuBack) {
  TwoCleanNights();
  SickNight(3, 0.07);
  SickNight(3, 0.07);
  ASSERT_EQ(Health(3).state(), v1::GPU_HEALTH_STATE_DEGRADED);
  CleanNight();
  EXPECT_EQ(Health(3).state(), v1::GPU_HEALTH_STATE_DEGRADED);  // one clean night: not yet
  CleanNight();
  EXPECT_EQ(Health(3).state(), v1::GPU_HEALTH_STATE_HEALTHY);
}

// The fleet view compares nothing before the cases' between-run noise is known: a new fleet's
// first night was not looked at, and reading "healthy" there would be a verdict without evidence.
TEST_F(FleetHealthTest, ANewFleetIsUnknownUntilTheFleetViewHasComparedItsRuns) {
  CleanNight();
  for (int i = 0; i < kDevices; ++i) {
    const v1::GpuHealth health = Health(i);
    EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_UNKNOWN) << Gpu(i) << health.DebugString();
    EXPECT_EQ(health.judged_runs(), 0) << Gpu(i);
    EXPECT_NE(health.reason().find("the fleet view compared none of its newest run's cases"),
              std::string::npos)
        << health.reason();
  }
  CleanNight();
  CleanNight();
  for (int i = 0; i < kDevices; ++i) {
    const v1::GpuHealth health = Health(i);
    EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(i) << health.DebugString();
    EXPECT_GE(health.judged_runs(), 1) << Gpu(i);
    EXPECT_EQ(health.normal_size(), 4) << Gpu(i) << health.DebugString();  // all it measured
  }
}

// The GPU analysed last in its night has standing own-history findings on the cases that made
// it sick (5 clean nights: its own baseline); its own analysis is the only one left to compare
// them with its peers.
TEST_F(FleetHealthTest, TheLastGpuOfItsNightsIsJudgedOnCasesWithStandingFindings) {
  for (int night = 0; night < 5; ++night) CleanNight();
  const int last = kDevices - 1;
  for (int night = 0; night < 3; ++night) SickNight(last, 0.07);
  ASSERT_EQ(Count("kind = 'REGRESSION' AND state = 'SUSPECTED' AND device_uuid = '" + Gpu(last) +
                  "'"),
            3);  // its own-history findings stand from the first sick night
  const v1::GpuHealth sick = Health(last);
  EXPECT_EQ(sick.state(), v1::GPU_HEALTH_STATE_DEGRADED) << sick.DebugString();
  ASSERT_EQ(sick.evidence_size(), 1) << sick.DebugString();
  EXPECT_EQ(sick.evidence(0).runs(), 3);
  EXPECT_EQ(sick.evidence(0).cases_size(), 3);
}

TEST_F(FleetHealthTest, ANightWithTooFewGpusOfTheModelJudgesNothing) {
  const int64_t schedule_run = AddScheduleRun();
  for (int i = 0; i < 3; ++i) {
    RunOptions options = OnDevice(Gpu(i));
    options.schedule_run_id = schedule_run;
    AddRun({Copy(1e-4 * (i == 0 ? 1.1 : 1.0))}, options);
  }
  ASSERT_EQ(AnalyzeAll(), 3);
  const v1::GpuHealth health = Health(0);
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_UNKNOWN) << health.DebugString();
  EXPECT_NE(health.reason().find("3 GPU(s) of its model, 4 needed"), std::string::npos)
      << health.reason();
}

// A counter job (server/analysis/counter_plan.h) measures a judged run's cases again with the
// counter pass: evidence for explanations, not one more night of its GPU.
TEST_F(FleetHealthTest, ACounterJobsRunIsNotOneOfItsGpusRuns) {
  TwoCleanNights();
  CleanNight();
  const int64_t judged = Sql("SELECT max(id) FROM run WHERE device_uuid = $1", Gpu(0))
                             .at(0).at(0).as<int64_t>();
  RunOptions options = OnDevice(Gpu(0));
  options.job_id = Sql("INSERT INTO job (spec, state, max_attempts, labels) VALUES ('{}',"
                       " 'SUCCEEDED', 1, jsonb_build_object('warpwatch.counters_for_run', $1::text))"
                       " RETURNING id",
                       std::to_string(judged))
                       .at(0).at(0).as<int64_t>();
  AddRun({Copy(1e-4 * 1.3)}, options);  // its clocks or times say nothing of the GPU
  ASSERT_EQ(AnalyzeAll(), 1);
  const gpu_health::GpuHistory history = History(0);
  ASSERT_EQ(history.runs.size(), 3u);  // the three nights
  EXPECT_EQ(history.runs.back().run_id, judged);
}

}  // namespace
}  // namespace warpwatch::server::testing
