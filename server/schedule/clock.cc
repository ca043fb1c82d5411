// File: server/schedule/clock.cc
#include "server/schedule/clock.h"

#include <absl/time/clock.h>

#include <utility>

namespace warpwatch::server::schedule {

Clock SystemClock() {
  return [] { return absl::Now(); };
}

Clock ScaledClock(absl::Time anchor, double speed, Clock base) {
  return [anchor, speed, base = std::move(base)] { return anchor + (base() - anchor) * speed; };
}

}  // namespace warpwatch::server::schedule
