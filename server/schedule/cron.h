// File: server/schedule/cron.h
// A schedule's cron expression, evaluated in an IANA time zone (issue 11): when does it fire next?
// Five fields, as crontab(5): minute (0-59), hour (0-23), day of month (1-31), month (1-12 or
// JAN-DEC), day of week (0-7 or SUN-SAT, 0 and 7 both Sunday). Each field is `*`, a value, a range
// `a-b`, any of those with a step `/n`, or a comma-separated list of them. As in Vixie cron, when
// both day of month and day of week are restricted a day matches if either does.
//
// Daylight saving time, the way operators expect a nightly job to behave: a local time that a
// spring-forward gap skips fires once, at the first instant after the gap; a local time that a
// fall-back repeats fires once, at its first occurrence. Time zones come from the system's
// zoneinfo (Debian's tzdata) through absl.
#ifndef WARPWATCH_SERVER_SCHEDULE_CRON_H_
#define WARPWATCH_SERVER_SCHEDULE_CRON_H_

#include <absl/time/time.h>

#include <bitset>
#include <string>
#include <string_view>

#include "common/status/status.h"

namespace warpwatch::server::schedule {

class Cron {
 public:
  // INVALID_ARGUMENT naming the field and what is wrong ("day of week: 8 is outside 0-7"), or for
  // an unknown time zone ("time zone: unknown \"Mars/Olympus\""). An expression that can never
  // fire (February 30) is INVALID_ARGUMENT too.
  static StatusOr<Cron> Parse(std::string_view expression, std::string_view time_zone);

  // The first firing instant strictly after `after`. Searches at most nine years ahead (every
  // valid expression fires within eight: February 29 in a leap year, 2100 not being one).
  // Thread-safe (const).
  absl::Time NextFire(absl::Time after) const;

  const std::string& expression() const { return expression_; }
  const std::string& time_zone() const { return zone_name_; }

 private:
  bool DayMatches(const absl::CivilDay& day) const;
  // The first matching civil day at or after `from`, within the search horizon; false if none.
  bool NextDay(absl::CivilDay from, absl::CivilDay* day) const;

  std::string expression_;
  std::string zone_name_;
  absl::TimeZone zone_;
  std::bitset<60> minutes_;
  std::bitset<24> hours_;
  std::bitset<32> days_of_month_;  // 1-31
  std::bitset<13> months_;         // 1-12
  std::bitset<7> days_of_week_;    // 0 = Sunday
  bool dom_restricted_ = false;
  bool dow_restricted_ = false;
};

}  // namespace warpwatch::server::schedule

#endif  // WARPWATCH_SERVER_SCHEDULE_CRON_H_
