// File: tests/server/auth/rpc_auth_test.cc
// Each role's allowed and refused calls over a real channel, plus no token, a bad token and open
// mode. An allowed call gets past authorization (its own answer: OK, NOT_FOUND, UNIMPLEMENTED);
// a refused one gets PERMISSION_DENIED, and a missing or unknown token UNAUTHENTICATED.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/result.grpc.pb.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::testing {
namespace {

constexpr const char* kReader = "reader-token-0000001";
constexpr const char* kSubmitter = "submitter-token-0001";
constexpr const char* kWorker = "worker-token-0000001";
constexpr const char* kAdmin = "admin-token-00000001";

// Methods exercised, by short name.
const std::vector<std::string> kMethods = {
    "GetJob",   "ListJobs",   "WatchJob",  "SubmitJob", "CancelJob",
    "Register", "AcquireJob", "FinishJob", "ListRuns",  "UpdateRegression"};

class RpcAuthTest : public RpcTest {
 protected:
  void StartWithTokens() {
    server::ServerConfig config = TestConfig();
    config.tokens_file = dir_.Write(
        "tokens", std::string("# roles\n") + kReader + " reader dash\n" + kSubmitter +
                      " submitter ci\n" + kWorker + " worker node1\n" + kAdmin + " admin ops\n");
    StartServer(config);
  }

  grpc::StatusCode Call(const std::string& method, const std::string& token) {
    auto channel = Channel();
    auto jobs = v1::JobService::NewStub(channel);
    auto workers = v1::WorkerService::NewStub(channel);
    auto results = v1::ResultService::NewStub(channel);
    auto context = Context(token);
    v1::Job job;
    if (method == "GetJob") {
      v1::GetJobRequest r;
      r.set_job_id(987654);
      return jobs->GetJob(context.get(), r, &job).error_code();
    }
    if (method == "ListJobs") {
      v1::ListJobsResponse out;
      return jobs->ListJobs(context.get(), v1::ListJobsRequest(), &out).error_code();
    }
    if (method == "WatchJob") {
      v1::GetJobRequest r;
      r.set_job_id(987654);
      auto reader = jobs->WatchJob(context.get(), r);
      v1::JobEvent event;
      while (reader->Read(&event)) {
      }
      return reader->Finish().error_code();
    }
    if (method == "SubmitJob") {
      v1::SubmitJobRequest r;
      *r.mutable_spec() = ValidSpec();
      return jobs->SubmitJob(context.get(), r, &job).error_code();
    }
    if (method == "CancelJob") {
      v1::CancelJobRequest r;
      r.set_job_id(987654);
      return jobs->CancelJob(context.get(), r, &job).error_code();
    }
    if (method == "Register") {
      v1::RegisterResponse out;
      return workers->Register(context.get(), v1::RegisterRequest(), &out).error_code();
    }
    if (method == "AcquireJob") {
      v1::AcquireJobResponse out;
      return workers->AcquireJob(context.get(), v1::AcquireJobRequest(), &out).error_code();
    }
    if (method == "FinishJob") {
      return workers->FinishJob(context.get(), v1::FinishJobRequest(), &job).error_code();
    }
    if (method == "ListRuns") {
      v1::ListRunsResponse out;
      return results->ListRuns(context.get(), v1::ListRunsRequest(), &out).error_code();
    }
    if (method == "UpdateRegression") {
      v1::Regression out;
      return results->UpdateRegression(context.get(), v1::UpdateRegressionRequest(), &out)
          .error_code();
    }
    ADD_FAILURE() << "unknown method " << method;
    return grpc::StatusCode::UNKNOWN;
  }

  void ExpectRole(const std::string& token, const std::set<std::string>& allowed) {
    for (const std::string& method : kMethods) {
      const grpc::StatusCode code = Call(method, token);
      if (allowed.count(method)) {
        EXPECT_NE(code, grpc::StatusCode::PERMISSION_DENIED) << method;
        EXPECT_NE(code, grpc::StatusCode::UNAUTHENTICATED) << method;
        EXPECT_NE(code, grpc::StatusCode::UNAVAILABLE) << method;
      } else {
        EXPECT_EQ(code, grpc::StatusCode::PERMISSION_DENIED) << method;
      }
    }
  }

  TempDir dir_;
};

TEST_F(RpcAuthTest, ReaderMayOnlyReadJobsAndQueryResults) {
  StartWithTokens();
  ExpectRole(kReader, {"GetJob", "ListJobs", "WatchJob", "ListRuns"});
}

TEST_F(RpcAuthTest, SubmitterMayAlsoSubmitCancelAndTriage) {
  StartWithTokens();
  ExpectRole(kSubmitter, {"GetJob", "ListJobs", "WatchJob", "SubmitJob", "CancelJob", "ListRuns",
                          "UpdateRegression"});
}

TEST_F(RpcAuthTest, WorkerMayOnlyCallWorkerService) {
  StartWithTokens();
  ExpectRole(kWorker, {"Register", "AcquireJob", "FinishJob"});
}

TEST_F(RpcAuthTest, AdminMayCallEverything) {
  StartWithTokens();
  ExpectRole(kAdmin, std::set<std::string>(kMethods.begin(), kMethods.end()));
}

TEST_F(RpcAuthTest, AllowedCallsGetTheirOwnAnswers) {
  StartWithTokens();
  EXPECT_EQ(Call("GetJob", kReader), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Call("ListJobs", kReader), grpc::StatusCode::OK);
  EXPECT_EQ(Call("SubmitJob", kSubmitter), grpc::StatusCode::OK);
  // WorkerService and ResultService answer for themselves (an empty request is refused or the
  // method is not implemented yet); only authorization matters here.
  for (auto [method, token] : {std::pair{"Register", kWorker}, std::pair{"ListRuns", kAdmin}}) {
    const grpc::StatusCode code = Call(method, token);
    EXPECT_NE(code, grpc::StatusCode::UNAUTHENTICATED) << method;
    EXPECT_NE(code, grpc::StatusCode::PERMISSION_DENIED) << method;
  }
}

TEST_F(RpcAuthTest, NoTokenIsUnauthenticated) {
  StartWithTokens();
  for (const std::string& method : kMethods) {
    EXPECT_EQ(Call(method, ""), grpc::StatusCode::UNAUTHENTICATED) << method;
  }
}

TEST_F(RpcAuthTest, AnUnknownTokenIsUnauthenticated) {
  StartWithTokens();
  for (const std::string& method : kMethods) {
    EXPECT_EQ(Call(method, "not-a-known-token-123"), grpc::StatusCode::UNAUTHENTICATED) << method;
  }
}

TEST_F(RpcAuthTest, SubmittedJobsRecordTheTokenName) {
  StartWithTokens();
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  v1::Job job;
  ASSERT_TRUE(JobStub()->SubmitJob(Context(kSubmitter).get(), request, &job).ok());
  EXPECT_EQ(job.submitted_by(), "ci");
}

TEST_F(RpcAuthTest, OpenModeAllowsEveryCallAsAnonymous) {
  StartServer();
  ExpectRole("", std::set<std::string>(kMethods.begin(), kMethods.end()));
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  v1::Job job;
  ASSERT_TRUE(JobStub()->SubmitJob(Context().get(), request, &job).ok());
  EXPECT_EQ(job.submitted_by(), "anonymous");
}

TEST_F(RpcAuthTest, ABadTokensFileStopsTheServerFromStarting) {
  server::ServerConfig config = TestConfig();
  config.tokens_file = dir_.Write("tokens", "0123456789abcdef wizard merlin\n");
  auto runtime = server::ServerRuntime::Start(config);
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(runtime.status().message().find("wizard"), std::string::npos);
}

TEST_F(RpcAuthTest, AnOpenServerOnANetworkAddressDoesNotStartUnlessAllowed) {
  server::ServerConfig config = TestConfig();
  config.listen = "0.0.0.0:0";
  auto refused = server::ServerRuntime::Start(config);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("--allow-open"), std::string::npos);
  config.allow_open = true;
  StartServer(config);
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  v1::Job job;
  EXPECT_TRUE(JobStub()->SubmitJob(Context().get(), request, &job).ok());
}

TEST_F(RpcAuthTest, TokensWithoutTlsOnANetworkAddressDoNotStartUnlessAllowed) {
  server::ServerConfig config = TestConfig();
  config.listen = "0.0.0.0:0";
  config.tokens_file = dir_.Write("tokens", std::string(kAdmin) + " admin ops\n");
  auto refused = server::ServerRuntime::Start(config);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--allow-plaintext-tokens"), std::string::npos);
  config.allow_plaintext_tokens = true;
  StartServer(config);
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  v1::Job job;
  EXPECT_TRUE(JobStub()->SubmitJob(Context(kAdmin).get(), request, &job).ok());
}

}  // namespace
}  // namespace warpwatch::testing
