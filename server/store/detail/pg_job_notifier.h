// File: server/store/detail/pg_job_notifier.h
// JobNotifier on PostgreSQL LISTEN, on a dedicated connection owned by a background thread that
// re-LISTENs after the database comes back.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_JOB_NOTIFIER_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_JOB_NOTIFIER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "server/store/store.h"

namespace warpwatch::server::detail {

// NOTIFY channel for "a job became claimable" (enqueue, requeue, release).
inline constexpr const char* kJobQueuedChannel = "warpwatch_job_queued";

class PgJobNotifier : public JobNotifier {
 public:
  // Starts the listening thread; `url` should carry a connect_timeout. Never blocks.
  explicit PgJobNotifier(std::string url);
  // Stops and joins the thread (at most about one connect_timeout).
  ~PgJobNotifier() override;
  PgJobNotifier(const PgJobNotifier&) = delete;
  PgJobNotifier& operator=(const PgJobNotifier&) = delete;

  uint64_t Generation() const override;
  bool WaitForJob(uint64_t seen, std::chrono::milliseconds timeout) override;

  // True while LISTEN is established. For tests and health reporting.
  bool listening() const { return listening_.load(); }
  // Advances the generation and wakes every waiter.
  void Bump();

 private:
  void Loop();
  // Sleeps up to `d`, returning early when stopping.
  void Pause(std::chrono::milliseconds d);

  const std::string url_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t generation_ = 0;  // guarded by mu_
  std::atomic<bool> listening_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last member: started after the others exist
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_JOB_NOTIFIER_H_
