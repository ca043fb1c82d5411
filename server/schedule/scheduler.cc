// File: server/schedule/scheduler.cc
#include "server/schedule/scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/schedule/cron.h"

namespace warpwatch::server::schedule {
FireDecision DecideFire(const DueSchedule& due, absl::Time now, absl::Duration missed_grace) {
  const v1::Schedule& s = due.schedule;
  FireDecision decision;
  decision.due_at = due.next_fire_at;
  StatusOr<Cron> cron = Cron::Parse(s.cron(), s.time_zone());
  if (!cron.ok()) {
    // Validated when written, so only a tzdata change can get here: record it, retry in an hour.
    decision.skipped_reason = "invalid cron: " + cron.status().message();
    decision.next_fire_at = std::max(now, due.next_fire_at) + absl::Hours(1);
    return decision;
  }
  const bool overlap = !s.allow_overlap() && due.previous_run_active;
  if (now - due.next_fire_at <= missed_grace) {
    decision.next_fire_at = cron->NextFire(due.next_fire_at);
    if (overlap) decision.skipped_reason = kSkippedOverlap;
    return decision;
  }
  // Missed: find the latest due time at or before now, and the first one after it.
  absl::Time latest = due.next_fire_at;
  absl::Time next = cron->NextFire(latest);
  for (int scanned = 1; next <= now && scanned < kMaxMissedScan; ++scanned) {
    latest = next;
    next = cron->NextFire(next);
  }
  if (next <= now) next = cron->NextFire(now);
  decision.due_at = latest;
  decision.next_fire_at = next;
  if (s.missed_fire_policy() == v1::MISSED_FIRE_POLICY_RUN_ONCE) {
    if (overlap) decision.skipped_reason = kSkippedOverlap;
  } else {
    decision.skipped_reason = kSkippedMissed;
  }
  return decision;
}

Scheduler::Scheduler(ScheduleStore* store, Clock clock, SchedulerOptions options,
                     std::function<bool()> ready)
    : store_(store),
      clock_(std::move(clock)),
      options_(std::move(options)),
      ready_(std::move(ready)) {}

Scheduler::~Scheduler() { Stop(); }

void Scheduler::Start() { thread_ = std::thread([this] { Loop(); }); }

void Scheduler::Stop() {
  stop_.Raise();
  if (thread_.joinable()) thread_.join();
}

StatusOr<int> Scheduler::RunOnce() {
  int recorded = 0;
  while (recorded < options_.max_fires_per_pass) {
    if (stop_.raised()) break;  // a pass of many fires must not hold a shutdown
    // One instant per claim: the claim's "due" and the decision agree on what now is.
    const absl::Time now = clock_();
    const ScheduleStore::Decide decide = [this, now](const DueSchedule& due) {
      return DecideFire(due, now, options_.missed_grace);
    };
    ASSIGN_OR_RETURN(std::optional<FireOutcome> outcome, store_->FireNextDue(now, decide));
    if (!outcome.has_value()) break;
    ++recorded;
    fires_.fetch_add(1);
    spdlog::info(
        "msg=\"schedule fire\" schedule={} due_at={} schedule_run_id={} jobs={} skipped=\"{}\"",
        outcome->schedule_name, absl::FormatTime(absl::RFC3339_sec, outcome->due_at,
                                                 absl::UTCTimeZone()),
        outcome->schedule_run_id, outcome->jobs, outcome->skipped_reason);
    if (options_.on_fire) options_.on_fire(*outcome);
  }
  return recorded;
}

void Scheduler::Loop() {
  while (true) {
    if (!ready_ || ready_()) {
      StatusOr<int> pass = RunOnce();
      if (!pass.ok()) {
        errors_.fetch_add(1);
        spdlog::warn("msg=\"schedule pass failed\" error=\"{}\"", pass.status().ToString());
      }
    }
    if (stop_.WaitFor(options_.interval)) return;
  }
}

}  // namespace warpwatch::server::schedule
