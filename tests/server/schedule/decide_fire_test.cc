// File: tests/server/schedule/decide_fire_test.cc
// DecideFire: what the scheduler does with one due time (no database).
#include <gtest/gtest.h>

#include "server/schedule/scheduler.h"

namespace warpwatch::server::schedule {
namespace {

// 2026-03-01 00:00 UTC.
const absl::Time kDecideFireT0 = absl::FromUnixSeconds(1772323200);

DueSchedule Due(const std::string& cron, absl::Time next, v1::MissedFirePolicy policy,
                bool allow_overlap = false, bool previous_active = false,
                const std::string& zone = "UTC") {
  DueSchedule due;
  due.schedule.set_name("s");
  due.schedule.set_cron(cron);
  due.schedule.set_time_zone(zone);
  due.schedule.set_missed_fire_policy(policy);
  due.schedule.set_allow_overlap(allow_overlap);
  due.next_fire_at = next;
  due.previous_run_active = previous_active;
  return due;
}

TEST(DecideFireTest, AnOnTimeDueTimeFiresAndMovesToTheNextOne) {
  FireDecision d =
      DecideFire(Due("0 2 * * *", kDecideFireT0 + absl::Hours(2), v1::MISSED_FIRE_POLICY_SKIP),
                 kDecideFireT0 + absl::Hours(2) + absl::Seconds(3), absl::Minutes(5));
  EXPECT_EQ(d.due_at, kDecideFireT0 + absl::Hours(2));
  EXPECT_EQ(d.skipped_reason, "");
  EXPECT_EQ(d.next_fire_at, kDecideFireT0 + absl::Hours(26));
}

TEST(DecideFireTest, SkipPolicyRecordsTheLatestMissedDueTimeAsMissed) {
  FireDecision d = DecideFire(Due("*/10 * * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_SKIP),
                              kDecideFireT0 + absl::Minutes(65), absl::Minutes(5));
  EXPECT_EQ(d.skipped_reason, kSkippedMissed);
  EXPECT_EQ(d.due_at, kDecideFireT0 + absl::Minutes(60));
  EXPECT_EQ(d.next_fire_at, kDecideFireT0 + absl::Minutes(70));
}

TEST(DecideFireTest, RunOncePolicyFiresTheLatestMissedDueTime) {
  FireDecision d = DecideFire(Due("*/10 * * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_RUN_ONCE),
                              kDecideFireT0 + absl::Minutes(65), absl::Minutes(5));
  EXPECT_EQ(d.skipped_reason, "");
  EXPECT_EQ(d.due_at, kDecideFireT0 + absl::Minutes(60));
  EXPECT_EQ(d.next_fire_at, kDecideFireT0 + absl::Minutes(70));
}

TEST(DecideFireTest, UnspecifiedPolicyBehavesAsSkip) {
  FireDecision d = DecideFire(Due("0 * * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_UNSPECIFIED),
                              kDecideFireT0 + absl::Hours(5), absl::Minutes(5));
  EXPECT_EQ(d.skipped_reason, kSkippedMissed);
}

TEST(DecideFireTest, ARunningPreviousFireMakesAnOverlapUnlessAllowed) {
  EXPECT_EQ(DecideFire(Due("0 * * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_SKIP, false, true),
                       kDecideFireT0, absl::Minutes(5))
                .skipped_reason,
            kSkippedOverlap);
  EXPECT_EQ(DecideFire(Due("0 * * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_SKIP, true, true),
                       kDecideFireT0, absl::Minutes(5))
                .skipped_reason,
            "");
  EXPECT_EQ(
      DecideFire(Due("0 * * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_RUN_ONCE, false, true),
                 kDecideFireT0 + absl::Hours(3), absl::Minutes(5))
          .skipped_reason,
      kSkippedOverlap);
}

TEST(DecideFireTest, TheNextDueTimeFollowsTheScheduleTimeZoneAcrossDaylightSaving) {
  // 02:30 in Berlin does not exist on 2026-03-29 (clocks jump 02:00 -> 03:00): the fire after
  // the 28th's is at 03:00 CEST = 01:00 UTC.
  const absl::Time due = absl::FromUnixSeconds(1774661400);  // 2026-03-28 02:30 CET = 01:30 UTC
  FireDecision d = DecideFire(
      Due("30 2 * * *", due, v1::MISSED_FIRE_POLICY_SKIP, false, false, "Europe/Berlin"), due,
      absl::Minutes(5));
  EXPECT_EQ(d.next_fire_at, absl::FromUnixSeconds(1774746000));  // 2026-03-29 01:00 UTC
}

TEST(DecideFireTest, AnExpressionThatNoLongerParsesIsRecordedAndRetriedLater) {
  FireDecision d = DecideFire(
      Due("0 2 * * *", kDecideFireT0, v1::MISSED_FIRE_POLICY_SKIP, false, false, "Mars/Olympus"),
      kDecideFireT0, absl::Minutes(5));
  EXPECT_NE(d.skipped_reason.find("invalid cron"), std::string::npos);
  EXPECT_GT(d.next_fire_at, kDecideFireT0);
}

}  // namespace
}  // namespace warpwatch::server::schedule
