// File: tests/server/service/worker_identity_rpc_test.cc
// A worker id is bound to the credential that registered it: over real gRPC channels to a server
// with bearer tokens on a real PostgreSQL, a second worker credential can neither act as another
// worker nor take its GPUs while it is online; an admin can.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "tests/server/service/worker_service_rpc_fixture.h"

namespace warpwatch::testing {
namespace {

constexpr const char* kWorkerA = "worker-a-token-00001";
constexpr const char* kWorkerB = "worker-b-token-00001";
constexpr const char* kWorkerIdentitySubmitter = "submitter-token-0001";
constexpr const char* kWorkerIdentityAdmin = "admin-token-00000001";

class WorkerIdentityRpcTest : public WorkerServiceRpcTest {
 protected:
  void StartWithTokens() {
    server::ServerConfig config = TestConfig();
    config.tokens_file =
        dir_.Write("tokens", std::string(kWorkerA) + " worker node-a\n" + kWorkerB +
                                 " worker node-b\n" + kWorkerIdentitySubmitter + " submitter ci\n" +
                                 kWorkerIdentityAdmin + " admin ops\n");
    StartServer(config);
    user_token_ = kWorkerIdentitySubmitter;
  }

  grpc::StatusCode RegisterCode(const std::string& token, const std::string& worker_id,
                                const std::string& gpu) {
    v1::RegisterRequest request;
    request.set_hostname("node-x");
    request.set_worker_id(worker_id);
    *request.add_devices() = MakeGpu(gpu, "NVIDIA H100");
    v1::RegisterResponse response;
    return WorkerStub()->Register(Context(token).get(), request, &response).error_code();
  }

  void MakeOffline(const std::string& worker_id) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec_params("UPDATE worker SET last_seen = now() - interval '1 hour' WHERE id = $1",
                   worker_id);
    tx.commit();
  }

  TempDir dir_;
};

TEST_F(WorkerIdentityRpcTest, AnotherWorkerCredentialCannotActAsTheWorkerHoldingAJob) {
  StartWithTokens();
  token_ = kWorkerA;
  Held held = RegisterAndTakeAJob();
  const std::string a = held.worker;
  const int64_t job = held.lease.job().id();
  const int64_t run = held.lease.run_id();
  ASSERT_GT(job, 0);
  const std::string b =
      Register("node-2", {MakeGpu("GPU-2", "NVIDIA H100")}, {}, kWorkerB).worker_id();
  ASSERT_FALSE(b.empty());

  // Credential B names A's worker id on every call: each is refused.
  token_ = kWorkerB;
  v1::Job finished;
  EXPECT_EQ(Finish(a, job, run, v1::JOB_OUTCOME_SUCCEEDED, &finished).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Progress(a, job, run, 1).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::UploadMeasurementsResponse upload;
  EXPECT_EQ(Upload(a, run, {MakeMeasurement("reduce/warp_shuffle?n=1")}, &upload).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::HeartbeatResponse beat;
  EXPECT_EQ(Heartbeat(a, {run}, &beat).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  grpc::Status acquire;
  Acquire(a, "GPU-1", 0, &acquire);
  EXPECT_EQ(acquire.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // Nor can B re-register A's id (and so take over its row and GPUs).
  EXPECT_EQ(RegisterCode(kWorkerB, a, "GPU-2"), grpc::StatusCode::PERMISSION_DENIED);

  // The job is untouched: still RUNNING under A, no progress, nothing stored.
  const v1::Job now = GetJob(job);
  EXPECT_EQ(now.state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(now.lease_owner(), a);
  EXPECT_EQ(now.points_done(), 0);
  EXPECT_EQ(MeasurementRows(run), 0);

  // A itself may.
  token_ = kWorkerA;
  ASSERT_TRUE(Finish(a, job, run, v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(WorkerIdentityRpcTest, AGpuMovesToAnotherCredentialOnlyOnceItsWorkerIsOfflineOrByAnAdmin) {
  StartWithTokens();
  const std::string a1 =
      Register("node-a1", {MakeGpu("GPU-1", "NVIDIA H100")}, {}, kWorkerA).worker_id();
  const std::string a2 =
      Register("node-a2", {MakeGpu("GPU-2", "NVIDIA H100")}, {}, kWorkerA).worker_id();
  // B may not take GPU-1 of online worker a1, even as a fresh worker.
  EXPECT_EQ(RegisterCode(kWorkerB, "", "GPU-1"), grpc::StatusCode::PERMISSION_DENIED);
  // a1 still owns it: it can still take a job with it.
  token_ = kWorkerA;
  Submit();
  EXPECT_TRUE(Acquire(a1, "GPU-1", 0).has_job());
  // The same credential may move its own GPU (a restarted daemon registering afresh).
  EXPECT_EQ(RegisterCode(kWorkerA, "", "GPU-2"), grpc::StatusCode::OK);
  // An admin may move any GPU.
  EXPECT_EQ(RegisterCode(kWorkerIdentityAdmin, "", "GPU-1"), grpc::StatusCode::OK);
  // Once its worker is offline, a GPU moves to whoever registers it.
  const std::string a3 =
      Register("node-a3", {MakeGpu("GPU-3", "NVIDIA H100")}, {}, kWorkerA).worker_id();
  EXPECT_EQ(RegisterCode(kWorkerB, "", "GPU-3"), grpc::StatusCode::PERMISSION_DENIED);
  MakeOffline(a3);
  EXPECT_EQ(RegisterCode(kWorkerB, "", "GPU-3"), grpc::StatusCode::OK);
  (void)a2;
}

TEST_F(WorkerIdentityRpcTest, AnUnknownWorkerIdIsReplacedByAFreshOne) {
  StartWithTokens();
  const std::string chosen = "11111111-2222-3333-4444-555555555555";
  v1::RegisterRequest request;
  request.set_hostname("node-1");
  request.set_worker_id(chosen);
  *request.add_devices() = MakeGpu("GPU-1", "NVIDIA H100");
  v1::RegisterResponse response;
  ASSERT_TRUE(WorkerStub()->Register(Context(kWorkerA).get(), request, &response).ok());
  EXPECT_NE(response.worker_id(), chosen);
  EXPECT_EQ(response.worker_id().size(), 36u);
}

}  // namespace
}  // namespace warpwatch::testing
