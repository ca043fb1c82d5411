// Cycles of a run point.
#include "server/detect/run_point.h"

#include <cmath>

namespace warpwatch::server::detect {

double MedianCycles(const RunPoint& point) {
  if (!(point.sm_clock_mhz > 0) || !std::isfinite(point.sm_clock_mhz) ||
      !(point.median_seconds > 0) || !std::isfinite(point.median_seconds)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return point.median_seconds * point.sm_clock_mhz * 1e6;
}

}  // namespace warpwatch::server::detect
