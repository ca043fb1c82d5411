// Tunables of the per-run decision. The defaults are justified, with the false-alarm and
// detection rates they give, in docs/regressions.md; change them there first.
#ifndef WARPWATCH_SERVER_DETECT_DETECTION_CONFIG_H_
#define WARPWATCH_SERVER_DETECT_DETECTION_CONFIG_H_

#include <cstddef>

namespace warpwatch::server::detect {

struct DetectionConfig {
  // N: good runs of the series the rolling baseline keeps (the newest ones). They give the level.
  size_t baseline_runs = 10;
  // Fewer good baseline runs than this gives UNSURE.
  size_t min_baseline_runs = 5;
  // The baseline is the new run's own device's runs only (device offsets of one model reach
  // 1.7 %, docs/noise.md): a GPU with fewer than min_baseline_runs good runs is UNSURE, never
  // judged against a history that mixes other GPUs' offsets. False: every device's runs (studies,
  // pins that cover several GPUs on purpose).
  bool same_device_only = true;

  // The noise model (noise_model.h). The model-wide estimate counts as at most this many of the
  // series' own run pairs when pooled with them.
  double model_noise_weight = 30;
  // Which quantile of |successive difference| scales the sigma: 0.5 is the median (the MAD-like
  // estimator, blind to a tail), higher reads the tail that false alarms come from. For normal
  // noise every quantile estimates the same sigma; for the host-side cases, whose runs jump
  // between regimes (docs/noise.md), the tail quantile gives the larger, honest one.
  double noise_quantile = 0.9;
  // Floor on the pooled relative sigma: the in-run precision of a median is ~0.01-0.02 % and the
  // quietest cases' runs agree to ~0.03-0.06 % (docs/noise.md); a sigma under 0.1 % would make
  // a 0.5 % wobble of an allocation-sensitive case significant.
  double noise_floor_relative = 0.001;
  // Degrees of freedom of the Student t tail per pair pooled (a median-based sigma is less
  // efficient than a standard deviation, and run noise has heavier tails than a normal), and their
  // bounds: calibrated on the repeated H100 runs (docs/regressions.md, "Defaults").
  double noise_dof_per_pair = 0.7;
  double min_noise_dof = 3;
  double max_noise_dof = 20;

  // q: the false-alarm rate controlled over one run's decisions (Benjamini-Hochberg on the noise
  // model's p-values; with nothing changed this bounds the chance that a run raises any flag).
  double false_alarm_rate = 0.01;
  // |new / baseline median - 1| needed as well: below it a change is SAME however significant.
  double min_relative_change = 0.01;

  // A run with more of its samples throttled than this is not good: neither baseline nor judged.
  double max_throttled_fraction = 0.05;
  // SM clocks closer than this (relative) are the same clock: time alone is compared.
  double clock_tolerance = 0.01;
};

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_DETECTION_CONFIG_H_
