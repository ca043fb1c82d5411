// File: server/store/lease_reaper.h
// Background thread that puts the jobs of dead workers back in the queue: calls
// Store::RequeueExpiredLeases() every `interval`.
#ifndef WARPWATCH_SERVER_STORE_LEASE_REAPER_H_
#define WARPWATCH_SERVER_STORE_LEASE_REAPER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "common/status/status.h"
#include "server/store/store.h"

namespace warpwatch::server {

// Several servers may each run one: RequeueExpiredLeases skips rows another holds. Errors (the
// database is down, the schema not migrated yet) are counted and retried at the next tick.
// Thread-safe accessors; the store must outlive the reaper.
class LeaseReaper {
 public:
  LeaseReaper(Store& store, std::chrono::milliseconds interval);
  // Stops and joins the thread (waits for a pass in progress).
  ~LeaseReaper();
  LeaseReaper(const LeaseReaper&) = delete;
  LeaseReaper& operator=(const LeaseReaper&) = delete;

  // Jobs requeued or failed so far, and passes that returned an error.
  int64_t reaped() const { return reaped_.load(); }
  int64_t errors() const { return errors_.load(); }
  Status last_error() const;

 private:
  void Loop();

  Store& store_;
  const std::chrono::milliseconds interval_;
  std::atomic<int64_t> reaped_{0};
  std::atomic<int64_t> errors_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;   // guarded by mu_
  Status last_error_;   // guarded by mu_
  std::thread thread_;  // last: started once the rest exists
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_LEASE_REAPER_H_
