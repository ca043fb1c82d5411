// File: tests/server/health/health_rpc_test.cc
// Health follows the database: SERVING while it answers, NOT_SERVING while it is down; RPCs
// answer UNAVAILABLE quickly meanwhile, and everything recovers without a restart - including a
// server that started before its database existed (migrations run when it first answers).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/server/health/health.grpc.pb.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

using namespace std::chrono_literals;
using grpc::health::v1::HealthCheckResponse;

class HealthRpcTest : public RpcTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  HealthRpcTest() { own_server_ = true; }
  HealthCheckResponse::ServingStatus Check(const std::string& service) {
    auto stub = grpc::health::v1::Health::NewStub(Channel());
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    HealthCheckResponse response;
    grpc::Status status = stub->Check(Context().get(), request, &response);
    if (!status.ok()) {
      ADD_FAILURE() << "health check failed: " << status.error_message();
      return HealthCheckResponse::UNKNOWN;
    }
    return response.status();
  }

  bool WaitForHealth(HealthCheckResponse::ServingStatus want, std::chrono::milliseconds timeout) {
    return WaitUntil([&] { return Check("") == want; }, timeout);
  }

  // The code and duration of a GetJob.
  std::pair<grpc::StatusCode, std::chrono::milliseconds> TimedGetJob() {
    v1::GetJobRequest request;
    request.set_job_id(1);
    v1::Job job;
    const auto start = std::chrono::steady_clock::now();
    grpc::Status status = JobStub()->GetJob(Context().get(), request, &job);
    return {status.error_code(), std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::steady_clock::now() - start)};
  }
};

TEST_F(HealthRpcTest, ServingForTheServerAndEachServiceWhileTheDatabaseAnswers) {
  StartServer();
  EXPECT_EQ(Check(""), HealthCheckResponse::SERVING);
  EXPECT_EQ(Check("warpwatch.v1.JobService"), HealthCheckResponse::SERVING);
  EXPECT_EQ(Check("warpwatch.v1.WorkerService"), HealthCheckResponse::SERVING);
  EXPECT_EQ(Check("warpwatch.v1.ResultService"), HealthCheckResponse::SERVING);
}

TEST_F(HealthRpcTest, NotServingWhenTheDatabaseStopsAndServingWhenItReturns) {
  StartServer();
  ASSERT_EQ(Check(""), HealthCheckResponse::SERVING);
  ASSERT_TRUE(server().Stop().ok());
  EXPECT_TRUE(WaitForHealth(HealthCheckResponse::NOT_SERVING, 5s));
  EXPECT_EQ(Check("warpwatch.v1.JobService"), HealthCheckResponse::NOT_SERVING);
  ASSERT_TRUE(server().Start().ok());
  EXPECT_TRUE(WaitForHealth(HealthCheckResponse::SERVING, 10s));
  EXPECT_EQ(TimedGetJob().first, grpc::StatusCode::NOT_FOUND);  // the store works again
}

TEST_F(HealthRpcTest, RpcsAnswerUnavailableWithinASecondWhileTheDatabaseIsDown) {
  StartServer();
  ASSERT_EQ(TimedGetJob().first, grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(server().Stop().ok());
  for (int i = 0; i < 3; ++i) {
    auto [code, took] = TimedGetJob();
    EXPECT_EQ(code, grpc::StatusCode::UNAVAILABLE);
    EXPECT_LT(took, 1500ms) << "call " << i;
  }
  v1::SubmitJobRequest submit;
  *submit.mutable_spec() = ValidSpec();
  v1::Job job;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(JobStub()->SubmitJob(Context().get(), submit, &job).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1500ms);
  ASSERT_TRUE(server().Start().ok());
}

TEST_F(HealthRpcTest, AServerStartedWithTheDatabaseDownRecoversWhenItComesUp) {
  ASSERT_TRUE(server().Stop().ok());
  StartServer();
  EXPECT_EQ(Check(""), HealthCheckResponse::NOT_SERVING);
  auto [code, took] = TimedGetJob();
  EXPECT_EQ(code, grpc::StatusCode::UNAVAILABLE);
  EXPECT_LT(took, 1500ms);
  ASSERT_TRUE(server().Start().ok());
  EXPECT_TRUE(WaitForHealth(HealthCheckResponse::SERVING, 10s));
  v1::SubmitJobRequest submit;
  *submit.mutable_spec() = ValidSpec();
  v1::Job job;
  grpc::Status status = JobStub()->SubmitJob(Context().get(), submit, &job);
  EXPECT_TRUE(status.ok()) << status.error_message();  // migrations ran once it answered
}

}  // namespace
}  // namespace warpwatch::testing
