// File: worker/daemon/backoff.h
// Exponential backoff with jitter for reconnecting to the server.
#ifndef WARPWATCH_WORKER_DAEMON_BACKOFF_H_
#define WARPWATCH_WORKER_DAEMON_BACKOFF_H_

#include <chrono>
#include <random>

namespace warpwatch::worker {

struct BackoffPolicy {
  double initial_seconds = 0.2;
  double max_seconds = 10;   // cap of the delay before jitter
  double multiplier = 2;
};

// Delay n (0-based) is min(max, initial * multiplier^n), scaled by a uniform factor in [0.5, 1] so
// that many workers losing one server do not come back in lockstep. Not thread-safe: one per loop.
class Backoff {
 public:
  explicit Backoff(BackoffPolicy policy, unsigned seed = std::random_device{}());

  std::chrono::milliseconds NextDelay();
  // After a success: the next delay starts from `initial` again.
  void Reset() { attempt_ = 0; }
  int attempt() const { return attempt_; }

 private:
  BackoffPolicy policy_;
  std::mt19937 rng_;
  int attempt_ = 0;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_BACKOFF_H_
