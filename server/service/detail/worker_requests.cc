// File: server/service/detail/worker_requests.cc
#include "server/service/detail/worker_requests.h"

#include <cmath>
#include <set>
#include <string>

namespace warpwatch::server::detail {
namespace {

Status Required(const std::string& value, const char* field) {
  if (value.empty()) return InvalidArgumentError(std::string(field) + ": empty");
  if (value.size() > kMaxWorkerTextLength) {
    return InvalidArgumentError(std::string(field) + ": longer than " +
                                std::to_string(kMaxWorkerTextLength) + " bytes");
  }
  return OkStatus();
}

// At most kMaxWorkerTextLength bytes (may be empty).
Status Bounded(const std::string& value, const std::string& field) {
  if (value.size() <= kMaxWorkerTextLength) return OkStatus();
  return InvalidArgumentError(field + ": " + std::to_string(value.size()) +
                              " bytes, longer than the limit of " +
                              std::to_string(kMaxWorkerTextLength));
}

// Timestamp's range (google/protobuf/timestamp.proto); the binary wire format carries any value.
bool InTimestampRange(const google::protobuf::Timestamp& ts) {
  return ts.seconds() >= -62135596800 && ts.seconds() <= 253402300799 && ts.nanos() >= 0 &&
         ts.nanos() <= 999999999;
}

Status Positive(int64_t value, const char* field) {
  if (value <= 0) {
    return InvalidArgumentError(std::string(field) + ": must be > 0, got " + std::to_string(value));
  }
  return OkStatus();
}

}  // namespace

Status ValidateRegister(const v1::RegisterRequest& request) {
  RETURN_IF_ERROR(Required(request.hostname(), "hostname"));
  if (request.worker_id().size() > kMaxWorkerTextLength) {
    return InvalidArgumentError("worker_id: longer than " + std::to_string(kMaxWorkerTextLength) +
                                " bytes");
  }
  if (request.version().size() > kMaxWorkerTextLength) {
    return InvalidArgumentError("version: longer than " + std::to_string(kMaxWorkerTextLength) +
                                " bytes");
  }
  if (request.labels_size() > static_cast<int>(kMaxWorkerLabels)) {
    return InvalidArgumentError("labels: more than " + std::to_string(kMaxWorkerLabels));
  }
  for (const auto& [key, value] : request.labels()) {
    if (key.empty() || key.size() > kMaxWorkerTextLength || value.size() > kMaxWorkerTextLength) {
      return InvalidArgumentError("labels[\"" + key.substr(0, 64) +
                                  "\"]: empty key or longer than " +
                                  std::to_string(kMaxWorkerTextLength) + " bytes");
    }
  }
  if (request.devices_size() > kMaxWorkerDevices) {
    return InvalidArgumentError("devices: more than " + std::to_string(kMaxWorkerDevices));
  }
  std::set<std::string> uuids;
  for (int i = 0; i < request.devices_size(); ++i) {
    const std::string field = "devices[" + std::to_string(i) + "].uuid";
    RETURN_IF_ERROR(Required(request.devices(i).uuid(), field.c_str()));
    if (!uuids.insert(request.devices(i).uuid()).second) {
      return InvalidArgumentError(field + ": \"" + request.devices(i).uuid() + "\" listed twice");
    }
    const std::string prefix = "devices[" + std::to_string(i) + "].";
    RETURN_IF_ERROR(Bounded(request.devices(i).name(), prefix + "name"));
    RETURN_IF_ERROR(Bounded(request.devices(i).pci_bus_id(), prefix + "pci_bus_id"));
  }
  return OkStatus();
}

Status ValidateHeartbeat(const v1::HeartbeatRequest& request) {
  RETURN_IF_ERROR(Required(request.worker_id(), "worker_id"));
  if (request.running_run_ids_size() > kMaxHeartbeatRunIds) {
    return ResourceExhaustedError(
        "running_run_ids: " + std::to_string(request.running_run_ids_size()) +
        " in one heartbeat, more than the limit of " + std::to_string(kMaxHeartbeatRunIds));
  }
  for (int i = 0; i < request.running_run_ids_size(); ++i) {
    const std::string field = "running_run_ids[" + std::to_string(i) + "]";
    RETURN_IF_ERROR(Positive(request.running_run_ids(i), field.c_str()));
  }
  return OkStatus();
}

Status ValidateAcquireJob(const v1::AcquireJobRequest& request) {
  RETURN_IF_ERROR(Required(request.worker_id(), "worker_id"));
  RETURN_IF_ERROR(Required(request.device_uuid(), "device_uuid"));
  if (!std::isfinite(request.wait_seconds()) || request.wait_seconds() < 0) {
    return InvalidArgumentError("wait_seconds: must be finite and >= 0");
  }
  return OkStatus();
}

Status ValidateReportProgress(const v1::ReportProgressRequest& request) {
  RETURN_IF_ERROR(Required(request.worker_id(), "worker_id"));
  RETURN_IF_ERROR(Positive(request.job_id(), "job_id"));
  RETURN_IF_ERROR(Positive(request.run_id(), "run_id"));
  if (request.points_done() < 0) return InvalidArgumentError("points_done: negative");
  if (request.points_total() < 0) return InvalidArgumentError("points_total: negative");
  if (request.current_case().size() > 4096) {
    return InvalidArgumentError("current_case: longer than 4096 bytes");
  }
  return OkStatus();
}

Status ValidateUploadMeasurements(const v1::UploadMeasurementsRequest& request,
                                  const UploadLimits& limits) {
  RETURN_IF_ERROR(Required(request.worker_id(), "worker_id"));
  RETURN_IF_ERROR(Positive(request.run_id(), "run_id"));
  if (request.measurements_size() > limits.max_measurements) {
    return ResourceExhaustedError("measurements: " + std::to_string(request.measurements_size()) +
                                  " in one call, more than --max-upload-batch " +
                                  std::to_string(limits.max_measurements) + "; split the batch");
  }
  const int64_t bytes = static_cast<int64_t>(request.ByteSizeLong());
  if (bytes > limits.max_bytes) {
    return ResourceExhaustedError("request of " + std::to_string(bytes) +
                                  " bytes, more than --max-upload-bytes " +
                                  std::to_string(limits.max_bytes) + "; split the batch");
  }
  for (int i = 0; i < request.measurements_size(); ++i) {
    const v1::Measurement& m = request.measurements(i);
    if (m.case_().canonical().empty()) {
      return InvalidArgumentError("measurements[" + std::to_string(i) + "].case.canonical: empty");
    }
    if (m.has_measured_at() && !InTimestampRange(m.measured_at())) {
      return InvalidArgumentError("measurements[" + std::to_string(i) +
                                  "].measured_at: outside 0001-01-01..9999-12-31 or nanos outside "
                                  "0..999999999");
    }
  }
  return OkStatus();
}

Status ValidateFinishJob(const v1::FinishJobRequest& request) {
  RETURN_IF_ERROR(Required(request.worker_id(), "worker_id"));
  RETURN_IF_ERROR(Positive(request.job_id(), "job_id"));
  RETURN_IF_ERROR(Positive(request.run_id(), "run_id"));
  if (request.outcome() == v1::JOB_OUTCOME_UNSPECIFIED ||
      !v1::JobOutcome_IsValid(request.outcome())) {
    return InvalidArgumentError("outcome: unspecified or unknown");
  }
  if (request.error().size() > kMaxErrorLength) {
    return InvalidArgumentError("error: longer than " + std::to_string(kMaxErrorLength) + " bytes");
  }
  return OkStatus();
}

}  // namespace warpwatch::server::detail
