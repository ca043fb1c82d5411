// File: tests/e2e/gpu_health_e2e_test.cc
// GPU health verdicts end to end (issue 27): a real warpwatch-server and PostgreSQL, eight
// replay GPUs running a schedule's nights of one HBM-bound family (memory.coalescing) and one
// SM-bound family (instr.arithmetic) (tests/e2e/replay_fleet_test.h). The server's own analysis
// writes the fleet view of each night; the verdicts are read through FleetService as a scheduler
// or `warpwatch health` reads them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tests/e2e/replay_fleet_test.h"
#include "warpwatch/v1/fleet.grpc.pb.h"

namespace warpwatch::e2e {
namespace {

constexpr const char* kSlowMemory[] = {"--replay-slowdown=1.08",
                                       "--replay-slowdown-families=memory.coalescing"};

class GpuHealthE2eTest : public ReplayFleetTest {
 protected:
  GpuHealthE2eTest()
      : ReplayFleetTest({"memory.coalescing", "instr.arithmetic"}, "GPU-e2e-health-") {}
  GpuHealthE2eTest(std::vector<std::string> families, std::string uuid_prefix, NodeFleet node)
      : ReplayFleetTest(std::move(families), std::move(uuid_prefix), std::move(node)) {}

  void SetUp() override {
    ReplayFleetTest::SetUp();
    if (HasFatalFailure()) return;
    fleet_ = v1::FleetService::NewStub(channel_);
  }

  v1::GpuHealth Health(int gpu) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::GetGpuHealthRequest request;
    request.set_device_uuid(Uuid(gpu));
    v1::GpuHealth health;
    grpc::Status status = fleet_->GetGpuHealth(&context, request, &health);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return health;
  }

  // Every GPU but `except` (-1: none) is HEALTHY.
  void ExpectPeersHealthy(int except, const std::string& when) {
    for (int g = 0; g < kGpus; ++g) {
      if (g == except) continue;
      const v1::GpuHealth h = Health(g);
      EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY)
          << when << ": GPU " << g << ": " << h.fingerprint();
    }
  }

  std::unique_ptr<v1::FleetService::Stub> fleet_;
};

// Two nights as recorded first: the fleet view judges once the cases' between-run noise on the
// model has a pair of one GPU's analysed runs (FleetOutliersTest.WithoutTheCaseNoise...), so a
// GPU is UNKNOWN until a night is compared with its peers, then HEALTHY.
TEST_F(GpuHealthE2eTest, OneGpuSlowOnMemoryForThreeNightsIsDegradedWithTheHbmFingerprint) {
  for (int n = 0; n < 2; ++n) {
    Night();  // as recorded
    if (HasFatalFailure()) return;
  }
  const v1::GpuHealth first = Health(3);
  ASSERT_EQ(first.state(), v1::GPU_HEALTH_STATE_UNKNOWN) << first.DebugString();
  EXPECT_NE(first.reason().find("the fleet view compared none"), std::string::npos)
      << first.reason();
  Night();
  if (HasFatalFailure()) return;
  ASSERT_EQ(Health(3).state(), v1::GPU_HEALTH_STATE_HEALTHY) << Health(3).DebugString();
  Restart(3, {kSlowMemory[0], kSlowMemory[1]});
  if (HasFatalFailure()) return;
  WaitForDevices();
  Night();
  if (HasFatalFailure()) return;
  // One bad night changes nothing (hysteresis: two runs change a state); it is watched.
  v1::GpuHealth h = Health(3);
  std::printf("after one slow night: %s\n", h.fingerprint().c_str());
  EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << h.fingerprint();
  EXPECT_NE(h.fingerprint().find("watching HBM bandwidth"), std::string::npos) << h.fingerprint();
  for (int n = 0; n < 2; ++n) {
    Night();
    if (HasFatalFailure()) return;
  }
  h = Health(3);
  std::printf("after three slow nights: %s\n", h.fingerprint().c_str());
  EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << h.fingerprint();
  ASSERT_GE(h.evidence_size(), 1) << h.DebugString();
  EXPECT_EQ(h.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(h.evidence(0).runs(), 3);
  EXPECT_TRUE(h.evidence(0).ongoing());
  EXPECT_NEAR(h.evidence(0).median_change(), 0.08, 0.01);
  for (const v1::GpuSubsystemEvidence& e : h.evidence()) {
    EXPECT_NE(e.subsystem(), v1::GPU_SUBSYSTEM_SM_ARITHMETIC) << h.fingerprint();
  }
  EXPECT_NE(h.fingerprint().find("normal: SM arithmetic"), std::string::npos) << h.fingerprint();
  ExpectPeersHealthy(3, "after three slow nights");
}

TEST_F(GpuHealthE2eTest, AFleetWideSlowdownOfMemoryDegradesNoGpu) {
  for (int n = 0; n < 2; ++n) {
    Night();
    if (HasFatalFailure()) return;
  }
  for (int g = 0; g < kGpus; ++g) {
    Restart(g, {kSlowMemory[0], kSlowMemory[1]});
    if (HasFatalFailure()) return;
  }
  WaitForDevices();
  for (int n = 0; n < 2; ++n) {
    Night();
    if (HasFatalFailure()) return;
  }
  ExpectPeersHealthy(-1, "after two nights of the whole fleet 8 % slower on memory");
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE kind = 'OUTLIER'"), 0);
}

// Two nodes of four GPUs (two replay workers of --replay-gpus 4), each night the GPU schedule
// (memory.coalescing on every GPU) and then the node schedule (the NCCL collectives recorded on
// four H200s, docs/results/multigpu_interconnect/nccl.json, one node job per worker). Node 0's
// collectives 15 % slower from night 7: the analysis confirms their findings (a confirmation node
// job), and every GPU of node 0, whose own runs measured nothing slower, has its GPU interconnect
// DEGRADED after two such nights; node 1's GPUs stay HEALTHY.
class NodeHealthE2eTest : public GpuHealthE2eTest {
 protected:
  NodeHealthE2eTest()
      : GpuHealthE2eTest({"memory.coalescing"}, "GPU-e2e-node-",
                         NodeFleet{2,
                                   std::string(WARPWATCH_SOURCE_DIR) +
                                       "/docs/results/multigpu_interconnect/nccl.json",
                                   "interconnect.nccl"}) {}

  void Nights(int n) {
    for (int i = 0; i < n; ++i) {
      Night();
      if (HasFatalFailure()) return;
      NodeNight();
      if (HasFatalFailure()) return;
    }
  }
};

TEST_F(NodeHealthE2eTest, ANodesCollectivesSlowerThanTheirHistoryDegradeEveryGpuOfThatNodeOnly) {
  Nights(kBaselineNights + 1);
  if (HasFatalFailure()) return;
  ASSERT_EQ(Sql("SELECT count(*) FROM regression WHERE kind = 'REGRESSION'"), 0)
      << cluster_->Logs();
  ASSERT_EQ(Sql("SELECT count(*) FROM gpu_health_run WHERE node_run"), 2 * (kBaselineNights + 1));
  Restart(0, {"--replay-slowdown=1.15", "--replay-slowdown-families=interconnect.nccl"});
  if (HasFatalFailure()) return;
  WaitForDevices();
  Nights(2);
  if (HasFatalFailure()) return;
  EXPECT_GT(Sql("SELECT count(*) FROM regression WHERE kind = 'REGRESSION' AND state = 'OPEN' AND "
                "family = 'interconnect.nccl' AND device_uuid = '" +
                Uuid(0) + "'"),
            0)
      << cluster_->Logs();
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE family <> 'interconnect.nccl' OR "
                "device_uuid <> '" +
                Uuid(0) + "'"),
            0)
      << "only node 0's collectives moved";
  for (int g = 0; g < GpusPerWorker(); ++g) {
    const v1::GpuHealth h = Health(g);
    std::printf("%s: %s\n", Uuid(g).c_str(), h.fingerprint().c_str());
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << Uuid(g) << ": " << h.DebugString();
    ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
    EXPECT_EQ(h.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
    EXPECT_EQ(h.evidence(0).runs(), 2);
    EXPECT_NE(h.fingerprint().find("the node's 4 GPUs' interconnect.nccl/"), std::string::npos)
        << h.fingerprint();
  }
  for (int g = GpusPerWorker(); g < kGpus; ++g) {
    const v1::GpuHealth h = Health(g);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Uuid(g) << ": " << h.fingerprint();
  }
  // One counter job per node, after its first node run (the collectives' level never moved
  // without a confirmation, whose counter pass brought that level's).
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE labels ? 'warpwatch.counters_for_run' AND "
                "(spec->>'node_scoped')::boolean"),
            2);
  // One incident, and it names the node, not its first GPU: the other node is its peer.
  EXPECT_EQ(Sql("SELECT count(*) FROM incident"), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM incident WHERE cause_class = 'ONE_GPU' AND cause LIKE "
                "'the node of GPU " +
                Uuid(0) +
                " (its node runs'' interconnect.nccl) moved; 1 other node of its model did not "
                "(30 cases)'"),
            1)
      << cluster_->Logs();
}

}  // namespace
}  // namespace warpwatch::e2e
