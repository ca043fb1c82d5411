// `warpwatch health` and `warpwatch health-mark` against a real in-process server on a real
// PostgreSQL (nights seeded by tests/server/gpu_health/health_seed.h): the Nagios exit codes of
// --check, the CLI's usual codes without it, and who may overrule a verdict (reader and admin
// tokens, through the CLI and the RPC).
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/cli_runner.h"
#include "tests/server/gpu_health/health_seed.h"
#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/fleet.grpc.pb.h"

namespace warpwatch::testing {
namespace {

constexpr const char* kReader = "reader-token-health-01";
constexpr const char* kAdmin = "admin-token-health-001";

class CliHealthTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    if (HasFatalFailure()) return;
    server::ServerConfig config = TestConfig();
    config.tokens_file =
        dir_.Write("tokens", std::string(kReader) + " reader dash\n" + kAdmin + " admin ops\n");
    StartServer(config);
    reader_file_ = dir_.Write("reader", kReader);
    admin_file_ = dir_.Write("admin", kAdmin);
  }
  // 8 GPUs on 2 hosts: GPU 5 (node-1) `change` slower on memory for `nights` nights after a clean
  // one.
  void Nights(int nights, double change) {
    SeedNight(url_, 8, {});
    for (int i = 0; i < nights; ++i) SeedNight(url_, 8, {{5, change}});
  }
  CliResult Cli(const std::string& args, const std::string& token_file = "") {
    const std::string token =
        " --token-file " + (token_file.empty() ? reader_file_ : token_file) + " ";
    return RunCommand(dir_.path(),
                      std::string(WARPWATCH_CLI_PATH) + " --server " + Address() + token + args);
  }

  TempDir dir_;
  std::string reader_file_, admin_file_;
};

TEST_F(CliHealthTest, CheckExitsZeroForAHealthyNode) {
  Nights(2, 0.07);
  CliResult r = Cli("health --check --node node-0");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("WARPWATCH GPU HEALTH HEALTHY - 4 of 4 GPUs healthy", 0), 0u) << r.out;
}

TEST_F(CliHealthTest, CheckExitsOneForANodeWithADegradedGpuAndNamesItsFingerprint) {
  Nights(2, 0.07);
  CliResult r = Cli("health --check --node node-1");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("DEGRADED - 1 of 4 GPUs degraded: GPU-seed-5 (node-1 gpu 0): HBM "
                       "bandwidth: 3 cases"),
            std::string::npos)
      << r.out;
}

TEST_F(CliHealthTest, CheckExitsTwoForAFailingGpu) {
  Nights(2, 0.30);
  CliResult r = Cli("health --check --device GPU-seed-5");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("WARPWATCH GPU HEALTH FAILING", 0), 0u) << r.out;
}

TEST_F(CliHealthTest, CheckExitsThreeForAGpuWithoutPeers) {
  SeedNight(url_, 2, {});
  CliResult r = Cli("health --check --device GPU-seed-0");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("UNKNOWN"), std::string::npos) << r.out;
}

TEST_F(CliHealthTest, CheckExitsThreeForAMistypedFlagAndAnUnknownGpu) {
  Nights(2, 0.30);
  EXPECT_EQ(Cli("health --check --nod node-1").exit_code, 3);
  EXPECT_EQ(Cli("helth --check --node node-1").exit_code, 3);  // a mistyped verb too
  EXPECT_EQ(Cli("health --check --device GPU-nobody").exit_code, 3);
  // Without --check the CLI's usual codes: usage 2, NOT_FOUND 3.
  EXPECT_EQ(Cli("health --nod node-1").exit_code, 2);
  EXPECT_EQ(Cli("helth --node node-1").exit_code, 2);
  EXPECT_EQ(Cli("health --device GPU-nobody").exit_code, 3);
}

TEST_F(CliHealthTest, CheckExitsThreeForATokenTheServerDoesNotKnow) {
  Nights(2, 0.30);  // node-1 is failing: a refused check must not read as that
  const std::string bogus = dir_.Write("bogus", "not-a-token-of-this-server");
  CliResult r = Cli("health --check --node node-1", bogus);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("WARPWATCH GPU HEALTH UNKNOWN - the check itself failed", 0), 0u) << r.out;
}

TEST_F(CliHealthTest, CheckExitsThreeWhenTheServerCannotBeReached) {
  CliResult r = RunCommand(dir_.path(), std::string(WARPWATCH_CLI_PATH) +
                                            " --server 127.0.0.1:1 health --check --node node-1");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("WARPWATCH GPU HEALTH UNKNOWN - the check itself failed", 0), 0u) << r.out;
}

TEST_F(CliHealthTest, WithoutCheckAFailingFleetStillExitsZeroAndPrintsTheTable) {
  Nights(2, 0.30);
  CliResult r = Cli("health");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("GPU-seed-5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("failing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU-seed-7"), std::string::npos) << r.out;
}

TEST_F(CliHealthTest, AReaderCannotMarkAGpuRepairedAndAnAdminCan) {
  Nights(2, 0.07);
  CliResult denied = Cli("health-mark GPU-seed-5 repaired --note 'reseated'", reader_file_);
  EXPECT_EQ(denied.exit_code, 6) << denied.out << denied.err;  // PERMISSION_DENIED
  EXPECT_EQ(Cli("health --check --device GPU-seed-5").exit_code, 1);

  CliResult done = Cli("health-mark GPU-seed-5 repaired --note 'reseated'", admin_file_);
  EXPECT_EQ(done.exit_code, 0) << done.out << done.err;
  EXPECT_NE(done.out.find("repaired by ops"), std::string::npos) << done.out;
  CliResult after = Cli("health --check --device GPU-seed-5");
  EXPECT_EQ(after.exit_code, 0) << after.out;
}

TEST_F(CliHealthTest, AnExcludedGpuReadsUnknownWithWhoExcludedIt) {
  Nights(2, 0.07);
  ASSERT_EQ(Cli("health-mark GPU-seed-5 excluded --note 'RMA 42'", admin_file_).exit_code, 0);
  CliResult r = Cli("health --check --device GPU-seed-5");
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_NE(r.out.find("excluded by ops"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RMA 42"), std::string::npos) << r.out;
}

TEST_F(CliHealthTest, ReadersReadAndOnlyAdminsMarkThroughTheRpc) {
  Nights(2, 0.07);
  auto stub = v1::FleetService::NewStub(Channel());
  v1::ListGpuHealthResponse list;
  ASSERT_TRUE(stub->ListGpuHealth(Context(kReader).get(), {}, &list).ok());
  EXPECT_EQ(list.gpus_size(), 8);
  v1::MarkGpuHealthRequest mark;
  mark.set_device_uuid("GPU-seed-5");
  mark.set_action(v1::GPU_HEALTH_ACTION_REPAIRED);
  mark.set_note("new card");
  v1::GpuHealth health;
  EXPECT_EQ(stub->MarkGpuHealth(Context(kReader).get(), mark, &health).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(stub->MarkGpuHealth(Context(kAdmin).get(), mark, &health).ok());
  EXPECT_EQ(health.state(), v1::GPU_HEALTH_STATE_HEALTHY);
  EXPECT_EQ(health.repaired().actor(), "ops");
  mark.set_note("");
  EXPECT_EQ(stub->MarkGpuHealth(Context(kAdmin).get(), mark, &health).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  mark.set_note("x");
  mark.set_device_uuid("GPU-nobody");
  EXPECT_EQ(stub->MarkGpuHealth(Context(kAdmin).get(), mark, &health).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace warpwatch::testing
