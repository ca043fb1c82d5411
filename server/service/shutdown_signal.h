// File: server/service/shutdown_signal.h
// A one-way flag raised when the server begins shutting down, which long-running handlers
// (WatchJob streams, long-polls) wait on so that they end at once instead of at the deadline.
#ifndef WARPWATCH_SERVER_SERVICE_SHUTDOWN_SIGNAL_H_
#define WARPWATCH_SERVER_SERVICE_SHUTDOWN_SIGNAL_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace warpwatch::server {

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

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_SHUTDOWN_SIGNAL_H_
