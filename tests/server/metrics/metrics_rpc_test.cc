// File: tests/server/metrics/metrics_rpc_test.cc
// /metrics exposes per-method, per-code RPC latency and the database gauge.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>
#include <string>

#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

// GET http://127.0.0.1:port/metrics; the whole response (headers and body), "" on failure.
std::string FetchMetrics(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buf[4096];
      for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) response.append(buf, n);
    }
  }
  close(fd);
  return response;
}

bool HasLineWith(const std::string& text, const std::vector<std::string>& parts) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    bool all = true;
    for (const std::string& part : parts) all = all && line.find(part) != std::string::npos;
    if (all) return true;
  }
  return false;
}

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
