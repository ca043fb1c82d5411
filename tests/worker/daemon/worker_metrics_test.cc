// File: tests/worker/daemon/worker_metrics_test.cc
// The worker's Prometheus metrics: per-case gauges with dcgm-exporter's labels, telemetry and the
// running job's progress only while a job runs, no per-job label, and /metrics served over HTTP.
#include "worker/metrics/worker_metrics.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <prometheus/text_serializer.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <string>

#include "tests/support/free_port.h"
#include "worker/metrics/metrics_exposer.h"

namespace warpwatch::worker {
namespace {

class FakeTelemetry : public Telemetry {
 public:
  explicit FakeTelemetry(uint64_t reasons = 0x4) : reasons_(reasons) {}
  std::string source() const override { return "fake"; }
  ClockReading ReadClock() override { return {1980, reasons_}; }
  DeviceConditions ReadConditions() override { return {1980, 2619, 61, 350}; }
  int MaxSmClockMhz() override { return 1980; }
  int MaxMemoryClockMhz() override { return 2619; }
  std::string DriverVersion() override { return "580"; }

 private:
  uint64_t reasons_;  // clocks-event reason bits of every reading
};

v1::Device Gpu() {
  v1::Device d;
  d.set_index(1);
  d.set_uuid("GPU-aaaa");
  d.set_name("NVIDIA H100 80GB HBM3");
  return d;
}

std::string Text(const WorkerMetrics& metrics) {
  return prometheus::TextSerializer().Serialize(metrics.registry()->Collect());
}

v1::Measurement Ok() {
  v1::Measurement m;
  m.mutable_case_()->set_family("reduce");
  m.mutable_case_()->set_variant("shuffle");
  m.mutable_case_()->set_canonical("reduce/shuffle?n=1024");
  m.set_status(v1::POINT_STATUS_OK);
  m.mutable_stats()->set_median(2e-6);
  m.set_gbps(1500);
  m.mutable_occupancy()->set_theoretical(0.75);
  m.mutable_occupancy()->set_achieved(0.6);
  return m;
}

TEST(WorkerMetrics, PointSetsPerCaseGaugesWithDcgmLabels) {
  WorkerMetrics metrics("node17");
  metrics.AddDevice(Gpu(), nullptr);
  metrics.OnPoint(Gpu(), Ok());
  std::string text = Text(metrics);
  const std::string labels =
      "Hostname=\"node17\",UUID=\"GPU-aaaa\",case=\"reduce/shuffle?n=1024\",family=\"reduce\","
      "gpu=\"1\",modelName=\"NVIDIA H100 80GB HBM3\",variant=\"shuffle\"";
  EXPECT_NE(text.find("warpwatch_worker_kernel_time_seconds{" + labels + "} 2e-06"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("warpwatch_worker_bandwidth_bytes_per_second{" + labels + "} 1500000000000"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("warpwatch_worker_occupancy_theoretical_ratio{" + labels + "} 0.75"),
            std::string::npos);
  EXPECT_NE(text.find("warpwatch_worker_occupancy_achieved_ratio{" + labels + "} 0.6"),
            std::string::npos);
  EXPECT_NE(text.find("status=\"ok\"} 1"), std::string::npos) << text;
}

TEST(WorkerMetrics, FailedPointsAreCountedButSetNoTiming) {
  WorkerMetrics metrics("h");
  v1::Measurement m = Ok();
  m.set_status(v1::POINT_STATUS_FAILED);
  metrics.OnPoint(Gpu(), m);
  std::string text = Text(metrics);
  EXPECT_EQ(text.find("warpwatch_worker_kernel_time_seconds{"), std::string::npos) << text;
  EXPECT_NE(text.find("status=\"failed\"} 1"), std::string::npos) << text;
}

TEST(WorkerMetrics, TelemetryIsExportedOnlyWhileAJobRuns) {
  WorkerMetrics metrics("h");
  metrics.AddDevice(Gpu(), std::make_unique<FakeTelemetry>());
  metrics.SampleOnce();
  EXPECT_EQ(Text(metrics).find("warpwatch_worker_sm_clock_hertz{"), std::string::npos);
  metrics.OnJobStarted(Gpu());
  metrics.SampleOnce();
  std::string running = Text(metrics);
  EXPECT_NE(running.find("warpwatch_worker_sm_clock_hertz{"), std::string::npos) << running;
  EXPECT_NE(running.find("1980000000"), std::string::npos) << running;
  EXPECT_NE(running.find("warpwatch_worker_gpu_temperature_celsius{"), std::string::npos);
  EXPECT_NE(running.find("warpwatch_worker_power_watts{"), std::string::npos);
  EXPECT_NE(running.find("warpwatch_worker_throttled{"), std::string::npos);
  EXPECT_NE(running.find("warpwatch_worker_gpu_busy{Hostname=\"h\",UUID=\"GPU-aaaa\",gpu=\"1\","
                         "modelName=\"NVIDIA H100 80GB HBM3\"} 1"),
            std::string::npos)
      << running;
  metrics.OnJobFinished(Gpu(), "succeeded");
  std::string idle = Text(metrics);
  EXPECT_EQ(idle.find("warpwatch_worker_sm_clock_hertz{"), std::string::npos) << idle;
  EXPECT_NE(idle.find("outcome=\"succeeded\"} 1"), std::string::npos) << idle;
}

// The value of `name`'s only series, or -1 when it has none.
double OnlyValue(const WorkerMetrics& metrics, const std::string& name) {
  for (const prometheus::MetricFamily& family : metrics.registry()->Collect()) {
    if (family.name == name && family.metric.size() == 1) return family.metric[0].gauge.value;
  }
  return -1;
}

// Locked or application clocks (reason 0x2) are the GPU's setting, not a throttle.
TEST(WorkerMetrics, ClockHeldAtItsSettingIsNotThrottled) {
  WorkerMetrics metrics("h");
  metrics.AddDevice(Gpu(), std::make_unique<FakeTelemetry>(0x2));
  metrics.OnJobStarted(Gpu());
  metrics.SampleOnce();
  EXPECT_EQ(OnlyValue(metrics, "warpwatch_worker_throttled"), 0);
  EXPECT_EQ(OnlyValue(metrics, "warpwatch_worker_throttle_reasons"), 2);
}

TEST(WorkerMetrics, PowerCapIsThrottled) {
  WorkerMetrics metrics("h");
  metrics.AddDevice(Gpu(), std::make_unique<FakeTelemetry>(0x2 | 0x4));
  metrics.OnJobStarted(Gpu());
  metrics.SampleOnce();
  EXPECT_EQ(OnlyValue(metrics, "warpwatch_worker_throttled"), 1);
}

double UnixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

TEST(WorkerMetrics, TheRunningJobShowsItsPointsAndStartTimeUntilItEnds) {
  WorkerMetrics metrics("h");
  metrics.AddDevice(Gpu(), nullptr);
  const double before = UnixNow();
  metrics.OnJobStarted(Gpu());
  const double after = UnixNow();
  EXPECT_NE(Text(metrics).find("warpwatch_worker_job_points_done{Hostname=\"h\",UUID=\"GPU-aaaa\","
                               "gpu=\"1\",modelName=\"NVIDIA H100 80GB HBM3\"} 0"),
            std::string::npos)
      << Text(metrics);
  const double started = OnlyValue(metrics, "warpwatch_worker_job_start_time_seconds");
  EXPECT_GE(started, before);
  EXPECT_LE(started, after);
  metrics.OnJobPlanned(Gpu(), 11);
  EXPECT_EQ(OnlyValue(metrics, "warpwatch_worker_job_points_planned"), 11);

  v1::Measurement failed = Ok();
  failed.set_status(v1::POINT_STATUS_FAILED);
  metrics.OnPoint(Gpu(), Ok());
  metrics.OnPoint(Gpu(), failed);
  EXPECT_EQ(OnlyValue(metrics, "warpwatch_worker_job_points_done"), 2);

  metrics.OnJobFinished(Gpu(), "succeeded");
  std::string idle = Text(metrics);
  EXPECT_EQ(idle.find("warpwatch_worker_job_points_done{"), std::string::npos) << idle;
  EXPECT_EQ(idle.find("warpwatch_worker_job_start_time_seconds{"), std::string::npos) << idle;
  EXPECT_EQ(idle.find("warpwatch_worker_job_points_planned{"), std::string::npos) << idle;
  metrics.OnJobPlanned(Gpu(), 5);  // no job runs: no plan is shown
  EXPECT_EQ(Text(metrics).find("warpwatch_worker_job_points_planned{"), std::string::npos);

  metrics.OnJobStarted(Gpu());
  EXPECT_EQ(OnlyValue(metrics, "warpwatch_worker_job_points_done"), 0);
}

TEST(WorkerMetrics, PointsOutsideAJobAreNoJobProgress) {
  WorkerMetrics metrics("h");
  metrics.AddDevice(Gpu(), nullptr);
  metrics.OnPoint(Gpu(), Ok());
  EXPECT_EQ(Text(metrics).find("warpwatch_worker_job_points_done{"), std::string::npos);
}

TEST(WorkerMetrics, NoLabelNamesAJobOrRun) {
  WorkerMetrics metrics("h");
  metrics.AddDevice(Gpu(), std::make_unique<FakeTelemetry>());
  metrics.OnJobStarted(Gpu());
  metrics.OnPoint(Gpu(), Ok());
  metrics.SampleOnce();
  metrics.OnJobFinished(Gpu(), "failed");
  const std::set<std::string> allowed = {"gpu",    "UUID",    "modelName", "Hostname", "family",
                                         "variant", "case",   "status",    "outcome"};
  for (const prometheus::MetricFamily& family : metrics.registry()->Collect()) {
    for (const prometheus::ClientMetric& metric : family.metric) {
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        EXPECT_TRUE(allowed.count(label.name)) << family.name << " has label " << label.name;
      }
    }
  }
}

TEST(MetricsBindAddress, AddsTheWildcardHostAndRejectsMissingPorts) {
  EXPECT_EQ(*MetricsBindAddress(":9465"), "0.0.0.0:9465");
  EXPECT_EQ(*MetricsBindAddress("127.0.0.1:1"), "127.0.0.1:1");
  EXPECT_EQ(MetricsBindAddress("host").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MetricsBindAddress("host:x").status().code(), StatusCode::kInvalidArgument);
}

// GET /metrics from 127.0.0.1:port; the whole response.
std::string HttpGet(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return "";
  }
  std::string request = "GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n";
  [[maybe_unused]] ssize_t sent = ::send(fd, request.data(), request.size(), 0);
  std::string response;
  char buffer[4096];
  ssize_t n;
  while ((n = ::recv(fd, buffer, sizeof(buffer), 0)) > 0) response.append(buffer, n);
  ::close(fd);
  return response;
}

int FreePort() {
  StatusOr<int> port = warpwatch::testing::FreeLoopbackPort();
  EXPECT_TRUE(port.ok()) << port.status().ToString();
  return port.ok() ? *port : 0;
}

TEST(ExposeMetrics, ServesTheRegistryOverHttp) {
  WorkerMetrics metrics("h");
  metrics.OnPoint(Gpu(), Ok());
  int port = FreePort();
  auto exposer = ExposeMetrics("127.0.0.1:" + std::to_string(port), metrics.registry());
  ASSERT_TRUE(exposer.ok()) << exposer.status().ToString();
  std::string response = HttpGet(port);
  EXPECT_NE(response.find("200 OK"), std::string::npos) << response;
  EXPECT_NE(response.find("warpwatch_worker_kernel_time_seconds"), std::string::npos);
}

TEST(ExposeMetrics, ABusyPortIsUnavailable) {
  WorkerMetrics metrics("h");
  int port = FreePort();
  auto first = ExposeMetrics("127.0.0.1:" + std::to_string(port), metrics.registry());
  ASSERT_TRUE(first.ok());
  auto second = ExposeMetrics("127.0.0.1:" + std::to_string(port), metrics.registry());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace warpwatch::worker
