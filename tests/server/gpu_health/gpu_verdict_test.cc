// The verdict of one GPU from a history built in memory (server/gpu_health/gpu_verdict.h):
// hysteresis across subsystems, clocks, repairs, exclusions and the fingerprint.
#include "server/gpu_health/gpu_verdict.h"

#include <gtest/gtest.h>

#include <set>

namespace warpwatch::server::gpu_health {
namespace {

using std::chrono::hours;

class GpuVerdictTest : public ::testing::Test {
 protected:
  // A judged run `nights_ago` nights before now_ of 8 GPUs, measuring memory and arithmetic.
  RunSummary Run(int nights_ago) {
    RunSummary r;
    r.run_id = ++next_run_;
    r.started_at = now_ - hours(24 * nights_ago);
    r.night_devices = 8;
    r.sm_clock_mhz = r.night_sm_clock_mhz = 1980;
    r.fleet_judged_families = {"memory.coalescing", "instr.arithmetic", "shared.transpose"};
    r.fleet_judged_cases = 9;
    return r;
  }
  static void Slow(RunSummary& r, const std::string& family, double change, int cases = 3) {
    for (int i = 0; i < cases; ++i) {
      r.outliers.push_back({family + "/v" + std::to_string(i), family, change + 0.001 * i, 9});
    }
  }
  v1::GpuHealth Decide() {
    history_.device_uuid = "GPU-1";
    return DecideGpuHealth(history_, policy_, now_);
  }

  TimePoint now_ = TimePoint(std::chrono::seconds(1800000000));
  HealthPolicy policy_;
  GpuHistory history_;
  int64_t next_run_ = 0;
};

TEST_F(GpuVerdictTest, TwoSickRunsOfDifferentSubsystemsChangeNothing) {
  history_.runs = {Run(3), Run(2), Run(1)};
  Slow(history_.runs[1], "memory.coalescing", 0.07);
  Slow(history_.runs[2], "instr.arithmetic", 0.07);
  EXPECT_EQ(Decide().state(), v1::GPU_HEALTH_STATE_HEALTHY);
}

// Four H200s first measured on 2026-11-27 read "healthy since 2026-11-13" (the window's start).
TEST_F(GpuVerdictTest, AHealthyGpuIsHealthySinceItsFirstJudgedRun) {
  history_.runs = {Run(3), Run(2), Run(1)};
  history_.runs[0].night_devices = 2;  // too few peers: not judged
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  EXPECT_EQ(health.since().seconds(), std::chrono::duration_cast<std::chrono::seconds>(
                                          history_.runs[1].started_at.time_since_epoch())
                                          .count());
}

TEST_F(GpuVerdictTest, OneOutlierCaseOfASubsystemIsNotASickSubsystem) {
  history_.runs = {Run(2), Run(1)};
  Slow(history_.runs[0], "memory.coalescing", 0.07, /*cases=*/1);
  Slow(history_.runs[1], "memory.coalescing", 0.07, /*cases=*/1);
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  EXPECT_EQ(health.evidence_size(), 0);
}

TEST_F(GpuVerdictTest, AFailingRunAfterADegradedOneIsDegradedUntilItFailsTwice) {
  history_.runs = {Run(3), Run(2)};
  Slow(history_.runs[0], "memory.coalescing", 0.07);
  Slow(history_.runs[1], "memory.coalescing", 0.30);
  EXPECT_EQ(Decide().state(), v1::GPU_HEALTH_STATE_DEGRADED);
  history_.runs.push_back(Run(1));
  Slow(history_.runs[2], "memory.coalescing", 0.30);
  EXPECT_EQ(Decide().state(), v1::GPU_HEALTH_STATE_FAILING);
}

TEST_F(GpuVerdictTest, AClockFarUnderItsNightsIsTheClocksFingerprint) {
  history_.runs = {Run(2), Run(1)};
  for (RunSummary& r : history_.runs) r.sm_clock_mhz = 1410;
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_FAILING);  // 28.8 % under: past 20 %
  ASSERT_EQ(health.evidence_size(), 1);
  EXPECT_EQ(health.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING);
  EXPECT_NE(health.fingerprint().find("SM clock 1410 MHz against 1980 MHz on its night (-28.8 %)"),
            std::string::npos)
      << health.fingerprint();
}

TEST_F(GpuVerdictTest, AThrottlingGpuAmongUnthrottledPeersIsDegraded) {
  history_.runs = {Run(2), Run(1)};
  for (RunSummary& r : history_.runs) {
    r.throttled_share = 0.6;
    r.night_throttled_share = 0.0;
  }
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_DEGRADED);
  EXPECT_NE(health.fingerprint().find("most cases throttled"), std::string::npos);
}

TEST_F(GpuVerdictTest, ARepairDropsTheEvidenceBeforeIt) {
  history_.runs = {Run(3), Run(2)};
  Slow(history_.runs[0], "memory.coalescing", 0.07);
  Slow(history_.runs[1], "memory.coalescing", 0.07);
  ASSERT_EQ(Decide().state(), v1::GPU_HEALTH_STATE_DEGRADED);
  history_.marks.push_back(
      {v1::GPU_HEALTH_ACTION_REPAIRED, "alice", "reseated the card", now_ - hours(30)});
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY) << health.DebugString();
  EXPECT_EQ(health.repaired().actor(), "alice");
  EXPECT_EQ(health.repaired().note(), "reseated the card");
  EXPECT_EQ(health.evidence_size(), 0);
}

TEST_F(GpuVerdictTest, AnExcludedGpuIsUnknownWithWhoAndWhyAndKeepsItsComputedState) {
  history_.runs = {Run(3), Run(2)};
  Slow(history_.runs[0], "memory.coalescing", 0.07);
  Slow(history_.runs[1], "memory.coalescing", 0.07);
  history_.marks.push_back({v1::GPU_HEALTH_ACTION_EXCLUDED, "bob", "RMA ticket 42", now_});
  v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_UNKNOWN);
  EXPECT_EQ(health.computed_state(), v1::GPU_HEALTH_STATE_DEGRADED);
  EXPECT_NE(health.reason().find("excluded by bob"), std::string::npos) << health.reason();
  EXPECT_NE(health.reason().find("RMA ticket 42"), std::string::npos) << health.reason();

  history_.marks.push_back({v1::GPU_HEALTH_ACTION_INCLUDED, "bob", "back", now_});
  health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_DEGRADED);
  EXPECT_FALSE(health.has_excluded());
}

// Four H200s (docs/results/gpu_health_h200x4.md): after two sick nights and one clean one the GPU
// stays FAILING (hysteresis) and its fingerprint listed every subsystem both as sick and as normal.
TEST_F(GpuVerdictTest, AnEpisodeThatEndedOnTheNewestRunSaysSoAndIsNotAlsoListedNormal) {
  history_.runs = {Run(3), Run(2), Run(1)};
  Slow(history_.runs[0], "memory.coalescing", 0.30);
  Slow(history_.runs[1], "memory.coalescing", 0.30);
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_FAILING);
  ASSERT_EQ(health.evidence_size(), 1);
  EXPECT_FALSE(health.evidence(0).ongoing());
  const std::string& f = health.fingerprint();
  EXPECT_NE(f.find("HBM bandwidth: 3 cases"), std::string::npos) << f;
  EXPECT_NE(f.find("for 2 runs since"), std::string::npos) << f;
  EXPECT_NE(f.find("normal again on the newest run"), std::string::npos) << f;
  const size_t normal = f.find("normal: ");
  ASSERT_NE(normal, std::string::npos) << f;
  EXPECT_EQ(f.find("HBM bandwidth", normal), std::string::npos) << f;
  EXPECT_NE(f.find("SM arithmetic", normal), std::string::npos) << f;
}

TEST_F(GpuVerdictTest, TheFingerprintCountsEverySickCaseNotOnlyTheTwentyItLists) {
  history_.runs = {Run(2), Run(1)};
  Slow(history_.runs[0], "memory.coalescing", 0.07, /*cases=*/25);
  Slow(history_.runs[1], "memory.coalescing", 0.07, /*cases=*/25);
  const v1::GpuHealth health = Decide();
  ASSERT_EQ(health.evidence_size(), 1);
  EXPECT_EQ(health.evidence(0).cases_size(), 20);
  EXPECT_EQ(health.evidence(0).total_cases(), 25);
  EXPECT_NE(health.fingerprint().find("HBM bandwidth: 25 cases"), std::string::npos)
      << health.fingerprint();
}

TEST_F(GpuVerdictTest, TheSickestSubsystemComesFirst) {
  history_.runs = {Run(2), Run(1)};
  for (RunSummary& r : history_.runs) {
    Slow(r, "memory.coalescing", 0.06);
    Slow(r, "instr.arithmetic", 0.12);
  }
  const v1::GpuHealth health = Decide();
  ASSERT_EQ(health.evidence_size(), 2);
  EXPECT_EQ(health.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_SM_ARITHMETIC);
  EXPECT_NEAR(health.evidence(0).median_change(), 0.121, 1e-9);
  EXPECT_EQ(health.evidence(1).subsystem(), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_LT(health.fingerprint().find("SM arithmetic"), health.fingerprint().find("HBM bandwidth"))
      << health.fingerprint();
}

// A new fleet's first nights: enough GPUs, but the fleet view waits for the cases' between-run
// noise, so nothing was compared; those runs were not seen healthy.
TEST_F(GpuVerdictTest, RunsTheFleetViewComparedNothingOfAreNotJudged) {
  history_.runs = {Run(2), Run(1)};
  for (RunSummary& r : history_.runs) {
    r.fleet_judged_cases = 0;
    r.fleet_judged_families.clear();
  }
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_UNKNOWN);
  EXPECT_EQ(health.judged_runs(), 0);
  EXPECT_NE(health.reason().find("the fleet view compared none of its newest run's cases with its "
                                 "8 same-night GPUs"),
            std::string::npos)
      << health.reason();

  history_.runs.push_back(Run(0));  // the third night is compared
  const v1::GpuHealth later = Decide();
  EXPECT_EQ(later.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  EXPECT_EQ(later.judged_runs(), 1);
  EXPECT_EQ(later.since().seconds(), std::chrono::duration_cast<std::chrono::seconds>(
                                         history_.runs[2].started_at.time_since_epoch())
                                         .count());
}

// Throttled points are left out of the fleet view; the clocks still judge the run.
TEST_F(GpuVerdictTest, SickClocksJudgeARunTheFleetViewCouldNotCompare) {
  history_.runs = {Run(2), Run(1)};
  for (RunSummary& r : history_.runs) {
    r.fleet_judged_cases = 0;
    r.fleet_judged_families.clear();
    r.sm_clock_mhz = 1880;  // 5 % under its night's 1980 MHz
  }
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_DEGRADED) << health.DebugString();
  EXPECT_EQ(health.judged_runs(), 2);
  ASSERT_EQ(health.evidence_size(), 1);
  EXPECT_EQ(health.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING);
}

// "normal" lists what was compared, not what was measured.
TEST_F(GpuVerdictTest, OnlySubsystemsTheFleetViewComparedAreNormal) {
  history_.runs = {Run(1)};
  history_.runs[0].fleet_judged_families = {"instr.arithmetic"};
  history_.runs[0].fleet_judged_cases = 3;
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  std::set<int> normal(health.normal().begin(), health.normal().end());
  EXPECT_EQ(normal, (std::set<int>{v1::GPU_SUBSYSTEM_SM_ARITHMETIC,
                                   v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING}));
}

// Found by the virtual-fleet study (docs/results/health_false_alarms.md): the state stayed
// DEGRADED (one clean run is not two) while the evidence, the newest episode, was one run long.
TEST_F(GpuVerdictTest, ADegradedStateKeepsTheEpisodeThatMadeItWhenAShorterOneFollowed) {
  history_.runs = {Run(5), Run(4), Run(3), Run(2), Run(1)};  // sick, sick, clean, sick, clean
  for (int i : {0, 1, 3}) Slow(history_.runs[i], "memory.coalescing", 0.07);
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_DEGRADED);
  ASSERT_EQ(health.evidence_size(), 1) << health.DebugString();
  EXPECT_EQ(health.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(health.evidence(0).runs(), 2);
  EXPECT_FALSE(health.evidence(0).ongoing());
  EXPECT_NE(health.fingerprint().find("HBM bandwidth: 3 cases"), std::string::npos)
      << health.fingerprint();

  history_.runs.push_back(Run(0));  // a second clean run in a row: healthy, no evidence
  const v1::GpuHealth healthy = Decide();
  EXPECT_EQ(healthy.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  EXPECT_EQ(healthy.evidence_size(), 0) << healthy.DebugString();
}

TEST_F(GpuVerdictTest, AGpuWithNoRunIsUnknown) {
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_UNKNOWN);
  EXPECT_EQ(health.reason(), "no analysed run in the window");
}

}  // namespace
}  // namespace warpwatch::server::gpu_health
