// File: server/validation/job_spec_validator.cc
#include "server/validation/job_spec_validator.h"

#include <algorithm>

#include "common/catalog/plan.h"
#include "server/validation/detail/field_rules.h"

namespace warpwatch::server::validation {
namespace {

using detail::CheckIntRange;
using detail::CheckOptionalPositive;

Status ValidateMeasurement(const v1::MeasurementSettings& m, const SpecLimits& limits) {
  const std::string f = "spec.measurement.";
  RETURN_IF_ERROR(CheckIntRange(m.min_samples(), 0, kMaxMinSamples, f + "min_samples"));
  RETURN_IF_ERROR(CheckIntRange(m.max_samples(), 0, kMaxMaxSamples, f + "max_samples"));
  const int64_t fits = MaxSamplesForUpload(limits.max_upload_bytes);
  if (m.max_samples() > fits) {
    return InvalidArgumentError(
        f + "max_samples: " + std::to_string(m.max_samples()) +
        " samples make a measurement larger than one upload (--max-upload-bytes " +
        std::to_string(limits.max_upload_bytes) + "), so it could never be stored; at most " +
        std::to_string(fits));
  }
  const int min_samples = m.min_samples() == 0 ? kDefaultMinSamples : m.min_samples();
  // Unset, the worker's default applies, raised to min_samples (worker/engine/engine_settings.h).
  const int max_samples =
      m.max_samples() == 0 ? std::max(kDefaultMaxSamples, min_samples) : m.max_samples();
  // min_samples raised the cap (the default cap itself is the server's deployment choice, as
  // before): it must fit one upload as an explicit max_samples must.
  if (m.max_samples() == 0 && min_samples > kDefaultMaxSamples && max_samples > fits) {
    return InvalidArgumentError(
        f + "min_samples: " + std::to_string(min_samples) +
        " samples make a measurement larger than one upload (--max-upload-bytes " +
        std::to_string(limits.max_upload_bytes) + "), so it could never be stored; at most " +
        std::to_string(fits));
  }
  if (min_samples > max_samples) {
    return InvalidArgumentError(f + "min_samples: " + std::to_string(min_samples) +
                                " exceeds max_samples " + std::to_string(max_samples));
  }
  RETURN_IF_ERROR(CheckOptionalPositive(m.target_noise(), kMaxTargetNoise, f + "target_noise"));
  RETURN_IF_ERROR(CheckOptionalPositive(m.min_gpu_time_seconds(), kMaxMinGpuTimeSeconds,
                                        f + "min_gpu_time_seconds"));
  RETURN_IF_ERROR(CheckOptionalPositive(m.point_timeout_seconds(), kMaxPointTimeoutSeconds,
                                        f + "point_timeout_seconds"));
  return OkStatus();
}

Status ValidateSelector(const v1::DeviceSelector& s) {
  RETURN_IF_ERROR(
      detail::CheckLength(s.gpu_model(), kMaxSelectorLength, "spec.selector.gpu_model"));
  RETURN_IF_ERROR(detail::CheckLength(s.gpu_uuid(), kMaxSelectorLength, "spec.selector.gpu_uuid"));
  return detail::CheckLabels(s.worker_labels(), "spec.selector.worker_labels");
}

}  // namespace

int64_t MaxSamplesForUpload(int64_t max_upload_bytes) {
  const int64_t room = max_upload_bytes - kMeasurementOverheadBytes;
  return room <= 0 ? 0 : room / kMaxBytesPerSample;
}

StatusOr<int64_t> ValidateJobSpec(const v1::JobSpec& spec, const SpecLimits& limits) {
  if (spec.families().empty()) {
    return InvalidArgumentError("spec.families: empty; name at least one family or glob");
  }
  RETURN_IF_ERROR(ValidateMeasurement(spec.measurement(), limits));
  RETURN_IF_ERROR(ValidateSelector(spec.selector()));
  RETURN_IF_ERROR(detail::CheckLabels(spec.labels(), "spec.labels"));
  RETURN_IF_ERROR(CheckIntRange(spec.priority(), kMinPriority, kMaxPriority, "spec.priority"));
  RETURN_IF_ERROR(CheckIntRange(spec.max_attempts(), 0, kMaxMaxAttempts, "spec.max_attempts"));
  RETURN_IF_ERROR(
      CheckOptionalPositive(spec.timeout_seconds(), kMaxJobTimeoutSeconds, "spec.timeout_seconds"));

  catalog::PlanLimits plan_limits;
  plan_limits.max_points = limits.max_points;
  ASSIGN_OR_RETURN(std::vector<catalog::Point> points, catalog::ExpandSpec(spec, plan_limits));
  if (points.empty()) {
    return InvalidArgumentError(
        "spec: selects no case points (check spec.families and "
        "spec.variants)");
  }
  return static_cast<int64_t>(points.size());
}

}  // namespace warpwatch::server::validation
