// File: tests/server/service/detail/worker_requests_test.cc
// WorkerService request checks (server/service/detail/worker_requests) without a server.
#include "server/service/detail/worker_requests.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace warpwatch::server::detail {
namespace {

v1::UploadMeasurementsRequest OnePointUpload() {
  v1::UploadMeasurementsRequest request;
  request.set_worker_id("worker-1");
  request.set_run_id(7);
  v1::Measurement* m = request.add_measurements();
  m->mutable_case_()->set_canonical("memory.coalescing/copy?block_size=256&n=16777216");
  m->mutable_measured_at()->set_seconds(1764086400);
  return request;
}

TEST(WorkerRequestsTest, UploadWithAMeasuredAtInRangeIsAccepted) {
  EXPECT_TRUE(ValidateUploadMeasurements(OnePointUpload(), UploadLimits{}).ok());
}

// Found by tests/fuzz upload_measurements (corpus: measured_at_out_of_range.pb): the binary wire
// format carries any seconds and nanos, which the store's conversion to microseconds overflowed.
TEST(WorkerRequestsTest, UploadWithAMeasuredAtOutOfRangeIsRefusedNamingTheField) {
  v1::UploadMeasurementsRequest request = OnePointUpload();
  request.mutable_measurements(0)->mutable_measured_at()->set_seconds(
      std::numeric_limits<int64_t>::max());
  Status status = ValidateUploadMeasurements(request, UploadLimits{});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("measurements[0].measured_at"), std::string::npos);

  request = OnePointUpload();
  request.mutable_measurements(0)->mutable_measured_at()->set_nanos(1000000000);
  EXPECT_EQ(ValidateUploadMeasurements(request, UploadLimits{}).code(),
            StatusCode::kInvalidArgument);
}

// Issue 23: lists and strings a worker sends have bounds, checked at the edge.
TEST(WorkerRequestsTest, AHeartbeatNamingMoreRunsThanTheLimitIsResourceExhausted) {
  v1::HeartbeatRequest request;
  request.set_worker_id("worker-1");
  for (int i = 1; i <= kMaxHeartbeatRunIds; ++i) request.add_running_run_ids(i);
  EXPECT_TRUE(ValidateHeartbeat(request).ok());
  request.add_running_run_ids(kMaxHeartbeatRunIds + 1);
  const Status status = ValidateHeartbeat(request);
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(status.message().find("running_run_ids: " + std::to_string(kMaxHeartbeatRunIds + 1) +
                                  " in one heartbeat, more than the limit of " +
                                  std::to_string(kMaxHeartbeatRunIds)),
            std::string::npos)
      << status.message();
}

TEST(WorkerRequestsTest, ADeviceNameOverTheLimitIsRefusedNamingTheFieldAndTheLimit) {
  v1::RegisterRequest request;
  request.set_hostname("node-1");
  v1::Device* device = request.add_devices();
  device->set_uuid("GPU-1");
  device->set_name(std::string(kMaxWorkerTextLength, 'H'));
  EXPECT_TRUE(ValidateRegister(request).ok());
  device->set_name(std::string(kMaxWorkerTextLength + 1, 'H'));
  Status status = ValidateRegister(request);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("devices[0].name: 257 bytes, longer than the limit of 256"),
            std::string::npos)
      << status.message();
  device->set_name("NVIDIA H100 80GB HBM3");
  device->set_pci_bus_id(std::string(1 << 20, '0'));
  status = ValidateRegister(request);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("devices[0].pci_bus_id"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace warpwatch::server::detail
