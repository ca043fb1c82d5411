// File: tests/server/gpu_health/power/proportion.cc
#include "tests/server/gpu_health/power/proportion.h"

#include <algorithm>
#include <cmath>

namespace warpwatch::server::gpu_health::power {

Proportion RateOf(int64_t events, int64_t trials) {
  Proportion p;
  p.events = events;
  p.trials = trials;
  if (trials <= 0) return p;
  const double n = static_cast<double>(trials);
  p.rate = static_cast<double>(events) / n;
  if (events == 0) {
    p.high = std::min(1.0, 3 / n);
    return p;
  }
  constexpr double kZ = 1.959963984540054;  // the normal's 97.5 % quantile
  const double centre = (p.rate + kZ * kZ / (2 * n)) / (1 + kZ * kZ / n);
  const double half =
      kZ * std::sqrt(p.rate * (1 - p.rate) / n + kZ * kZ / (4 * n * n)) / (1 + kZ * kZ / n);
  p.low = std::max(0.0, centre - half);
  p.high = std::min(1.0, centre + half);
  return p;
}

}  // namespace warpwatch::server::gpu_health::power
