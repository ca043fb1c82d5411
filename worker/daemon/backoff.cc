// File: worker/daemon/backoff.cc
#include "worker/daemon/backoff.h"

#include <algorithm>
#include <cmath>

namespace warpwatch::worker {

Backoff::Backoff(BackoffPolicy policy, unsigned seed) : policy_(policy), rng_(seed) {}

std::chrono::milliseconds Backoff::NextDelay() {
  double base = policy_.initial_seconds * std::pow(policy_.multiplier, std::min(attempt_, 60));
  base = std::min(base, policy_.max_seconds);
  ++attempt_;
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  return std::chrono::milliseconds(static_cast<int64_t>(base * jitter(rng_) * 1000));
}

}  // namespace warpwatch::worker
