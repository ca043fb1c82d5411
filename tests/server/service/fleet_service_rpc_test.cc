// File: tests/server/service/fleet_service_rpc_test.cc
// FleetService.ListWorkers over real gRPC, the `warpwatch workers` verb against it, and the role
// table for WorkerService and FleetService.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/server/service/worker_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kFleetServiceReader = "reader-token-0000001";
constexpr const char* kFleetServiceSubmitter = "submitter-token-0001";
constexpr const char* kFleetServiceWorker = "worker-token-0000001";

class FleetServiceRpcTest : public WorkerRpcTest {
 protected:
  v1::ListWorkersResponse List(std::vector<v1::WorkerState> states = {},
                               const std::string& token = "") {
    v1::ListWorkersRequest request;
    for (v1::WorkerState s : states) request.add_states(s);
    v1::ListWorkersResponse response;
    grpc::Status status = FleetStub()->ListWorkers(Context(token).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  // Runs the built CLI against this server; returns its exit code and stdout.
  std::pair<int, std::string> Cli(const std::string& args) {
    const std::string out = dir_.path() + "/cli.out";
    const std::string command = std::string("env -u WARPWATCH_SERVER -u WARPWATCH_TOKEN ") +
                                WARPWATCH_CLI_PATH + " --server " + Address() + " " + args + " >" +
                                out + " 2>&1 </dev/null";
    const int status = std::system(command.c_str());
    std::ifstream in(out);
    std::ostringstream text;
    text << in.rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
  }

  TempDir dir_;
};

TEST_F(FleetServiceRpcTest, ListWorkersShowsWorkersGpusStateAndTheCurrentJob) {
  StartServer();
  const std::string busy =
      Register("node-busy",
               {MakeGpu("GPU-B0", "NVIDIA H100", 0), MakeGpu("GPU-B1", "NVIDIA H100", 1)},
               {{"rack", "r7"}})
          .worker_id();
  const std::string idle = Register("node-idle", {MakeGpu("GPU-I0", "NVIDIA A100", 0)}).worker_id();
  const v1::Job job = Submit();
  ASSERT_TRUE(Acquire(busy, "GPU-B1", 0).has_job());

  v1::ListWorkersResponse fleet = List();
  ASSERT_EQ(fleet.workers_size(), 2);
  EXPECT_GT(fleet.heartbeat_interval_seconds(), 0);
  const v1::WorkerInfo& b = fleet.workers(0);  // by hostname
  const v1::WorkerInfo& i = fleet.workers(1);
  EXPECT_EQ(b.id(), busy);
  EXPECT_EQ(b.hostname(), "node-busy");
  EXPECT_EQ(b.version(), "test-1");
  EXPECT_EQ(b.labels().at("rack"), "r7");
  EXPECT_EQ(b.state(), v1::WORKER_STATE_ONLINE);
  EXPECT_GT(b.last_seen().seconds(), 0);
  ASSERT_EQ(b.devices_size(), 2);
  EXPECT_EQ(b.devices(0).uuid(), "GPU-B0");
  EXPECT_EQ(b.devices(1).uuid(), "GPU-B1");
  ASSERT_EQ(b.running_jobs_size(), 1);
  EXPECT_EQ(b.running_jobs(0).device_uuid(), "GPU-B1");
  EXPECT_EQ(b.running_jobs(0).job_id(), job.id());
  EXPECT_EQ(i.id(), idle);
  EXPECT_EQ(i.devices_size(), 1);
  EXPECT_TRUE(i.running_jobs().empty());
}

TEST_F(FleetServiceRpcTest, AWorkerSilentForThreeHeartbeatsIsOfflineUntilItBeatsAgain) {
  server::ServerConfig config = TestConfig();
  config.lease_seconds = 3;
  config.heartbeat_seconds = 0.2;  // offline after 0.6 s of silence
  StartServer(config);
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  EXPECT_EQ(List().workers(0).state(), v1::WORKER_STATE_ONLINE);
  ASSERT_TRUE(
      WaitUntil([&] { return List().workers(0).state() == v1::WORKER_STATE_OFFLINE; }, seconds(5)));
  EXPECT_EQ(List({v1::WORKER_STATE_ONLINE}).workers_size(), 0);
  EXPECT_EQ(List({v1::WORKER_STATE_OFFLINE}).workers_size(), 1);
  v1::HeartbeatResponse beat;
  ASSERT_TRUE(Heartbeat(worker, {}, &beat).ok());
  EXPECT_EQ(List().workers(0).state(), v1::WORKER_STATE_ONLINE);
}

TEST_F(FleetServiceRpcTest, ListWorkersRefusesAnUnknownStateFilter) {
  StartServer();
  v1::ListWorkersRequest request;
  request.add_states(v1::WORKER_STATE_UNSPECIFIED);
  v1::ListWorkersResponse response;
  grpc::Status status = FleetStub()->ListWorkers(Context().get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("states[0]"), std::string::npos);
}

TEST_F(FleetServiceRpcTest, TheWorkersVerbPrintsATableAndJson) {
  StartServer();
  const std::string worker = Register("node-cli", {MakeGpu("GPU-C0", "NVIDIA H100", 0),
                                                   MakeGpu("GPU-C1", "NVIDIA H100", 1)})
                                 .worker_id();
  const v1::Job job = Submit();
  ASSERT_TRUE(Acquire(worker, "GPU-C0", 0).has_job());
  auto [code, out] = Cli("workers");
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("HOST"), std::string::npos) << out;
  EXPECT_NE(out.find("node-cli"), std::string::npos) << out;
  EXPECT_NE(out.find("online"), std::string::npos) << out;
  EXPECT_NE(out.find("GPU-C0"), std::string::npos) << out;
  EXPECT_NE(out.find("#" + std::to_string(job.id()) + " 0/"), std::string::npos) << out;
  EXPECT_NE(out.find("idle"), std::string::npos) << out;  // GPU-C1

  std::tie(code, out) = Cli("--json workers");
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("\"hostname\": \"node-cli\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"state\": \"WORKER_STATE_ONLINE\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"jobId\": \"" + std::to_string(job.id()) + "\""), std::string::npos) << out;

  std::tie(code, out) = Cli("workers --state offline");
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("no workers"), std::string::npos) << out;
  std::tie(code, out) = Cli("workers --state sleepy");
  EXPECT_NE(code, 0);
}

TEST_F(FleetServiceRpcTest, ListWorkersPagesAndTheWorkersVerbShowsEveryPage) {
  StartServer();
  for (int i = 0; i < 3; ++i) {
    Register("node-" + std::to_string(i), {MakeGpu("GPU-" + std::to_string(i), "NVIDIA H100")});
  }
  v1::ListWorkersRequest request;
  request.set_page_size(2);
  v1::ListWorkersResponse page1;
  ASSERT_TRUE(FleetStub()->ListWorkers(Context().get(), request, &page1).ok());
  ASSERT_EQ(page1.workers_size(), 2);
  ASSERT_FALSE(page1.next_page_token().empty());
  request.set_page_token(page1.next_page_token());
  v1::ListWorkersResponse page2;
  ASSERT_TRUE(FleetStub()->ListWorkers(Context().get(), request, &page2).ok());
  ASSERT_EQ(page2.workers_size(), 1);
  EXPECT_TRUE(page2.next_page_token().empty());
  EXPECT_EQ(page2.workers(0).hostname(), "node-2");
  // Above the maximum is clamped, not refused; negative is refused.
  request.clear_page_token();
  request.set_page_size(100000);
  v1::ListWorkersResponse all;
  ASSERT_TRUE(FleetStub()->ListWorkers(Context().get(), request, &all).ok());
  EXPECT_EQ(all.workers_size(), 3);
  request.set_page_size(-1);
  EXPECT_EQ(FleetStub()->ListWorkers(Context().get(), request, &all).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  auto [code, out] = Cli("workers");
  EXPECT_EQ(code, 0) << out;
  for (const char* host : {"node-0", "node-1", "node-2"}) {
    EXPECT_NE(out.find(host), std::string::npos) << out;
  }
}

TEST_F(FleetServiceRpcTest, RolesGuardWorkerAndFleetMethods) {
  server::ServerConfig config = TestConfig();
  config.tokens_file = dir_.Write("tokens", std::string(kFleetServiceReader) + " reader dash\n" +
                                                kFleetServiceSubmitter + " submitter ci\n" +
                                                kFleetServiceWorker + " worker node1\n");
  StartServer(config);
  // A reader cannot call WorkerService.
  v1::RegisterRequest registration;
  registration.set_hostname("node-1");
  v1::RegisterResponse registered;
  EXPECT_EQ(WorkerStub()
                ->Register(Context(kFleetServiceReader).get(), registration, &registered)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(WorkerStub()
                ->Register(Context(kFleetServiceSubmitter).get(), registration, &registered)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(
      WorkerStub()->Register(Context(kFleetServiceWorker).get(), registration, &registered).ok());
  // A worker cannot submit jobs nor list the fleet.
  v1::SubmitJobRequest submit;
  *submit.mutable_spec() = ValidSpec();
  v1::Job job;
  EXPECT_EQ(JobStub()->SubmitJob(Context(kFleetServiceWorker).get(), submit, &job).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::ListWorkersRequest list;
  v1::ListWorkersResponse fleet;
  EXPECT_EQ(FleetStub()->ListWorkers(Context(kFleetServiceWorker).get(), list, &fleet).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // Readers and submitters may list the fleet; nobody without a token may.
  EXPECT_EQ(List({}, kFleetServiceReader).workers_size(), 1);
  EXPECT_EQ(List({}, kFleetServiceSubmitter).workers_size(), 1);
  EXPECT_EQ(FleetStub()->ListWorkers(Context().get(), list, &fleet).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

}  // namespace
}  // namespace warpwatch::testing
