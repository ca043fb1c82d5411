// Test helpers: RunPoints and series built from medians.
#ifndef WARPWATCH_TESTS_SERVER_DETECT_RUN_POINTS_H_
#define WARPWATCH_TESTS_SERVER_DETECT_RUN_POINTS_H_

#include <cstdint>
#include <vector>

#include "server/detect/run_point.h"

namespace warpwatch::server::detect::testing {

// A good run: measured, verified, unthrottled, at `clock_mhz` (0 = unknown), no samples.
inline RunPoint GoodRun(double median_seconds, double clock_mhz = 1980, int64_t run_id = 0) {
  RunPoint p;
  p.run_id = run_id;
  p.median_seconds = median_seconds;
  p.sm_clock_mhz = clock_mhz;
  p.ok = true;
  p.verified = true;
  return p;
}

// Good runs with the given medians, run ids 1, 2, ... oldest first.
inline std::vector<RunPoint> GoodRuns(const std::vector<double>& medians, double clock_mhz = 1980) {
  std::vector<RunPoint> runs;
  for (size_t i = 0; i < medians.size(); ++i) {
    runs.push_back(GoodRun(medians[i], clock_mhz, static_cast<int64_t>(i + 1)));
  }
  return runs;
}

// Ten baseline medians around 1.0 with +-0.3 % wobble (robust sigma ~0.3 %, MAD floor 0.5 %).
inline std::vector<double> QuietMedians() {
  return {1.000, 1.002, 0.998, 1.001, 0.999, 1.003, 0.997, 1.000, 1.002, 0.998};
}

}  // namespace warpwatch::server::detect::testing

#endif  // WARPWATCH_TESTS_SERVER_DETECT_RUN_POINTS_H_
