// Mann-Whitney U test (Wilcoxon rank-sum) on two runs' raw samples: supporting evidence only.
// Samples within one run are far less spread than run medians are between runs (H100: 0.04 %
// in-run relative standard error against 2-4 % between runs), so on thousands of samples this
// test calls almost every pair of runs different. Report its p-value; never decide on it.
#ifndef WARPWATCH_SERVER_DETECT_MANN_WHITNEY_H_
#define WARPWATCH_SERVER_DETECT_MANN_WHITNEY_H_

#include <cstddef>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::server::detect {

struct UTestResult {
  // U of `a`: pairs (a_i, b_j) with a_i > b_j, plus half the tied pairs. Ranges 0 .. n_a * n_b;
  // above n_a * n_b / 2 means `a` tends to be larger (slower, for durations).
  double u = 0;
  double z = 0;        // normal approximation's z (continuity and tie corrected); 0 when exact
  double p_value = 1;  // two-sided
  bool exact = false;  // p from the exact null distribution of U (no ties, both n < kExactLimit)
  size_t n_a = 0;
  size_t n_b = 0;
};

// Sizes below which (and without ties) the exact distribution is used, as R's wilcox.test does.
inline constexpr size_t kExactLimit = 50;

// Two-sided test that a and b come from the same distribution. Exact when there are no ties and
// both sizes are below kExactLimit; otherwise the normal approximation with tie correction and a
// 0.5 continuity correction. All values tied gives p = 1.
// Errors: INVALID_ARGUMENT when either side is empty or holds a NaN or infinity.
StatusOr<UTestResult> MannWhitneyUTest(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_MANN_WHITNEY_H_
