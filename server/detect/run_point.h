// One run of one series (one case on one GPU model), as the detector sees it: plain data, filled
// from a stored measurement by proto_convert.h or by tests.
#ifndef WARPWATCH_SERVER_DETECT_RUN_POINT_H_
#define WARPWATCH_SERVER_DETECT_RUN_POINT_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace warpwatch::server::detect {

struct RunPoint {
  int64_t run_id = 0;
  std::string device_uuid;  // the GPU that measured it (fleet view; informational elsewhere)
  double median_seconds = std::numeric_limits<double>::quiet_NaN();  // the run's median
  double sm_clock_mhz = 0;              // median SM clock during the samples; 0 = unknown
  bool ok = false;                      // measured (PointStatus OK): not failed, not skipped
  bool verified = false;                // output matched the CPU reference
  double throttled_fraction = 0;        // samples marked throttled, in [0, 1]
  std::vector<double> samples_seconds;  // raw samples; only the U-test reads them, may be empty
};

// Cycles per launch: median time x SM clock. NaN when the clock is unknown (0) or the median is
// not a positive finite number.
double MedianCycles(const RunPoint& point);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_RUN_POINT_H_
