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
  const std::string& id = request.request_id();
  if (id.size() > kMaxRequestIdLength) {
    return InvalidArgumentError("request_id: longer than " + std::to_string(kMaxRequestIdLength) +
                                " characters");
  }
  for (char c : id) {
    if (c < 0x21 || c > 0x7e) {
      return InvalidArgumentError("request_id: printable ASCII without spaces only");
    }
  }
  return ValidateJobSpec(request.spec(), limits);
}

Status ValidateGetJob(const v1::GetJobRequest& request) { return CheckJobId(request.job_id()); }

Status ValidateCancelJob(const v1::CancelJobRequest& request) {
  RETURN_IF_ERROR(CheckJobId(request.job_id()));
  return detail::CheckLength(request.reason(), kMaxCancelReasonLength, "reason");
}

Status ValidateListJobs(const v1::ListJobsRequest& request) {
  // Above the maximum is clamped (server/store/paging.h), only a negative size is refused.
  if (request.page_size() < 0) return InvalidArgumentError("page_size: negative");
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
