// File: server/metrics/gauge_refresher.h
// Refreshes gauges that need a database read (warpwatch_jobs, warpwatch_workers) on a thread and
// timer of their own, slower than the job reaper's: a slow count never delays reaping, and the
// reaper's 1 s tick does not put two aggregate queries a second on every replica.
#ifndef WARPWATCH_SERVER_METRICS_GAUGE_REFRESHER_H_
#define WARPWATCH_SERVER_METRICS_GAUGE_REFRESHER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "server/database/database.h"
#include "server/store/store.h"

namespace warpwatch::server::metrics {

// Thread-safe accessors; `database` must outlive the refresher. Passes before the database is
// ready are skipped.
class GaugeRefresher {
 public:
  // `refresh(store)` runs every `interval` (the first one at once), on the refresher's thread.
  GaugeRefresher(Database* database, std::chrono::milliseconds interval,
                 std::function<void(Store&)> refresh);
  ~GaugeRefresher();  // Stop()
  GaugeRefresher(const GaugeRefresher&) = delete;
  GaugeRefresher& operator=(const GaugeRefresher&) = delete;

  void Start();
  // Wakes and joins the thread (a refresh in progress finishes first). Idempotent.
  void Stop();

  // Refreshes done so far.
  int64_t passes() const { return passes_.load(); }

 private:
  void Loop();

  Database* database_;
  const std::chrono::milliseconds interval_;
  const std::function<void(Store&)> refresh_;
  std::atomic<int64_t> passes_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_GAUGE_REFRESHER_H_
