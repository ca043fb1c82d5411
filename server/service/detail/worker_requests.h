// File: server/service/detail/worker_requests.h
// Checks of WorkerService requests at the RPC edge: INVALID_ARGUMENT naming the field, and
// RESOURCE_EXHAUSTED naming the limit for upload batches that are too large (the worker splits).
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_WORKER_REQUESTS_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_WORKER_REQUESTS_H_

#include <cstdint>

#include "common/status/status.h"
#include "warpwatch/v1/worker.pb.h"

namespace warpwatch::server::detail {

struct UploadLimits {
  int max_measurements = 500;   // --max-upload-batch
  int64_t max_bytes = 3 << 20;  // --max-upload-bytes (serialized request size)
};

// Bounds on free text a worker sends, so one bad worker cannot bloat the database.
inline constexpr size_t kMaxWorkerTextLength = 256;  // ids, hostname, version, uuids, labels
inline constexpr size_t kMaxWorkerLabels = 64;
inline constexpr int kMaxWorkerDevices = 64;
inline constexpr size_t kMaxErrorLength = 64 * 1024;  // FinishJob.error
// Runs one heartbeat may name: a worker runs one job per GPU, with room for runs being handed back.
inline constexpr int kMaxHeartbeatRunIds = 4 * kMaxWorkerDevices;

// hostname set; devices with distinct non-empty uuids; bounded labels and text (device names and
// PCI bus ids included).
Status ValidateRegister(const v1::RegisterRequest& request);
// worker_id set; run ids > 0; at most kMaxHeartbeatRunIds of them (RESOURCE_EXHAUSTED naming the
// limit).
Status ValidateHeartbeat(const v1::HeartbeatRequest& request);
// worker_id, device_uuid set; wait_seconds finite and >= 0.
Status ValidateAcquireJob(const v1::AcquireJobRequest& request);
// worker_id set; job_id, run_id > 0; 0 <= points_done; 0 <= points_total.
Status ValidateReportProgress(const v1::ReportProgressRequest& request);
// worker_id set; run_id > 0; the batch within `limits`; every measurement has case.canonical and
// a measured_at, when set, inside Timestamp's range.
Status ValidateUploadMeasurements(const v1::UploadMeasurementsRequest& request,
                                  const UploadLimits& limits);
// worker_id set; job_id, run_id > 0; a known outcome other than UNSPECIFIED; bounded error.
Status ValidateFinishJob(const v1::FinishJobRequest& request);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_WORKER_REQUESTS_H_
