// Tunables of the per-run decision. The defaults are justified, with the false-alarm and
// detection rates they give, in docs/regressions.md; change them there first.
#ifndef WARPWATCH_SERVER_DETECT_DETECTION_CONFIG_H_
#define WARPWATCH_SERVER_DETECT_DETECTION_CONFIG_H_

#include <cstddef>

namespace warpwatch::server::detect {

struct DetectionConfig {
  // N: good runs of the series the rolling baseline keeps (the newest ones).
  size_t baseline_runs = 10;
  // Fewer good baseline runs than this gives UNSURE: a MAD of 3 or 4 values is mostly luck.
  size_t min_baseline_runs = 5;
  // Take the baseline from the new run's own device when it has min_baseline_runs good runs in
  // the history (else from every device of the model): two H100s differ by up to 1.7 % on some
  // cases in every run (tests/fixtures/h100_repeated), which a mixed baseline reads as a change.
  bool prefer_same_device = true;
  // |robust z| of the new median against the baseline medians needed to call a change. A MAD of
  // 10 normal values is a noisy sigma (5th percentile 0.42 sigma, median 0.88), hence well above 3.
  double z_threshold = 4.5;
  // |new / baseline median - 1| needed as well: below it a change is SAME however significant.
  // Just under the p95 (1.6 %) of |change| between back-to-back runs of identical code.
  double min_relative_change = 0.015;
  // Floor on the baseline's robust sigma, relative to its median, so a flat baseline (MAD 0)
  // cannot make a 0.1 % wobble significant: about twice the typical case's between-run sigma
  // (0.16 %, from the measured median |change| of 0.15 % between two runs).
  double mad_floor_relative = 0.003;
  // A run with more of its samples throttled than this is not good: neither baseline nor judged.
  double max_throttled_fraction = 0.05;
  // SM clocks closer than this (relative) are the same clock: time alone is compared.
  double clock_tolerance = 0.01;
};

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_DETECTION_CONFIG_H_
