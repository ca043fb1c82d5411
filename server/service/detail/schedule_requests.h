// File: server/service/detail/schedule_requests.h
// ScheduleService request checks and the schedule a request asks for: name rules, the cron
// expression in its zone, the job template (validated as SubmitJob validates a spec), defaults,
// and UpdateSchedule's field mask. Every error is INVALID_ARGUMENT naming the field
// ("schedule.cron: ...").
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_SCHEDULE_REQUESTS_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_SCHEDULE_REQUESTS_H_

#include <absl/time/time.h>
#include <google/protobuf/field_mask.pb.h>

#include <string>

#include "common/status/status.h"
#include "server/schedule/schedule_store.h"
#include "server/validation/job_spec_validator.h"
#include "warpwatch/v1/schedule.pb.h"

namespace warpwatch::server::detail {

inline constexpr size_t kMaxScheduleNameLength = 63;

// 1-63 characters of [a-z0-9._-], the first a letter or digit. `field` names it in errors.
Status ValidateScheduleName(const std::string& name, const std::string& field);

// The longest IANA time zone name a schedule may use ("America/Argentina/ComodRivadavia" is 32).
inline constexpr size_t kMaxTimeZoneLength = 64;
// An IANA time zone name by its shape, before anything loads it: at most kMaxTimeZoneLength
// characters, '/'-separated parts each starting with a letter and made of [A-Za-z0-9_+-]
// ("Europe/Berlin", "Etc/GMT+5", "UTC"). Refuses paths ("/etc/passwd", "../x") and junk, which
// absl::LoadTimeZone would try to open and cache forever. INVALID_ARGUMENT naming `field` and the
// rule or limit broken.
Status ValidateTimeZoneName(const std::string& zone, const std::string& field);

// The write a Create (or a full-replace Update) stores: defaults applied (time zone "UTC", policy
// SKIP, enabled true when unset), output-only fields cleared, the template checked (its selector
// must be empty) with the schedule's selector, next_fire_at = the first due time after `now`.
StatusOr<schedule::ScheduleWrite> BuildScheduleWrite(const v1::Schedule& requested,
                                                     const validation::SpecLimits& limits,
                                                     absl::Time now);

// `current` with the request's fields at the mask's paths (all writable fields when the mask is
// empty). INVALID_ARGUMENT "update_mask: ..." for an unknown path or "name"; FAILED_PRECONDITION
// when `current` has a stored_error and a non-empty mask does not name job_template and selector
// (they would be kept empty, not as stored).
StatusOr<v1::Schedule> ApplyUpdateMask(const v1::Schedule& current, const v1::Schedule& request,
                                       const google::protobuf::FieldMask& mask);

// The write an Update stores: BuildScheduleWrite of the merged schedule, keeping current's
// next_fire_at unless cron, time_zone or enabled changed.
StatusOr<schedule::ScheduleWrite> BuildUpdateWrite(const v1::Schedule& current,
                                                   const v1::Schedule& merged,
                                                   const validation::SpecLimits& limits,
                                                   absl::Time now);

// The instants [from, until) of calendar day `date` ("YYYY-MM-DD") in `time_zone`.
// INVALID_ARGUMENT "due_date: ..." for anything else.
Status DayBounds(const std::string& date, const std::string& time_zone, absl::Time* from,
                 absl::Time* until);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_SCHEDULE_REQUESTS_H_
