// File: server/service/detail/schedule_limits.h
// Bounded per principal (issue 23): how many schedules one principal may create and how often a
// schedule may fire. Each fire fans out one job per matching GPU, so a cron of every minute on a
// 1000-GPU fleet queues 1000 jobs a minute; the limits are server flags, and tests set their own.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_SCHEDULE_LIMITS_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_SCHEDULE_LIMITS_H_

#include <absl/time/time.h>

#include "common/status/status.h"
#include "warpwatch/v1/schedule.pb.h"

namespace warpwatch::server::detail {

struct ScheduleLimits {
  int max_per_principal = 100;                  // --max-schedules-per-principal
  absl::Duration min_interval = absl::Minutes(5);  // --min-schedule-interval-seconds
};

// How many of a cron's next fires CheckCronInterval looks at. Cron fields combine as a product
// (minutes x hours x days), so the closest two fires of an expression come within its first firing
// hours; 1000 fires cover at least 3.5 days at the default limit.
inline constexpr int kCronFiresChecked = 1000;

// OK when no two of the next kCronFiresChecked fires of `schedule`'s cron (in its time zone)
// after `now` are closer than `min_interval`; else RESOURCE_EXHAUSTED naming both fires, the
// limit and --min-schedule-interval-seconds. INVALID_ARGUMENT "schedule.cron: ..." when the cron
// or zone does not parse (normally caught by BuildScheduleWrite first).
Status CheckCronInterval(const v1::Schedule& schedule, absl::Duration min_interval,
                         absl::Time now);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_SCHEDULE_LIMITS_H_
