// File: worker/daemon/shutdown.h
// The daemon's shutdown request (SIGTERM): a flag with the time it was raised, and sleeps that end
// early when it is.
#ifndef WARPWATCH_WORKER_DAEMON_SHUTDOWN_H_
#define WARPWATCH_WORKER_DAEMON_SHUTDOWN_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace warpwatch::worker {

// Thread-safe.
class Shutdown {
 public:
  using Clock = std::chrono::steady_clock;

  // Raises the flag (idempotent; the first call's time is kept) and wakes every WaitFor.
  void Request();
  bool requested() const;
  // When Request() was first called; meaningful only once requested().
  Clock::time_point requested_at() const;
  // Sleeps up to `duration`; returns true at once (or on wake-up) when shutdown is requested.
  bool WaitFor(std::chrono::milliseconds duration);
  // Blocks until Request().
  void Wait();

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool requested_ = false;            // guarded by mu_
  Clock::time_point requested_at_;    // guarded by mu_
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_SHUTDOWN_H_
