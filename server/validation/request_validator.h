// File: server/validation/request_validator.h
// Validates JobService requests at the RPC edge. INVALID_ARGUMENT naming the field on any error.
#ifndef WARPWATCH_SERVER_VALIDATION_REQUEST_VALIDATOR_H_
#define WARPWATCH_SERVER_VALIDATION_REQUEST_VALIDATOR_H_

#include <cstdint>

#include "common/status/status.h"
#include "server/validation/job_spec_validator.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::validation {

inline constexpr size_t kMaxPageTokenLength = 1024;
inline constexpr size_t kMaxRequestIdLength = 64;
inline constexpr size_t kMaxCancelReasonLength = 1024;

// The spec's points_total when valid (job_spec_validator.h); request_id bounded, printable.
StatusOr<int64_t> ValidateSubmitJob(const v1::SubmitJobRequest& request, const SpecLimits& limits);
// job_id > 0 (GetJob and WatchJob).
Status ValidateGetJob(const v1::GetJobRequest& request);
// job_id > 0, reason bounded.
Status ValidateCancelJob(const v1::CancelJobRequest& request);
// page_size >= 0 (larger than the maximum is clamped: server/store/paging.h), known states,
// labels, time range order, token length.
Status ValidateListJobs(const v1::ListJobsRequest& request);

}  // namespace warpwatch::server::validation

#endif  // WARPWATCH_SERVER_VALIDATION_REQUEST_VALIDATOR_H_
