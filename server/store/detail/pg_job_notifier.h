// File: server/store/detail/pg_job_notifier.h
// JobNotifier on PostgreSQL LISTEN, on a dedicated connection owned by a background thread that
// re-LISTENs after the database comes back.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_JOB_NOTIFIER_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_JOB_NOTIFIER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <pqxx/transaction>

#include "server/store/store.h"

namespace warpwatch::server::detail {

// NOTIFY channel for "a job became claimable" (enqueue, requeue, release). Payload: the job's id
// and selector as JSON ({"job": id, "model": glob, "uuid": uuid, "labels": {...}}, written by
// NotifyJobQueued), or anything else (e.g. "*") for "some job, any poll may take it".
inline constexpr const char* kJobQueuedChannel = "warpwatch_job_queued";

// Queues one NOTIFY on kJobQueuedChannel per job, delivered when `tx` commits: its id and
// selector (only its id when the selector would not fit a notification), so a parked poll that
// cannot take it is not woken. Job id 0: "*", some jobs became claimable (any poll may).
void NotifyJobQueued(pqxx::work& tx, int64_t job_id);
void NotifyJobsQueued(pqxx::work& tx, const std::vector<int64_t>& job_ids);

// The wake a payload describes (generation not set). Never fails: what it cannot read is `any`.
JobWake ParseJobWake(const std::string& payload);

class PgJobNotifier : public JobNotifier {
 public:
  // Starts the listening thread; `url` should carry a connect_timeout. Never blocks. An empty
  // `url` starts none: the generation then only advances through Bump().
  explicit PgJobNotifier(std::string url);
  // Stops and joins the thread (at most about one connect_timeout).
  ~PgJobNotifier() override;
  PgJobNotifier(const PgJobNotifier&) = delete;
  PgJobNotifier& operator=(const PgJobNotifier&) = delete;

  uint64_t Generation() const override;
  bool WaitForJob(uint64_t seen, std::chrono::milliseconds timeout) override;
  std::vector<JobWake> WakesSince(uint64_t seen) const override;

  // True while LISTEN is established. For tests and health reporting.
  bool listening() const { return listening_.load(); }
  // Advances the generation by one, keeps `wake` as its wake, and wakes every waiter.
  void Bump(JobWake wake = JobWake());

 private:
  void Loop();
  // Sleeps up to `d`, returning early when stopping.
  void Pause(std::chrono::milliseconds d);

  const std::string url_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t generation_ = 0;  // guarded by mu_
  std::deque<JobWake> wakes_;  // guarded by mu_: the last kKeptWakes, oldest first
  std::atomic<bool> listening_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last member: started after the others exist
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_JOB_NOTIFIER_H_
