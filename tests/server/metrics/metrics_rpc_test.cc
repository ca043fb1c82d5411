// File: tests/server/metrics/metrics_rpc_test.cc
// /metrics exposes per-method, per-code RPC latency and the database gauge.
#include <gtest/gtest.h>

#include <string>

#include "tests/server/metrics/metrics_scrape.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

class MetricsRpcTest : public RpcTest {};

TEST_F(MetricsRpcTest, RpcDurationsAreRecordedByMethodAndCode) {
  server::ServerConfig config = TestConfig();
  config.metrics_listen = "127.0.0.1:0";
  StartServer(config);
  ASSERT_EQ(runtime_->metrics_ports().size(), 1u);
  v1::GetJobRequest request;
  request.set_job_id(77);
  v1::Job job;
  ASSERT_EQ(JobStub()->GetJob(Context().get(), request, &job).error_code(),
            grpc::StatusCode::NOT_FOUND);

  const std::string metrics = FetchMetrics(runtime_->metrics_ports()[0]);
  EXPECT_TRUE(HasLineWith(
      metrics, {"warpwatch_rpc_duration_seconds_count", "method=\"warpwatch.v1.JobService/GetJob\"",
                "code=\"NOT_FOUND\"", "} 1"}))
      << metrics;
  EXPECT_TRUE(HasLineWith(metrics, {"warpwatch_database_up", " 1"})) << metrics;
}

TEST_F(MetricsRpcTest, AnEmptyMetricsAddressDisablesTheExporter) {
  StartServer();
  EXPECT_TRUE(runtime_->metrics_ports().empty());
}

}  // namespace
}  // namespace warpwatch::testing
