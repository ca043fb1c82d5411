// Tests for server/schedule/cron.cc: fields, time zones, DST gaps and repeats, February 29.
#include "server/schedule/cron.h"

#include <absl/time/civil_time.h>
#include <gtest/gtest.h>

#include <string>

namespace warpwatch::server::schedule {
namespace {

// The instant of a civil minute in `zone` (unambiguous times only).
absl::Time CronAt(const std::string& zone, int y, int mo, int d, int h, int mi) {
  absl::TimeZone tz;
  EXPECT_TRUE(absl::LoadTimeZone(zone, &tz)) << zone;
  return absl::FromCivil(absl::CivilMinute(y, mo, d, h, mi), tz);
}

std::string Local(absl::Time t, const std::string& zone) {
  absl::TimeZone tz;
  absl::LoadTimeZone(zone, &tz);
  return absl::FormatTime("%Y-%m-%d %H:%M %Z", t, tz);
}

Cron Parsed(const std::string& expression, const std::string& zone) {
  StatusOr<Cron> cron = Cron::Parse(expression, zone);
  EXPECT_TRUE(cron.ok()) << expression << ": " << cron.status().ToString();
  return cron.ok() ? *cron : *Cron::Parse("* * * * *", "UTC");
}

TEST(CronTest, EveryMinuteFiresOnTheNextMinute) {
  const Cron cron = Parsed("* * * * *", "UTC");
  const absl::Time t = CronAt("UTC", 2026, 11, 23, 22, 41) + absl::Seconds(17);
  EXPECT_EQ(cron.NextFire(t), CronAt("UTC", 2026, 11, 23, 22, 42));
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 11, 23, 22, 42)),
            CronAt("UTC", 2026, 11, 23, 22, 43));
}

TEST(CronTest, NightlyAtTwoFiresInTheScheduleTimeZone) {
  const Cron cron = Parsed("0 2 * * *", "Europe/Berlin");
  // 2026-11-23 22:00 UTC is 23:00 in Berlin (CET, UTC+1): next 02:00 CET is 01:00 UTC.
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 11, 23, 22, 0)), CronAt("UTC", 2026, 11, 24, 1, 0));
}

TEST(CronTest, ALocalTimeSkippedBySpringForwardFiresOnceAtTheEndOfTheGap) {
  // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT, so 02:30 does not exist that day.
  const Cron cron = Parsed("30 2 * * *", "America/New_York");
  const absl::Time fire = cron.NextFire(CronAt("America/New_York", 2026, 3, 7, 12, 0));
  EXPECT_EQ(Local(fire, "America/New_York"), "2026-03-08 03:00 EDT");
  EXPECT_EQ(Local(cron.NextFire(fire), "America/New_York"), "2026-03-09 02:30 EDT");
}

TEST(CronTest, ALocalTimeRepeatedByFallBackFiresOnceAtItsFirstOccurrence) {
  // Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET, so 02:30 happens twice.
  const Cron cron = Parsed("30 2 * * *", "Europe/Berlin");
  const absl::Time fire = cron.NextFire(CronAt("Europe/Berlin", 2026, 10, 24, 12, 0));
  EXPECT_EQ(Local(fire, "Europe/Berlin"), "2026-10-25 02:30 CEST");
  const absl::Time next = cron.NextFire(fire);
  EXPECT_EQ(Local(next, "Europe/Berlin"), "2026-10-26 02:30 CET");
  EXPECT_EQ(next - fire, absl::Hours(25));
}

TEST(CronTest, EveryMinuteThroughAFallBackHourFiresEveryRealMinuteOfTheFirstPassOnly) {
  const Cron cron = Parsed("* * * * *", "Europe/Berlin");
  // 02:59 CEST, then the clock reads 02:00 CET: the repeated civil minutes map to their first
  // occurrence, already past, so the next fire is 03:00 CET, an hour and a minute later.
  const absl::Time last_cest = CronAt("UTC", 2026, 10, 25, 0, 59);
  EXPECT_EQ(Local(last_cest, "Europe/Berlin"), "2026-10-25 02:59 CEST");
  EXPECT_EQ(Local(cron.NextFire(last_cest), "Europe/Berlin"), "2026-10-25 03:00 CET");
}

TEST(CronTest, FebruaryTwentyNinthWaitsForTheNextLeapYear) {
  const Cron cron = Parsed("0 0 29 2 *", "UTC");
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 1, 1, 0, 0)), CronAt("UTC", 2028, 2, 29, 0, 0));
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2096, 3, 1, 0, 0)), CronAt("UTC", 2104, 2, 29, 0, 0));
}

TEST(CronTest, DayOfMonthOrDayOfWeekWhenBothAreRestricted) {
  // The 13th, or any Friday (Vixie cron): from Monday 2026-11-23, Friday the 27th; from Saturday
  // 2026-12-12, Sunday the 13th (a day-of-month match that is no Friday).
  const Cron cron = Parsed("0 9 13 * FRI", "UTC");
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 11, 23, 0, 0)), CronAt("UTC", 2026, 11, 27, 9, 0));
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 12, 12, 0, 0)), CronAt("UTC", 2026, 12, 13, 9, 0));
  const Cron thirteenth = Parsed("0 9 13 * *", "UTC");
  EXPECT_EQ(thirteenth.NextFire(CronAt("UTC", 2026, 11, 23, 0, 0)),
            CronAt("UTC", 2026, 12, 13, 9, 0));
}

TEST(CronTest, RangesStepsListsAndNames) {
  const Cron cron = Parsed("*/15 8-10 * JAN,jul mon-fri", "UTC");
  // Saturday 2027-01-02 -> Monday 2027-01-04 08:00, then every 15 minutes.
  const absl::Time first = cron.NextFire(CronAt("UTC", 2027, 1, 2, 0, 0));
  EXPECT_EQ(first, CronAt("UTC", 2027, 1, 4, 8, 0));
  EXPECT_EQ(cron.NextFire(first), CronAt("UTC", 2027, 1, 4, 8, 15));
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2027, 1, 4, 10, 45)), CronAt("UTC", 2027, 1, 5, 8, 0));
  // Sunday as 0 and as 7.
  EXPECT_EQ(Parsed("0 0 * * 7", "UTC").NextFire(CronAt("UTC", 2026, 11, 23, 0, 0)),
            CronAt("UTC", 2026, 11, 29, 0, 0));
  EXPECT_EQ(Parsed("0 0 * * 0", "UTC").NextFire(CronAt("UTC", 2026, 11, 23, 0, 0)),
            CronAt("UTC", 2026, 11, 29, 0, 0));
}

TEST(CronTest, BadExpressionsNameTheFieldAndTheProblem) {
  struct Case {
    const char* expression;
    const char* message;
  };
  for (const Case& c : {
           Case{"0 2 * *", "has 4 fields; expected 5"},
           Case{"60 2 * * *", "minute: 60 is outside 0-59"},
           Case{"0 24 * * *", "hour: 24 is outside 0-23"},
           Case{"0 2 0 * *", "day of month: 0 is outside 1-31"},
           Case{"0 2 * 13 *", "month: 13 is outside 1-12"},
           Case{"0 2 * * 8", "day of week: 8 is outside 0-7"},
           Case{"0 2 * * MOO", "day of week: \"MOO\" is not a number or a name"},
           Case{"*/0 * * * *", "minute: step \"0\" is not a positive number"},
           Case{"0 5-2 * * *", "hour: range 5-2 runs backwards"},
           Case{"0 0 30 2 *", "never fires"},
           Case{"0 0 1,,2 * *", "day of month: empty list item"},
       }) {
    StatusOr<Cron> cron = Cron::Parse(c.expression, "UTC");
    ASSERT_FALSE(cron.ok()) << c.expression;
    EXPECT_EQ(cron.status().code(), StatusCode::kInvalidArgument) << c.expression;
    EXPECT_NE(cron.status().message().find(c.message), std::string::npos)
        << c.expression << ": " << cron.status().message();
  }
}

TEST(CronTest, AnUnknownTimeZoneIsRefusedByName) {
  StatusOr<Cron> cron = Cron::Parse("0 2 * * *", "Mars/Olympus_Mons");
  ASSERT_FALSE(cron.ok());
  EXPECT_EQ(cron.status().message(), "time zone: unknown \"Mars/Olympus_Mons\"");
}

}  // namespace
}  // namespace warpwatch::server::schedule

namespace warpwatch::server::schedule {
namespace {

// Issue 11 additions: more zones and the every-minute cron around DST and year ends.

TEST(CronMoreZonesTest, EveryMinuteAcrossASpringForwardGapFiresOneRealMinuteLater) {
  // New York, 2026-03-08: after 01:59 EST the clock reads 03:00 EDT.
  const Cron cron = Parsed("* * * * *", "America/New_York");
  const absl::Time last_est = CronAt("America/New_York", 2026, 3, 8, 1, 59);
  const absl::Time next = cron.NextFire(last_est);
  EXPECT_EQ(Local(next, "America/New_York"), "2026-03-08 03:00 EDT");
  EXPECT_EQ(next - last_est, absl::Minutes(1));
}

TEST(CronMoreZonesTest, NightlyInAHalfHourOffsetZoneFiresAtItsLocalTime) {
  // Kolkata is UTC+05:30 all year: 02:00 IST is 20:30 UTC the day before.
  const Cron cron = Parsed("0 2 * * *", "Asia/Kolkata");
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 11, 23, 0, 0)), CronAt("UTC", 2026, 11, 23, 20, 30));
}

TEST(CronMoreZonesTest, ASouthernHemisphereSpringForwardGapFiresAtTheEndOfTheGap) {
  // Sydney, 2026-10-04: 02:00 AEST jumps to 03:00 AEDT; 02:30 does not exist that day.
  const Cron cron = Parsed("30 2 * * *", "Australia/Sydney");
  const absl::Time fire = cron.NextFire(CronAt("Australia/Sydney", 2026, 10, 3, 12, 0));
  EXPECT_EQ(Local(fire, "Australia/Sydney"), "2026-10-04 03:00 AEDT");
  EXPECT_EQ(Local(cron.NextFire(fire), "Australia/Sydney"), "2026-10-05 02:30 AEDT");
}

TEST(CronMoreZonesTest, EveryMinuteRollsOverTheYearInTheScheduleTimeZone) {
  const Cron cron = Parsed("* * * * *", "Asia/Tokyo");
  EXPECT_EQ(Local(cron.NextFire(CronAt("Asia/Tokyo", 2026, 12, 31, 23, 59)), "Asia/Tokyo"),
            "2027-01-01 00:00 JST");
}

TEST(CronMoreZonesTest, FebruaryTwentyNinthAtNightInAZoneAheadOfUtcIsTheLocalDay) {
  // 2028-02-29 01:00 in Tokyo is 2028-02-28 16:00 UTC: the local calendar decides.
  const Cron cron = Parsed("0 1 29 2 *", "Asia/Tokyo");
  EXPECT_EQ(cron.NextFire(CronAt("UTC", 2026, 6, 1, 0, 0)), CronAt("UTC", 2028, 2, 28, 16, 0));
}

}  // namespace
}  // namespace warpwatch::server::schedule
