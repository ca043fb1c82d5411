// Change points over a series' history: E-divisive means with a significance test, as Apache
// Otava (formerly Hunter) does. Finds where the level of a series shifted and stayed shifted,
// which per-run decisions miss when a regression creeps in by steps smaller than the noise.
#ifndef WARPWATCH_SERVER_DETECT_CHANGE_POINTS_H_
#define WARPWATCH_SERVER_DETECT_CHANGE_POINTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::server::detect {

enum class ChangePointTest {
  kTTest,        // Welch's t-test between the two sides (Otava's default): fast, deterministic
  kPermutation,  // q-hat of the split against q-hats of shuffled segments (seeded: deterministic)
};

struct ChangePointConfig {
  ChangePointTest test = ChangePointTest::kTTest;
  // A split is kept when its p-value is at most this (Otava's default, 0.001; the t-test's p of the
  // best of many splits is optimistic, so the bar is low).
  double max_p_value = 0.001;
  // ... and the medians either side differ by at least this much (relative), so a statistically
  // sure 0.1 % shift in a very quiet series is not reported: below the 0.5 % MAD floor of the
  // per-run decision, nobody acts on it.
  double min_relative_change = 0.005;
  // Shortest segment either side of a change point (>= 2: the t-test needs a variance). With 3,
  // three runs that happen to sit together pass the t-test in stationary noise (seen in tests);
  // 5 runs (five nights) either side ends that. The per-run decision covers the newest runs.
  size_t min_segment = 5;
  size_t permutations = 199;  // kPermutation only
  uint64_t seed = 1;          // kPermutation only; same seed and series => same answer
  // Longest series accepted (memory grows as n^2: 1000 points use 8 MB). Pass the newest points.
  size_t max_points = 1000;
};

struct ChangePoint {
  size_t index = 0;          // first point of the new level (0-based index into the series)
  double q_hat = 0;          // E-divisive statistic of the split when it was found
  double p_value = 1;        // see FindChangePoints for which test and which segments
  double median_before = 0;  // over the segment from the previous change point (or the start)
  double median_after = 0;   // over the segment up to the next change point (or the end)
  double mean_before = 0;
  double mean_after = 0;
  double relative_change = 0;  // median_after / median_before - 1
};

// Hierarchical E-divisive: split the interval whose best split has the largest q-hat, test it,
// keep it and repeat while significant; the first insignificant candidate ends the search.
// Returned sorted by index. With kTTest, p_value is recomputed between the final neighbouring
// segments; with kPermutation it is the permutation p at the time of the split:
// (1 + permutations with q-hat >= the split's) / (1 + permutations).
// A series shorter than 2 * min_segment has no change points (OK, empty).
// Errors: INVALID_ARGUMENT for a non-finite value, more than max_points points, min_segment < 2,
// or kPermutation with 0 permutations.
StatusOr<std::vector<ChangePoint>> FindChangePoints(const std::vector<double>& series,
                                                    const ChangePointConfig& config = {});

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_CHANGE_POINTS_H_
