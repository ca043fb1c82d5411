// File: tests/server/metrics/unknown_method_metrics_rpc_test.cc
// Calls to methods the server does not serve are counted under one label, method="unknown", so
// made-up names cannot grow /metrics (issue 23: 2000 of them grew it from 8.8 KB to 9.8 MB).
#include <grpcpp/generic/generic_stub.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <future>
#include <string>

#include "tests/server/metrics/metrics_scrape.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

class UnknownMethodMetricsRpcTest : public RpcTest {
 protected:
  grpc::Status CallNamed(grpc::GenericStub& stub, const std::string& method) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::Slice empty(std::string{});
    grpc::ByteBuffer request(&empty, 1), response;  // an empty message
    std::promise<grpc::Status> done;
    stub.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                   [&done](grpc::Status status) { done.set_value(std::move(status)); });
    return done.get_future().get();
  }
};

// The body of a scrape (after the HTTP headers).
std::string Body(const std::string& response) {
  const size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

TEST_F(UnknownMethodMetricsRpcTest, TenThousandMadeUpMethodsGrowMetricsByUnderAKilobyte) {
  server::ServerConfig config = TestConfig();
  config.metrics_listen = "127.0.0.1:0";
  StartServer(config);
  ASSERT_EQ(runtime_->metrics_ports().size(), 1u);
  const int port = runtime_->metrics_ports()[0];
  const std::string before = Body(FetchMetrics(port));
  ASSERT_FALSE(before.empty());

  grpc::GenericStub stub(Channel());
  constexpr int kCalls = 10000;
  int unimplemented = 0;
  for (int i = 0; i < kCalls; ++i) {
    const std::string name = "/made.up.Service" + std::to_string(i) + "/Method" + std::to_string(i);
    unimplemented += CallNamed(stub, name).error_code() == grpc::StatusCode::UNIMPLEMENTED;
  }
  EXPECT_EQ(unimplemented, kCalls);

  const std::string after = Body(FetchMetrics(port));
  std::printf("/metrics: %zu bytes before, %zu after %d calls to made-up methods\n", before.size(),
              after.size(), kCalls);
  EXPECT_LT(after.size(), before.size() + 1024)
      << "grew by " << after.size() - before.size() << " bytes";
  EXPECT_EQ(after.find("made.up"), std::string::npos);
  EXPECT_TRUE(HasLineWith(after, {"warpwatch_rpc_duration_seconds_count", "method=\"unknown\"",
                                  "code=\"UNIMPLEMENTED\"", "} " + std::to_string(kCalls)}))
      << after;
}

TEST_F(UnknownMethodMetricsRpcTest, AServedMethodKeepsItsOwnLabel) {
  server::ServerConfig config = TestConfig();
  config.metrics_listen = "127.0.0.1:0";
  StartServer(config);
  grpc::GenericStub stub(Channel());
  // An empty ListJobsRequest is valid: OK in open mode.
  EXPECT_TRUE(CallNamed(stub, "/warpwatch.v1.JobService/ListJobs").ok());
  EXPECT_EQ(CallNamed(stub, "/warpwatch.v1.JobService/NoSuchMethod").error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  const std::string metrics = FetchMetrics(runtime_->metrics_ports()[0]);
  EXPECT_TRUE(
      HasLineWith(metrics, {"warpwatch_rpc_duration_seconds_count",
                            "method=\"warpwatch.v1.JobService/ListJobs\"", "code=\"OK\"", "} 1"}))
      << metrics;
  EXPECT_TRUE(HasLineWith(metrics, {"warpwatch_rpc_duration_seconds_count", "method=\"unknown\"",
                                    "code=\"UNIMPLEMENTED\"", "} 1"}))
      << metrics;
  EXPECT_EQ(metrics.find("NoSuchMethod"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::testing
