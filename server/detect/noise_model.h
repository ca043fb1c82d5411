// File: server/detect/noise_model.h
// How far a series' run median moves between runs of identical code, and the smallest change the
// per-run decision catches. A case's between-run spread is mostly a property of the case on its
// GPU model, so it is estimated from every device of the model over a long window and pooled with
// the device's own recent runs: five or ten runs alone give a sigma that is often half or twice
// the truth, which is where the false alarms of a 5-run MAD came from (docs/regressions.md).
#ifndef WARPWATCH_SERVER_DETECT_NOISE_MODEL_H_
#define WARPWATCH_SERVER_DETECT_NOISE_MODEL_H_

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "server/detect/detection_config.h"
#include "server/detect/run_point.h"

namespace warpwatch::server::detect {

// A relative between-run standard deviation and what it rests on.
struct NoiseEstimate {
  double sigma_relative = std::numeric_limits<double>::quiet_NaN();  // NaN: no estimate
  size_t pairs = 0;    // consecutive same-device run pairs it came from
  size_t devices = 0;  // devices contributing at least one pair
  bool known() const { return pairs > 0 && sigma_relative >= 0; }
};

// Successive differences of each device's good runs (IsGoodRun; `history` oldest first, any
// devices): d = x_i / x_(i-1) - 1 for consecutive runs of one device, pooled over devices;
// sigma = 1.4826 * median(|d|) / sqrt(2). Device offsets cancel (a pair never spans two GPUs) and
// a lasting level step adds one large difference instead of shifting half the window, so the
// estimate stays the noise even across a change. No pairs: sigma NaN.
NoiseEstimate SuccessiveDifferenceNoise(const std::vector<RunPoint>& history,
                                        const DetectionConfig& config);

// The sigma one decision uses, and where it came from.
struct SeriesNoise {
  double sigma_relative = std::numeric_limits<double>::quiet_NaN();  // floored, pooled
  double model_sigma = std::numeric_limits<double>::quiet_NaN();     // NaN: no model estimate
  double own_sigma = std::numeric_limits<double>::quiet_NaN();       // NaN: fewer than 2 runs
  size_t model_pairs = 0;  // what the model estimate rests on
  size_t model_devices = 0;
  double model_weight = 0;  // pairs of the model estimate counted (capped)
  double own_weight = 0;    // the device's own pairs
  double dof = 0;           // degrees of freedom of the tail (Student t)
  bool floored = false;     // sigma is config.noise_floor_relative
  bool kept = false;        // sigma is an earlier decision's (KeepSigma), not this pool
};

// sigma^2 = (w_m s_m^2 + w_o s_o^2) / (w_m + w_o) with w_m = min(model pairs,
// config.model_noise_weight) and w_o = own pairs (a sick GPU's own larger spread still shows once
// it has a few runs), floored at config.noise_floor_relative. dof = config.noise_dof_per_pair *
// (w_m + w_o), within [config.min_noise_dof, config.max_noise_dof]. With neither estimate known,
// sigma is the floor and dof the minimum.
SeriesNoise CombineNoise(const NoiseEstimate& model, const NoiseEstimate& own,
                         const DetectionConfig& config);

// `noise` with the sigma an earlier decision used (`sigma_relative`, floored as CombineNoise
// floors; kept = true), its sources and dof as pooled now: a run of a GPU with a standing finding
// is judged with the sigma that judged the finding's first run, since the pool now holds the
// finding's own step. A sigma that is not finite and positive leaves `noise` as it is.
SeriesNoise KeepSigma(SeriesNoise noise, double sigma_relative, const DetectionConfig& config);

// The relative standard deviation of (new median / baseline level - 1) when the level is the
// median of `baseline_runs` runs: sigma * sqrt(1 + pi / (2 k)).
double PredictionSigma(const SeriesNoise& noise, size_t baseline_runs);

// Two-sided p of a relative change under the noise model: Student t with noise.dof degrees of
// freedom at z = change / PredictionSigma. 1 for a zero change; NaN for NaN input.
double ChangePValue(double change, const SeriesNoise& noise, size_t baseline_runs);

// The smallest relative slowdown the decision catches with probability >= 0.95 when it is the only
// change among `decisions` judged in the run (the false-alarm control then asks p <= q / m):
// max(config.min_relative_change, (t_(1 - q / 2m) + 1.645) * PredictionSigma). decisions >= 1.
double MinimumDetectableChange(const SeriesNoise& noise, size_t baseline_runs, size_t decisions,
                               const DetectionConfig& config);

// "sigma 0.12 % (model 0.10 % from 140 pairs on 8 GPUs, own 0.20 % from 9), t with 25 dof";
// a kept sigma says so: "sigma 0.12 % (kept from the finding's first run; now model ...)".
std::string NoiseText(const SeriesNoise& noise);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_NOISE_MODEL_H_
