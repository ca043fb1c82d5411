// The deploy/ GPU health wrappers run against a real in-process server on a real PostgreSQL
// (nights seeded by tests/server/gpu_health/health_seed.h), with the built `warpwatch` CLI:
// node-problem-detector's plugin, the Slurm health check and NHC check (a stand-in scontrol and
// NHC's `die`), and the Kubernetes taint job's script (a stand-in kubectl). Each stand-in records
// its arguments, so what the script would do to the node is asserted.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_runner.h"
#include "tests/server/gpu_health/health_seed.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

const std::string kDeploy = WARPWATCH_DEPLOY_DIR;

class GpuHealthScriptsTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    if (HasFatalFailure()) return;
    StartServer();
    // 8 GPUs, 4 a host: GPU 5 (node-1) 7 % slower on memory for two nights, GPU 2 (node-0)
    // 30 % slower.
    SeedNight(url_, 8, {});
    for (int i = 0; i < 2; ++i) SeedNight(url_, 8, {{5, 0.07}, {2, 0.30}});
    log_ = dir_.path() + "/calls.log";
    // A stand-in for scontrol and kubectl: records its arguments; `show node` prints a reason.
    const std::string stub = dir_.Write(
        "stub", "#!/bin/sh\necho \"$*\" >> " + log_ +
                    "\ncase \"$*\" in 'show node'*) echo \"   Reason=${STUB_REASON:-none}\";; "
                    "'get nodes'*) echo node-0 node-1 node-2;; esac\n");
    RunCommand(dir_.path(), "chmod +x " + stub);
    stub_ = stub;
  }
  std::string Env(const std::string& node = "") const {
    return "WARPWATCH_CLI=" + std::string(WARPWATCH_CLI_PATH) + " WARPWATCH_SERVER=" + Address() +
           (node.empty() ? "" : " WARPWATCH_NODE=" + node) + " SCONTROL=" + stub_ +
           " KUBECTL=" + stub_ + " ";
  }
  std::string Calls() const { return ReadFileText(log_); }

  TempDir dir_;
  std::string log_, stub_;
};

TEST_F(GpuHealthScriptsTest, NodeProblemDetectorPluginReportsAProblemOnlyForASickNode) {
  const std::string plugin = kDeploy + "/node-problem-detector/warpwatch-gpu-health.sh";
  CliResult sick = RunCommand(dir_.path(), Env("node-1") + plugin);
  EXPECT_EQ(sick.exit_code, 1) << sick.out << sick.err;
  EXPECT_NE(sick.out.find("DEGRADED - 1 of 4 GPUs degraded: GPU-seed-5"), std::string::npos)
      << sick.out;
  EXPECT_EQ(sick.out.find('\n'), sick.out.size() - 1) << "one line: " << sick.out;
  CliResult healthy = RunCommand(dir_.path(), Env("node-9") + plugin);  // no GPU: unknown
  EXPECT_EQ(healthy.exit_code, 2) << healthy.out;
  CliResult down =
      RunCommand(dir_.path(), "WARPWATCH_CLI=" + std::string(WARPWATCH_CLI_PATH) +
                                  " WARPWATCH_SERVER=127.0.0.1:1 WARPWATCH_NODE=node-1 " + plugin);
  EXPECT_EQ(down.exit_code, 2) << down.out;  // the check failed: unknown, never a problem
}

TEST_F(GpuHealthScriptsTest, SlurmCheckDrainsAFailingNodeWithWarpwatchsReason) {
  CliResult r =
      RunCommand(dir_.path(), Env("node-0") + kDeploy + "/slurm/warpwatch-health-check.sh");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(Calls().find("update NodeName=node-0 State=DRAIN Reason=warpwatch: FAILING - 1 of 4 "
                         "GPUs failing: GPU-seed-2"),
            std::string::npos)
      << Calls();
}

TEST_F(GpuHealthScriptsTest, SlurmCheckDrainsADegradedNodeUnlessAskedToDrainOnFailingOnly) {
  const std::string script = kDeploy + "/slurm/warpwatch-health-check.sh";
  RunCommand(dir_.path(), "WARPWATCH_DRAIN_ON=failing " + Env("node-1") + script);
  EXPECT_EQ(Calls().find("State=DRAIN"), std::string::npos) << Calls();
  RunCommand(dir_.path(), Env("node-1") + script);
  EXPECT_NE(Calls().find("update NodeName=node-1 State=DRAIN Reason=warpwatch: DEGRADED"),
            std::string::npos)
      << Calls();
}

TEST_F(GpuHealthScriptsTest, SlurmCheckResumesOnlyItsOwnDrainOnceHealthy) {
  SeedNight(url_, 8, {});
  SeedNight(url_, 8, {});  // two clean nights: every GPU healthy again
  const std::string script = kDeploy + "/slurm/warpwatch-health-check.sh";
  RunCommand(dir_.path(), "STUB_REASON='admin maintenance' " + Env("node-1") + script);
  EXPECT_EQ(Calls().find("State=RESUME"), std::string::npos) << Calls();
  RunCommand(dir_.path(), "STUB_REASON='warpwatch: DEGRADED' " + Env("node-1") + script);
  EXPECT_NE(Calls().find("update NodeName=node-1 State=RESUME"), std::string::npos) << Calls();
}

TEST_F(GpuHealthScriptsTest, SlurmCheckNeverDrainsOnAnUnknownVerdict) {
  RunCommand(dir_.path(), Env("node-9") + kDeploy + "/slurm/warpwatch-health-check.sh");
  EXPECT_EQ(Calls().find("State=DRAIN"), std::string::npos) << Calls();
}

TEST_F(GpuHealthScriptsTest, NhcCheckDiesWithTheReasonForASickNodeAndPassesAHealthyOne) {
  const std::string nhc = kDeploy + "/slurm/warpwatch.nhc";
  const std::string run = "bash -c 'die() { echo \"die $*\"; }; . " + nhc +
                          "; HOSTNAME_S=$0 check_warpwatch_gpu_health $1; echo rc=$?' ";
  CliResult sick = RunCommand(dir_.path(), Env() + run + "node-1");
  EXPECT_NE(sick.out.find("die 1 warpwatch: DEGRADED - 1 of 4 GPUs degraded"), std::string::npos)
      << sick.out << sick.err;
  CliResult only_failing = RunCommand(dir_.path(), Env() + run + "node-1 failing");
  EXPECT_EQ(only_failing.out.find("die"), std::string::npos) << only_failing.out;
  EXPECT_NE(only_failing.out.find("rc=0"), std::string::npos) << only_failing.out;
}

TEST_F(GpuHealthScriptsTest, TaintJobLabelsEveryNodeAndTaintsBySeverity) {
  CliResult r =
      RunCommand(dir_.path(), Env() + "bash " + kDeploy + "/kubernetes/gpu-health/taint-nodes.sh");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string calls = Calls();
  EXPECT_NE(calls.find("label node node-0 warpwatch.io/gpu-health=failing --overwrite"),
            std::string::npos)
      << calls;
  EXPECT_NE(calls.find("taint node node-0 warpwatch.io/gpu-health=failing:NoSchedule"),
            std::string::npos)
      << calls;
  EXPECT_NE(calls.find("taint node node-1 warpwatch.io/gpu-health=degraded:PreferNoSchedule"),
            std::string::npos)
      << calls;
  // node-2 has no GPU in warpwatch: unknown, labelled, its taints left alone.
  EXPECT_NE(calls.find("label node node-2 warpwatch.io/gpu-health=unknown"), std::string::npos)
      << calls;
  EXPECT_EQ(calls.find("taint node node-2"), std::string::npos) << calls;
}

}  // namespace
}  // namespace warpwatch::testing
