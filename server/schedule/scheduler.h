// File: server/schedule/scheduler.h
// The scheduler, one per server replica: a thread that every --schedule-interval-seconds fires
// the schedules that are due, through ScheduleStore::FireNextDue (one schedule per transaction,
// claimed FOR UPDATE SKIP LOCKED; the unique (schedule, due time) makes a double fire impossible
// even if two replicas decided the same due time). What to do with a due time is decided here:
//
//  - due no more than missed_grace ago: fire it (the next due time may be due too; the same pass
//    takes it next);
//  - older (the servers were down, or the loop was stuck): SKIP records one SKIPPED run (reason
//    "missed") for the latest missed due time; RUN_ONCE fires that latest missed due time once;
//    either way the schedule jumps to its first due time after now;
//  - a fire whose schedule's previous fire still has a QUEUED or RUNNING job, with allow_overlap
//    off, is recorded SKIPPED (reason "overlap") and creates no job.
#ifndef WARPWATCH_SERVER_SCHEDULE_SCHEDULER_H_
#define WARPWATCH_SERVER_SCHEDULE_SCHEDULER_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "common/status/status.h"
#include "common/sync/shutdown_signal.h"
#include "server/schedule/clock.h"
#include "server/schedule/schedule_store.h"

namespace warpwatch::server::schedule {

struct SchedulerOptions {
  std::chrono::milliseconds interval{std::chrono::seconds(10)};  // --schedule-interval-seconds
  absl::Duration missed_grace = absl::Minutes(5);  // --schedule-missed-grace-seconds
  int max_fires_per_pass = 1000;                   // bounds one pass (many schedules, or a backlog)
  std::function<void(const FireOutcome&)> on_fire;  // after each recorded decision; may be null
};

// Due times scanned at most when catching up after downtime (an every-minute cron: 69 days).
// Beyond that the latest missed due time is approximated by the last one scanned.
inline constexpr int kMaxMissedScan = 100000;

// What to do with `due` at `now` (the rules above). Pure; thread-safe.
FireDecision DecideFire(const DueSchedule& due, absl::Time now, absl::Duration missed_grace);

// Thread-safe accessors. `store` must outlive the scheduler.
class Scheduler {
 public:
  // `ready`: passes are skipped while it returns false (schema not migrated yet); null = ready.
  Scheduler(ScheduleStore* store, Clock clock, SchedulerOptions options,
            std::function<bool()> ready = nullptr);
  ~Scheduler();  // Stop()
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Starts the thread; its first pass runs at once. Call once.
  void Start();
  // Wakes and joins the thread (the transaction in flight finishes first). Idempotent.
  void Stop();

  // One pass on the caller's thread: fires due schedules until none is due (or
  // max_fires_per_pass, or Stop(): no claim starts after it). Returns how many decisions were
  // recorded. A store error ends the pass.
  StatusOr<int> RunOnce();

  int64_t fires() const { return fires_.load(); }    // decisions recorded by this scheduler
  int64_t errors() const { return errors_.load(); }  // failed passes

 private:
  void Loop();

  ScheduleStore* store_;
  const Clock clock_;
  const SchedulerOptions options_;
  const std::function<bool()> ready_;
  std::atomic<int64_t> fires_{0};
  std::atomic<int64_t> errors_{0};
  ShutdownSignal stop_;  // raised by Stop()
  std::thread thread_;
};

}  // namespace warpwatch::server::schedule

#endif  // WARPWATCH_SERVER_SCHEDULE_SCHEDULER_H_
