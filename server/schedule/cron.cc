// File: server/schedule/cron.cc
#include "server/schedule/cron.h"

#include <absl/time/civil_time.h>

#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include "server/schedule/time_zone.h"

namespace warpwatch::server::schedule {
namespace {

constexpr int kHorizonDays = 9 * 366;

struct FieldSpec {
  const char* name;
  int min;
  int max;
  const char* const* names;  // names[0] stands for `min`, in order; null when none
  int name_count;
};

constexpr const char* kMonthNames[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                       "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr const char* kDayNames[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

constexpr std::array<FieldSpec, 5> kFields = {{
    {"minute", 0, 59, nullptr, 0},
    {"hour", 0, 23, nullptr, 0},
    {"day of month", 1, 31, nullptr, 0},
    {"month", 1, 12, kMonthNames, 12},
    {"day of week", 0, 7, kDayNames, 7},
}};

std::vector<std::string_view> CronSplit(std::string_view text, char sep, bool skip_empty) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view part = text.substr(start, end - start);
    if (!skip_empty || !part.empty()) parts.push_back(part);
    start = end + 1;
  }
  return parts;
}

StatusOr<int> Value(std::string_view token, const FieldSpec& f) {
  std::string upper(token);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int i = 0; i < f.name_count; ++i) {
    if (upper == f.names[i]) return f.min + i;
  }
  int value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size()) {
    return InvalidArgumentError(std::string(f.name) + ": \"" + std::string(token) +
                                "\" is not a number" + (f.names ? " or a name" : ""));
  }
  if (value < f.min || value > f.max) {
    return InvalidArgumentError(std::string(f.name) + ": " + std::to_string(value) +
                                " is outside " + std::to_string(f.min) + "-" +
                                std::to_string(f.max));
  }
  return value;
}

// Sets the field's bits (indexed by value) from `text`; *restricted is false only for "*".
template <size_t N>
Status ParseField(std::string_view text, const FieldSpec& f, std::bitset<N>* bits,
                  bool* restricted) {
  *restricted = text != "*";
  for (std::string_view item : CronSplit(text, ',', false)) {
    if (item.empty()) return InvalidArgumentError(std::string(f.name) + ": empty list item");
    int step = 1;
    const size_t slash = item.find('/');
    std::string_view range = item.substr(0, slash);
    if (slash != std::string_view::npos) {
      std::string_view s = item.substr(slash + 1);
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), step);
      if (s.empty() || ec != std::errc() || end != s.data() + s.size() || step < 1) {
        return InvalidArgumentError(std::string(f.name) + ": step \"" + std::string(s) +
                                    "\" is not a positive number");
      }
    }
    int lo = f.min, hi = f.max;
    if (range != "*") {
      const size_t dash = range.find('-');
      ASSIGN_OR_RETURN(lo, Value(range.substr(0, dash), f));
      hi = lo;
      if (dash != std::string_view::npos) {
        ASSIGN_OR_RETURN(hi, Value(range.substr(dash + 1), f));
      } else if (slash != std::string_view::npos) {
        hi = f.max;  // "a/n": from a to the end, as crontab(5)
      }
      if (hi < lo) {
        return InvalidArgumentError(std::string(f.name) + ": range " + std::string(range) +
                                    " runs backwards");
      }
    }
    for (int v = lo; v <= hi; v += step) bits->set(static_cast<size_t>(v % static_cast<int>(N)));
  }
  return OkStatus();
}

}  // namespace

StatusOr<Cron> Cron::Parse(std::string_view expression, std::string_view time_zone) {
  Cron cron;
  cron.expression_ = std::string(expression);
  cron.zone_name_ = std::string(time_zone);
  if (!LoadKnownTimeZone(std::string(time_zone), &cron.zone_)) {
    return InvalidArgumentError("time zone: unknown \"" + std::string(time_zone) + "\"");
  }
  std::string spaced(expression);
  for (char& c : spaced) {
    if (c == '\t') c = ' ';
  }
  const std::vector<std::string_view> fields = CronSplit(spaced, ' ', true);
  if (fields.size() != 5) {
    return InvalidArgumentError("cron: \"" + std::string(expression) + "\" has " +
                                std::to_string(fields.size()) +
                                " fields; expected 5 (minute hour day-of-month month day-of-week)");
  }
  bool restricted = false;
  RETURN_IF_ERROR(ParseField(fields[0], kFields[0], &cron.minutes_, &restricted));
  RETURN_IF_ERROR(ParseField(fields[1], kFields[1], &cron.hours_, &restricted));
  RETURN_IF_ERROR(ParseField(fields[2], kFields[2], &cron.days_of_month_, &cron.dom_restricted_));
  RETURN_IF_ERROR(ParseField(fields[3], kFields[3], &cron.months_, &restricted));
  // Day of week 7 is Sunday: bit 7 % 7 = 0.
  RETURN_IF_ERROR(ParseField(fields[4], kFields[4], &cron.days_of_week_, &cron.dow_restricted_));
  absl::CivilDay day;
  if (!cron.NextDay(absl::CivilDay(2000, 1, 1), &day)) {
    return InvalidArgumentError("cron: \"" + std::string(expression) + "\" never fires");
  }
  return cron;
}

bool Cron::DayMatches(const absl::CivilDay& day) const {
  if (!months_.test(static_cast<size_t>(day.month()))) return false;
  const bool dom = days_of_month_.test(static_cast<size_t>(day.day()));
  const int weekday = static_cast<int>(absl::GetWeekday(day));  // absl: Monday = 0
  const bool dow = days_of_week_.test(static_cast<size_t>((weekday + 1) % 7));
  if (dom_restricted_ && dow_restricted_) return dom || dow;
  return dom && dow;
}

bool Cron::NextDay(absl::CivilDay from, absl::CivilDay* day) const {
  for (int i = 0; i < kHorizonDays; ++i, ++from) {
    if (DayMatches(from)) {
      *day = from;
      return true;
    }
  }
  return false;
}

absl::Time Cron::NextFire(absl::Time after) const {
  absl::CivilDay day = absl::ToCivilDay(after, zone_);
  // One day earlier too: a skipped local time of that day can map to an instant after `after`.
  --day;
  const absl::CivilDay end = day + kHorizonDays;
  while (NextDay(day, &day) && day < end) {
    for (int h = 0; h < 24; ++h) {
      if (!hours_.test(static_cast<size_t>(h))) continue;
      for (int m = 0; m < 60; ++m) {
        if (!minutes_.test(static_cast<size_t>(m))) continue;
        const absl::CivilMinute local(day.year(), day.month(), day.day(), h, m);
        const absl::TimeZone::TimeInfo info = zone_.At(local);
        // SKIPPED: the first instant after the gap; REPEATED: the first occurrence.
        const absl::Time at =
            info.kind == absl::TimeZone::TimeInfo::SKIPPED ? info.trans : info.pre;
        if (at > after) return at;
      }
    }
    ++day;
  }
  return absl::InfiniteFuture();
}

}  // namespace warpwatch::server::schedule
