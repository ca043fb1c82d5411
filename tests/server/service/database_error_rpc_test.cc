// File: tests/server/service/database_error_rpc_test.cc
// Database trouble reaches clients as a fixed message with its code and a request id; libpq's
// text (database host, port, user, database name) is in the server log only, under that id
// (issue 23).
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>

#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

class DatabaseErrorRpcTest : public RpcTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  DatabaseErrorRpcTest() { own_server_ = true; }
  void SetUp() override {
    RpcTest::SetUp();
    sink_ = std::make_shared<spdlog::sinks::ostream_sink_mt>(log_);
    spdlog::default_logger()->sinks().push_back(sink_);
  }
  void TearDown() override {
    RpcTest::TearDown();
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }

  std::ostringstream log_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

TEST_F(DatabaseErrorRpcTest, ADatabaseThatStopsAnswersAFixedMessageAndLogsTheDetail) {
  StartServer();
  v1::GetJobRequest request;
  request.set_job_id(1);
  v1::Job job;
  ASSERT_EQ(JobStub()->GetJob(Context().get(), request, &job).error_code(),
            grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(server().Stop().ok());

  const grpc::Status status = JobStub()->GetJob(Context().get(), request, &job);
  ASSERT_TRUE(server().Start().ok());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  const std::string& message = status.error_message();
  const std::string database = url_.substr(url_.rfind('/') + 1);
  for (const std::string& internal :
       {std::string("127.0.0.1"), std::string("port"), std::string("connection to server"),
        std::string("refused"), database}) {
    EXPECT_EQ(message.find(internal), std::string::npos) << "\"" << internal << "\" in " << message;
  }
  const size_t at = message.find("(request id ");
  ASSERT_NE(at, std::string::npos) << message;
  const std::string request_id = message.substr(at + 12, 16);
  runtime_.reset();  // its threads stop logging before the log is read
  std::istringstream lines(log_.str());
  bool logged = false;
  for (std::string line; std::getline(lines, line);) {
    logged = logged || (line.find("request_id=" + request_id) != std::string::npos &&
                        line.find("GetJob") != std::string::npos &&
                        line.find("127.0.0.1") != std::string::npos);
  }
  EXPECT_TRUE(logged) << "no log line with request_id=" << request_id
                      << " and the database's detail:\n"
                      << log_.str();
}

}  // namespace
}  // namespace warpwatch::testing
