// File: server/service/detail/schedule_requests.cc
#include "server/service/detail/schedule_requests.h"

#include <absl/time/civil_time.h>

#include <algorithm>

#include "server/schedule/cron.h"
#include "server/schedule/time_zone.h"

namespace warpwatch::server::detail {
namespace {

bool NameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// "spec.selector.x: ..." -> "schedule.selector.x: ...", "spec.x: ..." ->
// "schedule.job_template.x: ...".
Status RenameSpecField(const Status& status) {
  std::string m = status.message();
  if (m.rfind("spec.selector", 0) == 0) {
    m = "schedule.selector" + m.substr(13);
  } else if (m.rfind("spec", 0) == 0) {
    m = "schedule.job_template" + m.substr(4);
  }
  return Status(status.code(), m);
}

}  // namespace

Status ValidateScheduleName(const std::string& name, const std::string& field) {
  if (name.empty()) return InvalidArgumentError(field + ": required");
  if (name.size() > kMaxScheduleNameLength) {
    return InvalidArgumentError(field + ": at most " + std::to_string(kMaxScheduleNameLength) +
                                " characters");
  }
  for (char c : name) {
    if (!NameChar(c)) {
      return InvalidArgumentError(field + ": only a-z, 0-9, '.', '_' and '-' are allowed");
    }
  }
  if (name[0] == '.' || name[0] == '_' || name[0] == '-') {
    return InvalidArgumentError(field + ": must start with a letter or digit");
  }
  return OkStatus();
}

Status ValidateTimeZoneName(const std::string& zone, const std::string& field) {
  if (zone.empty()) return InvalidArgumentError(field + ": empty");
  if (zone.size() > kMaxTimeZoneLength) {
    return InvalidArgumentError(field + ": " + std::to_string(zone.size()) +
                                " characters, longer than the limit of " +
                                std::to_string(kMaxTimeZoneLength));
  }
  bool part_start = true;
  for (char c : zone) {
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    const bool ok = part_start ? letter
                               : letter || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
                                     c == '-' || c == '/';
    if (!ok) {
      return InvalidArgumentError(
          field +
          ": not an IANA time zone name (\"Area/Location\": parts of [A-Za-z0-9_+-] "
          "separated by '/', each starting with a letter)");
    }
    part_start = c == '/';
  }
  if (part_start) return InvalidArgumentError(field + ": ends with '/'");
  return OkStatus();
}

StatusOr<schedule::ScheduleWrite> BuildScheduleWrite(const v1::Schedule& requested,
                                                     const validation::SpecLimits& limits,
                                                     absl::Time now) {
  RETURN_IF_ERROR(ValidateScheduleName(requested.name(), "schedule.name"));
  schedule::ScheduleWrite write;
  v1::Schedule& s = write.schedule;
  s.set_name(requested.name());
  s.set_cron(requested.cron());
  s.set_time_zone(requested.time_zone().empty() ? "UTC" : requested.time_zone());
  *s.mutable_job_template() = requested.job_template();
  *s.mutable_selector() = requested.selector();
  s.set_missed_fire_policy(requested.missed_fire_policy() ==
                                   v1::MISSED_FIRE_POLICY_UNSPECIFIED
                               ? v1::MISSED_FIRE_POLICY_SKIP
                               : requested.missed_fire_policy());
  s.set_allow_overlap(requested.allow_overlap());
  s.set_enabled(requested.has_enabled() ? requested.enabled() : true);
  if (s.cron().empty()) return InvalidArgumentError("schedule.cron: required");
  RETURN_IF_ERROR(ValidateTimeZoneName(s.time_zone(), "schedule.time_zone"));
  StatusOr<schedule::Cron> cron = schedule::Cron::Parse(s.cron(), s.time_zone());
  if (!cron.ok()) {
    const std::string& m = cron.status().message();
    const bool zone = m.rfind("time zone", 0) == 0;
    return InvalidArgumentError((zone ? "schedule.time_zone: " : "schedule.cron: ") + m);
  }
  if (s.job_template().has_selector() &&
      s.job_template().selector().ByteSizeLong() != 0) {
    return InvalidArgumentError(
        "schedule.job_template.selector: must be empty; schedule.selector chooses the GPUs");
  }
  v1::JobSpec checked = s.job_template();
  *checked.mutable_selector() = s.selector();
  StatusOr<int64_t> points = validation::ValidateJobSpec(checked, limits);
  if (!points.ok()) return RenameSpecField(points.status());
  write.points_total = *points;
  write.next_fire_at = cron->NextFire(now);
  return write;
}

StatusOr<v1::Schedule> ApplyUpdateMask(const v1::Schedule& current, const v1::Schedule& request,
                                       const google::protobuf::FieldMask& mask) {
  if (!current.stored_error().empty() && !mask.paths().empty()) {
    const auto& paths = mask.paths();
    const bool replaces_both =
        std::find(paths.begin(), paths.end(), "job_template") != paths.end() &&
        std::find(paths.begin(), paths.end(), "selector") != paths.end();
    if (!replaces_both) {
      return FailedPreconditionError(
          "schedule \"" + current.name() + "\": its stored job_template or selector cannot be " +
          "read by this server (" + current.stored_error() +
          "); an update must replace both (update_mask with job_template and selector, or empty)");
    }
  }
  if (mask.paths().empty()) {
    v1::Schedule replaced = request;
    replaced.set_name(current.name());
    return replaced;
  }
  v1::Schedule merged = current;
  for (const std::string& path : mask.paths()) {
    if (path == "cron") {
      merged.set_cron(request.cron());
    } else if (path == "time_zone") {
      merged.set_time_zone(request.time_zone());
    } else if (path == "job_template") {
      *merged.mutable_job_template() = request.job_template();
    } else if (path == "selector") {
      *merged.mutable_selector() = request.selector();
    } else if (path == "missed_fire_policy") {
      merged.set_missed_fire_policy(request.missed_fire_policy());
    } else if (path == "allow_overlap") {
      merged.set_allow_overlap(request.allow_overlap());
    } else if (path == "enabled") {
      merged.set_enabled(request.has_enabled() ? request.enabled() : true);
    } else if (path == "name") {
      return InvalidArgumentError("update_mask: a schedule's name cannot change");
    } else {
      return InvalidArgumentError("update_mask: unknown or read-only path \"" + path + "\"");
    }
  }
  return merged;
}

StatusOr<schedule::ScheduleWrite> BuildUpdateWrite(const v1::Schedule& current,
                                                   const v1::Schedule& merged,
                                                   const validation::SpecLimits& limits,
                                                   absl::Time now) {
  ASSIGN_OR_RETURN(schedule::ScheduleWrite write, BuildScheduleWrite(merged, limits, now));
  const bool timing_changed = write.schedule.cron() != current.cron() ||
                              write.schedule.time_zone() != current.time_zone() ||
                              write.schedule.enabled() != current.enabled();
  if (!timing_changed && current.has_next_fire_at()) {
    write.next_fire_at = absl::FromUnixSeconds(current.next_fire_at().seconds()) +
                         absl::Nanoseconds(current.next_fire_at().nanos());
  }
  return write;
}

Status DayBounds(const std::string& date, const std::string& time_zone, absl::Time* from,
                 absl::Time* until) {
  absl::CivilDay day;
  if (date.size() != 10 || !absl::ParseCivilTime(date, &day)) {
    return InvalidArgumentError("due_date: \"" + date + "\" is not YYYY-MM-DD");
  }
  absl::TimeZone zone;
  if (!schedule::LoadKnownTimeZone(time_zone.empty() ? "UTC" : time_zone, &zone)) {
    return InvalidArgumentError("due_date: the schedule's time zone \"" + time_zone +
                                "\" is unknown");
  }
  *from = absl::FromCivil(day, zone);
  *until = absl::FromCivil(day + 1, zone);
  return OkStatus();
}

}  // namespace warpwatch::server::detail
