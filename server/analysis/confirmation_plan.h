// File: server/analysis/confirmation_plan.h
// The confirmation re-run of a run's suspects: the job that re-measures them on the same device,
// and the verdict on each suspect once that job's run is in.
#ifndef WARPWATCH_SERVER_ANALYSIS_CONFIRMATION_PLAN_H_
#define WARPWATCH_SERVER_ANALYSIS_CONFIRMATION_PLAN_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/analysis/analysis_store.h"
#include "server/detect/detection_config.h"
#include "server/detect/run_point.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::analysis {

// Label put on confirmation jobs: the id of the run they confirm.
inline constexpr const char* kConfirmsRunLabel = "warpwatch.confirms_run";

// `original` (a run's job spec) restricted to `cases`, on `device_uuid` only:
// families = the cases' families, variants = "family/variant" of each case (a variant of that
// family only), one axis override per (family, axis) with the cases' values of that axis,
// selector = that GPU UUID alone (the worker labels and model glob are dropped: the UUID names the
// device). Measurement settings, priority, attempts, timeout and labels are kept. Within one
// family the axes still form a product, so cases of one family that differ in two axes bring a
// few extra points along.
v1::JobSpec RestrictedSpec(const v1::JobSpec& original, const std::vector<RunCase>& cases,
                           const std::string& device_uuid);

// RestrictedSpec of `original` (the suspect run's job spec) to the suspects, plus
// kConfirmsRunLabel and the counter pass (issue 26 item 3): the confirmation also measures the
// new level's counters, which the finding's explanation diffs against the GPU's counter run of
// the baseline level. Each point's samples are timed before its own counter pass (a suspect
// measured after another point follows that point's counter pass: docs/regressions.md gives its
// measured effect), and the run is a series of its own (counters on), so it never joins a nightly
// baseline; only ResolveWithConfirmation reads its timings. Only the suspects are judged.
// Precondition: `suspects` non-empty.
v1::JobSpec ConfirmationSpec(const v1::JobSpec& original, const std::vector<RunCase>& suspects,
                             const std::string& device_uuid, int64_t run_id);

// The number of points the worker will run for `spec` (catalog::ExpandSpec, the rules the worker
// applies); INVALID_ARGUMENT when the catalog refuses it (a family or axis value that no longer
// exists), in which case no confirmation job can be queued.
StatusOr<int64_t> PlannedPoints(const v1::JobSpec& spec);

struct SuspectResolution {
  std::string state;  // kStateOpen or kStateNoise
  std::string note;   // what the confirmation run showed
};

// Re-decides `suspect` on the confirmation run's point of its case (`confirmation`: nullptr when
// the confirmation run did not measure it) against `baseline`, the suspect's own baseline runs:
//  - the same verdict (SLOWER for a REGRESSION, FASTER for an IMPROVEMENT): OPEN;
//  - SAME or the opposite verdict: NOISE;
//  - not measured, or UNSURE (the point failed, was throttled, unverified): OPEN, unconfirmed:
//    the first run's evidence stands alone rather than being thrown away.
// A suspect judged against a pinned baseline (suspect.pinned) is re-decided with
// detect::DecideAgainstPinned, `rolling` (the series' history; may be null) giving the spread.
SuspectResolution ResolveWithConfirmation(const Suspect& suspect, const RunCase* confirmation,
                                          const std::vector<detect::RunPoint>& baseline,
                                          const detect::DetectionConfig& config,
                                          const std::vector<detect::RunPoint>* rolling = nullptr,
                                          const detect::NoiseEstimate& model_noise = {});

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_CONFIRMATION_PLAN_H_
