// File: tests/server/gpu_health/power/proportion.h
// A count of events among trials as a rate with a 95 % interval, for the study's report.
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_PROPORTION_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_PROPORTION_H_

#include <cstdint>

namespace warpwatch::server::gpu_health::power {

struct Proportion {
  int64_t events = 0;
  int64_t trials = 0;
  double rate = 0;  // events / trials; 0 without trials
  double low = 0;   // 95 % bounds: Wilson score interval; with no event, [0, 3 / trials]
  double high = 0;  // (the rule of three), so a zero count still says how rare it can be
};

// Precondition: 0 <= events <= trials.
Proportion RateOf(int64_t events, int64_t trials);

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_PROPORTION_H_
