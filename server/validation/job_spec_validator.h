// File: server/validation/job_spec_validator.h
// Validates a JobSpec before it is stored: the catalog part (families, variants, axes, sweep size)
// through catalog::ExpandSpec, and the rest (measurement settings, selector, labels, priority,
// attempts, timeout) here. Every error is INVALID_ARGUMENT whose message starts with the field
// path ("spec.measurement.target_noise: ...").
#ifndef WARPWATCH_SERVER_VALIDATION_JOB_SPEC_VALIDATOR_H_
#define WARPWATCH_SERVER_VALIDATION_JOB_SPEC_VALIDATOR_H_

#include <cstdint>

#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::validation {

// Server defaults of MeasurementSettings' zero values (job.proto).
inline constexpr int kDefaultMinSamples = 10;
inline constexpr int kDefaultMaxSamples = 2000;  // the worker's (worker/stats/stopping_rule.h)

// Bounds. Wider than any sensible job, narrow enough to refuse typos (0.5 for 0.005).
inline constexpr int kMaxMinSamples = 100000;
inline constexpr int kMaxMaxSamples = 1000000;
inline constexpr double kMaxTargetNoise = 0.5;
inline constexpr double kMaxMinGpuTimeSeconds = 60;
inline constexpr double kMaxPointTimeoutSeconds = 3600;
inline constexpr double kMaxJobTimeoutSeconds = 7 * 24 * 3600;
inline constexpr int kMinPriority = -100;
inline constexpr int kMaxPriority = 100;
inline constexpr int kMaxMaxAttempts = 100;
inline constexpr size_t kMaxSelectorLength = 256;

// Upper bound of the bytes one sample adds to a serialized Measurement: samples_seconds,
// sample_sm_clock_mhz, sample_kernel_seconds (packed doubles, 8 each), sample_throttled (packed
// bool, 1) and sample_group (packed int32 varint, at most 5).
inline constexpr int64_t kMaxBytesPerSample = 8 + 8 + 8 + 1 + 5;
// Room kept in an upload for everything of a measurement but its samples (case key, kernels,
// counters, error text) and the request around it.
inline constexpr int64_t kMeasurementOverheadBytes = 64 * 1024;

struct SpecLimits {
  int64_t max_points = 4096;           // --max-sweep-points
  int64_t max_upload_bytes = 3 << 20;  // --max-upload-bytes: one measurement must fit one upload
};

// The largest max_samples whose measurement still fits one upload of `max_upload_bytes`
// (a point is uploaded whole, so a bigger one could never be stored).
int64_t MaxSamplesForUpload(int64_t max_upload_bytes);

// The number of case points the spec expands to (Job.points_total) when it is valid.
StatusOr<int64_t> ValidateJobSpec(const v1::JobSpec& spec, const SpecLimits& limits);

}  // namespace warpwatch::server::validation

#endif  // WARPWATCH_SERVER_VALIDATION_JOB_SPEC_VALIDATOR_H_
