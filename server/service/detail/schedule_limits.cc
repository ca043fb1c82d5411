// File: server/service/detail/schedule_limits.cc
#include "server/service/detail/schedule_limits.h"

#include <string>

#include "server/schedule/cron.h"

namespace warpwatch::server::detail {

Status CheckCronInterval(const v1::Schedule& schedule, absl::Duration min_interval,
                         absl::Time now) {
  if (min_interval <= absl::ZeroDuration()) return OkStatus();
  StatusOr<schedule::Cron> cron = schedule::Cron::Parse(schedule.cron(), schedule.time_zone());
  if (!cron.ok()) return InvalidArgumentError("schedule.cron: " + cron.status().message());
  absl::Time previous = cron->NextFire(now);
  for (int i = 1; i < kCronFiresChecked; ++i) {
    const absl::Time next = cron->NextFire(previous);
    if (next - previous < min_interval) {
      return ResourceExhaustedError(
          "schedule.cron: \"" + schedule.cron() + "\" fires at " +
          absl::FormatTime(absl::RFC3339_sec, previous, absl::UTCTimeZone()) + " and again " +
          std::to_string(absl::ToInt64Seconds(next - previous)) + " s later; the server's limit " +
          "is one fire per " + std::to_string(absl::ToInt64Seconds(min_interval)) +
          " s (--min-schedule-interval-seconds)");
    }
    previous = next;
  }
  return OkStatus();
}

}  // namespace warpwatch::server::detail
