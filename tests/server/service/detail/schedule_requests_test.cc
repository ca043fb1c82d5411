// File: tests/server/service/detail/schedule_requests_test.cc
// Time zone names are checked by their shape and length before anything loads them (issue 23:
// any string went to absl::LoadTimeZone, which opens files and caches every name it is given).
#include "server/service/detail/schedule_requests.h"

#include <gtest/gtest.h>

#include <string>

namespace warpwatch::server::detail {
namespace {

TEST(TimeZoneNameTest, IanaNamesAreAccepted) {
  for (const char* zone : {"UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5",
                           "Etc/GMT-14", "EST5EDT", "America/Port-au-Prince"}) {
    EXPECT_TRUE(ValidateTimeZoneName(zone, "schedule.time_zone").ok()) << zone;
  }
}

TEST(TimeZoneNameTest, PathsAndJunkAreRefusedNamingTheField) {
  for (const char* zone : {"/etc/passwd", "../../etc/passwd", "Europe/../../x", "Europe/",
                           "Europe//Berlin", "Europe/Berlin ", "1Europe", "Europe\\Berlin", ""}) {
    const Status status = ValidateTimeZoneName(zone, "schedule.time_zone");
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << zone;
    EXPECT_EQ(status.message().rfind("schedule.time_zone: ", 0), 0u) << status.message();
  }
}

TEST(TimeZoneNameTest, ANameOverTheLengthLimitIsRefusedNamingTheLimit) {
  const std::string longest = "A" + std::string(kMaxTimeZoneLength - 1, 'a');
  EXPECT_TRUE(ValidateTimeZoneName(longest, "schedule.time_zone").ok());
  const Status status = ValidateTimeZoneName(longest + "a", "schedule.time_zone");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("longer than the limit of " + std::to_string(kMaxTimeZoneLength)),
            std::string::npos)
      << status.message();
}

}  // namespace
}  // namespace warpwatch::server::detail
