// File: common/sync/shutdown_signal.h
// A one-way flag raised when something begins shutting down: the server's long-running handlers
// (WatchJob streams, long-polls) and background loops (analysis, reaper, scheduler) wait on it
// and check it between steps, so that they end at once instead of at a deadline or a pass's end.
#ifndef WARPWATCH_COMMON_SYNC_SHUTDOWN_SIGNAL_H_
#define WARPWATCH_COMMON_SYNC_SHUTDOWN_SIGNAL_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace warpwatch {

// Thread-safe.
class ShutdownSignal {
 public:
  // Raises the flag and wakes every waiter. Idempotent.
  void Raise();
  bool raised() const;
  // Sleeps up to `timeout`; returns true (early) when the flag is or gets raised.
  bool WaitFor(std::chrono::milliseconds timeout) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool raised_ = false;  // guarded by mu_
};

}  // namespace warpwatch

#endif  // WARPWATCH_COMMON_SYNC_SHUTDOWN_SIGNAL_H_
