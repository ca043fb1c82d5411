// File: server/validation/request_validator.cc
#include "server/validation/request_validator.h"

#include <google/protobuf/util/time_util.h>

#include "server/validation/detail/field_rules.h"

namespace warpwatch::server::validation {
namespace {

Status CheckJobId(int64_t id) {
  if (id <= 0) {
    return InvalidArgumentError("job_id: must be positive, got " + std::to_string(id));
  }
  return OkStatus();
}

}  // namespace

StatusOr<int64_t> ValidateSubmitJob(const v1::SubmitJobRequest& request, const SpecLimits& limits) {
  return ValidateJobSpec(request.spec(), limits);
}

Status ValidateGetJob(const v1::GetJobRequest& request) { return CheckJobId(request.job_id()); }

Status ValidateCancelJob(const v1::CancelJobRequest& request) {
  RETURN_IF_ERROR(CheckJobId(request.job_id()));
  return detail::CheckLength(request.reason(), kMaxCancelReasonLength, "reason");
}

Status ValidateListJobs(const v1::ListJobsRequest& request) {
  RETURN_IF_ERROR(detail::CheckIntRange(request.page_size(), 0, kMaxPageSize, "page_size"));
  for (int i = 0; i < request.states_size(); ++i) {
    const int state = request.states(i);
    if (state == v1::JOB_STATE_UNSPECIFIED || !v1::JobState_IsValid(state)) {
      return InvalidArgumentError("states[" + std::to_string(i) + "]: not a job state (" +
                                  std::to_string(state) + ")");
    }
  }
  RETURN_IF_ERROR(detail::CheckLabels(request.labels(), "labels"));
  RETURN_IF_ERROR(detail::CheckLength(request.gpu_model(), kMaxSelectorLength, "gpu_model"));
  RETURN_IF_ERROR(detail::CheckLength(request.gpu_uuid(), kMaxSelectorLength, "gpu_uuid"));
  RETURN_IF_ERROR(detail::CheckLength(request.page_token(), kMaxPageTokenLength, "page_token"));
  const v1::TimeRange& created = request.created();
  if (created.has_start() && created.has_end() && !(created.start() < created.end())) {
    return InvalidArgumentError("created: start must be before end");
  }
  return OkStatus();
}

}  // namespace warpwatch::server::validation
