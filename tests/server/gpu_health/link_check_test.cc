// The links between a node's GPUs as GPU health evidence (server/gpu_health/link_check.h and
// the interconnect half of JudgeRun): what counts as a loss, how much it costs, and the verdict
// it gives with and without same-night peers.
#include "server/gpu_health/link_check.h"

#include <gtest/gtest.h>

#include "server/gpu_health/gpu_verdict.h"
#include "server/gpu_health/run_judgement.h"

namespace warpwatch::server::gpu_health {
namespace {

using std::chrono::hours;

TEST(LinkCheckTest, FewerNvlinksOrAFallBackToPcieIsWorse) {
  EXPECT_TRUE(LinkWorse({"NV17", 17}, {"NV18", 18}));
  EXPECT_TRUE(LinkWorse({"SYS", 0}, {"NV18", 18}));
  EXPECT_FALSE(LinkWorse({"NV18", 18}, {"NV18", 18}));
  EXPECT_FALSE(LinkWorse({"NV18", 18}, {"NV17", 17}));  // better
  // Without NVLink, the PCIe path: a pair now across sockets that shared a switch.
  EXPECT_TRUE(LinkWorse({"SYS", 0}, {"PIX", 0}));
  EXPECT_FALSE(LinkWorse({"PIX", 0}, {"PXB", 0}));
  // An unknown word is never judged.
  EXPECT_FALSE(LinkWorse({"", 0}, {"PIX", 0}));
  EXPECT_FALSE(LinkWorse({"SYS", 0}, {"", 0}));
}

TEST(LinkCheckTest, TheShareLostIsOfTheReferencesNvlinks) {
  LinkLoss loss;
  loss.nvlinks = 17;
  loss.reference_nvlinks = 18;
  EXPECT_NEAR(LinkLossShare(loss), 1.0 / 18, 1e-12);
  loss.nvlinks = 0;
  EXPECT_EQ(LinkLossShare(loss), 1);
  loss.reference_nvlinks = 0;  // a farther PCIe path: no share to read
  EXPECT_EQ(LinkLossShare(loss), 0);
}

TEST(LinkCheckTest, ALossNamesBothGpusThisOneFirst) {
  LinkLoss loss{2, 0, "GPU-peer", "NV17", 17, "NV18", 18};
  EXPECT_EQ(DescribeLinkLoss(loss),
            "GPU2-GPU0 NV18 -> NV17 (fewer links than seen before; with GPU-peer)");
}

class LinkVerdictTest : public ::testing::Test {
 protected:
  // A run `nights_ago` nights before now_ whose 3 pairs (a 4-GPU node) were all checked.
  RunSummary Run(int nights_ago, int night_devices = 8) {
    RunSummary r;
    r.run_id = ++next_run_;
    r.started_at = now_ - hours(24 * nights_ago);
    r.night_devices = night_devices;
    r.sm_clock_mhz = r.night_sm_clock_mhz = 1980;
    r.fleet_judged_families = {"memory.coalescing"};
    r.fleet_judged_cases = 3;
    r.links_checked = 3;
    return r;
  }
  static void Lose(RunSummary& r, int nvlinks) {
    r.link_losses.push_back(LinkLoss{
        1, 2, "GPU-2", nvlinks == 0 ? "SYS" : "NV" + std::to_string(nvlinks), nvlinks, "NV18", 18});
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

TEST_F(LinkVerdictTest, ALostNvlinkOnTwoRunsIsADegradedInterconnect) {
  history_.runs = {Run(3), Run(2), Run(1)};
  Lose(history_.runs[1], 17);
  Lose(history_.runs[2], 17);
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_DEGRADED) << health.DebugString();
  ASSERT_EQ(health.evidence_size(), 1);
  const v1::GpuSubsystemEvidence& e = health.evidence(0);
  EXPECT_EQ(e.subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
  EXPECT_EQ(e.runs(), 2);
  EXPECT_FALSE(e.failing());
  EXPECT_NEAR(e.max_change(), 1.0 / 18, 1e-9);
  EXPECT_NE(health.fingerprint().find("GPU interconnect: GPU1-GPU2 NV18 -> NV17 (fewer links than"
                                      " seen before; with GPU-2) for 2 runs"),
            std::string::npos)
      << health.fingerprint();
  EXPECT_NE(health.fingerprint().find("normal: HBM bandwidth"), std::string::npos)
      << health.fingerprint();
}

TEST_F(LinkVerdictTest, OneRunWithALostLinkIsWatchedOnly) {
  history_.runs = {Run(2), Run(1)};
  Lose(history_.runs[1], 17);
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  EXPECT_NE(health.fingerprint().find("watching GPU interconnect"), std::string::npos)
      << health.fingerprint();
}

TEST_F(LinkVerdictTest, APairFallenBackToPcieIsFailing) {
  history_.runs = {Run(3), Run(2), Run(1)};
  Lose(history_.runs[1], 0);
  Lose(history_.runs[2], 0);
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_FAILING) << health.DebugString();
  ASSERT_EQ(health.evidence_size(), 1);
  EXPECT_TRUE(health.evidence(0).failing());
  EXPECT_NE(health.fingerprint().find("GPU1-GPU2 NV18 -> SYS"), std::string::npos)
      << health.fingerprint();
}

// The pair is compared with its own best: no peers needed. A run without peers and without a
// loss stays unjudged (a clean link is not a GPU seen healthy).
TEST_F(LinkVerdictTest, ALostLinkIsJudgedWithoutSameNightPeers) {
  RunSummary clean = Run(3, /*night_devices=*/2);
  EXPECT_FALSE(JudgeRun(clean, policy_).judged);
  RunSummary lossy = Run(2, /*night_devices=*/2);
  Lose(lossy, 17);
  const RunJudgement j = JudgeRun(lossy, policy_);
  EXPECT_TRUE(j.judged);
  EXPECT_EQ(j.level, RunLevel::kDegraded);
  ASSERT_EQ(j.sick.size(), 1u);
  EXPECT_EQ(j.sick[0].subsystem, v1::GPU_SUBSYSTEM_INTERCONNECT);
  // Clocks are the night's comparison: not judged without peers, not counted as measured.
  EXPECT_EQ(j.measured, std::vector<v1::GpuSubsystem>(
                            {v1::GPU_SUBSYSTEM_HBM_BANDWIDTH, v1::GPU_SUBSYSTEM_INTERCONNECT}));
}

// A node's collective slower than its own history (RunSummary::slower_than_history) counts from
// HealthPolicy::history_min_change (10 %) and, like a lost link, needs no same-night peers; 20 %
// or more is failing, as for every subsystem.
TEST_F(LinkVerdictTest, ASlowCollectiveCountsFromTenPercentWithoutSameNightPeers) {
  auto slow = [this](double change) {
    RunSummary r = Run(1, /*night_devices=*/2);
    r.slower_than_history.push_back(
        CaseOutlier{"the node's 4 GPUs' interconnect.nccl/all_reduce?bytes=1073741824",
                    "interconnect.nccl", change, 40});
    return JudgeRun(r, policy_);
  };
  EXPECT_FALSE(slow(0.099).judged) << "below 10 %: no evidence, and no peers to judge by";
  const RunJudgement j = slow(0.10);
  EXPECT_TRUE(j.judged);
  EXPECT_EQ(j.level, RunLevel::kDegraded);
  ASSERT_EQ(j.sick.size(), 1u);
  EXPECT_EQ(j.sick[0].subsystem, v1::GPU_SUBSYSTEM_INTERCONNECT);
  EXPECT_FALSE(j.sick[0].failing);
  EXPECT_EQ(j.sick[0].max_z, 40);
  const RunJudgement failing = slow(0.20);
  ASSERT_EQ(failing.sick.size(), 1u);
  EXPECT_TRUE(failing.sick[0].failing);
  EXPECT_EQ(failing.level, RunLevel::kFailing);
}

TEST_F(LinkVerdictTest, ARunWithItsLinksCheckedHasTheInterconnectNormal) {
  history_.runs = {Run(1)};
  const v1::GpuHealth health = Decide();
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  bool interconnect = false;
  for (int s : health.normal()) interconnect |= s == v1::GPU_SUBSYSTEM_INTERCONNECT;
  EXPECT_TRUE(interconnect) << health.DebugString();
  history_.runs[0].links_checked = 0;  // one GPU, or no NVML: not looked at
  interconnect = false;
  const v1::GpuHealth unchecked = Decide();  // kept: normal() refers into it
  for (int s : unchecked.normal()) interconnect |= s == v1::GPU_SUBSYSTEM_INTERCONNECT;
  EXPECT_FALSE(interconnect);
}

}  // namespace
}  // namespace warpwatch::server::gpu_health
