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

}  // namespace
}  // namespace warpwatch::server::detail
