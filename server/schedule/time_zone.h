// File: server/schedule/time_zone.h
// Loading an IANA time zone without growing absl's cache: absl (cctz) keeps every name it was
// asked to load, found or not, for the life of the process, so a name is handed to it only once
// the tz database is known to hold it. Every time zone the server loads goes through here.
#ifndef WARPWATCH_SERVER_SCHEDULE_TIME_ZONE_H_
#define WARPWATCH_SERVER_SCHEDULE_TIME_ZONE_H_

#include <absl/time/time.h>

#include <string>

namespace warpwatch::server::schedule {

// The directory absl reads zones from: $TZDIR when set, else /usr/share/zoneinfo.
std::string TimeZoneDirectory();

// True, with `*zone` set, when `name` is "UTC" or names a compiled zone file (TZif) under
// TimeZoneDirectory(); false for anything else, which never reaches absl: names that are empty,
// absolute, hold "..", a NUL or a backslash, or whose file is missing or not a zone file.
// Thread-safe. Each call reads the zone file's first 4 bytes (a zone that loads is then absl's,
// cached by it); a name not found leaves nothing behind.
bool LoadKnownTimeZone(const std::string& name, absl::TimeZone* zone);

}  // namespace warpwatch::server::schedule

#endif  // WARPWATCH_SERVER_SCHEDULE_TIME_ZONE_H_
