// Leave-one-out robust scales of a set of values in O(n log n): for every element, the median and
// floored MAD of all the others, as the fleet view judges each device against its peers.
#ifndef WARPWATCH_SERVER_DETECT_LEAVE_ONE_OUT_H_
#define WARPWATCH_SERVER_DETECT_LEAVE_ONE_OUT_H_

#include <vector>

#include "server/detect/robust_stats.h"

namespace warpwatch::server::detect {

// Element i of the result equals RobustScaleOf(values without values[i], relative_floor) bit for
// bit (the same medians of the same multisets, the same arithmetic), computed from one ordering of
// the values and one ordering of the deviations per distinct leave-one-out centre (at most three),
// instead of one copy and ordering per element: a night of 1000 devices costs ~10^4 comparisons
// per case, not ~10^7. An empty input gives an empty result; one value gives a NaN scale (no
// others). Preconditions as RobustScaleOf: relative_floor >= 0, no NaN in `values`.
std::vector<RobustScale> LeaveOneOutScales(const std::vector<double>& values,
                                           double relative_floor);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_LEAVE_ONE_OUT_H_
