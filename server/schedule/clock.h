// File: server/schedule/clock.h
// The scheduler's clock, passed in: the system clock in production; tests hand in a fixed or a
// fast one (--schedule-test-clock-* flags, docs/operations.md "Schedules").
#ifndef WARPWATCH_SERVER_SCHEDULE_CLOCK_H_
#define WARPWATCH_SERVER_SCHEDULE_CLOCK_H_

#include <absl/time/time.h>

#include <functional>

namespace warpwatch::server::schedule {

// Must be thread-safe.
using Clock = std::function<absl::Time()>;

Clock SystemClock();

// Time that runs `speed` times faster than `base` from `anchor` on: anchor + (base() - anchor) *
// speed. Two processes given the same anchor and speed agree on it (up to their system clocks),
// which lets an end-to-end test see a minute's cron fire every second on several replicas.
// speed must be > 0.
Clock ScaledClock(absl::Time anchor, double speed, Clock base = SystemClock());

}  // namespace warpwatch::server::schedule

#endif  // WARPWATCH_SERVER_SCHEDULE_CLOCK_H_
