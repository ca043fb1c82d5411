// File: cli/format/duration.cc
#include "cli/format/duration.h"

#include <google/protobuf/util/time_util.h>

#include <cstdio>
#include <ctime>

namespace warpwatch::cli {
namespace {

bool IsSet(const google::protobuf::Timestamp& t) { return t.seconds() != 0 || t.nanos() != 0; }

}  // namespace

std::string FormatDuration(double seconds) {
  char buf[32];
  if (!(seconds > 0)) return "0s";
  if (seconds < 1) {
    std::snprintf(buf, sizeof(buf), "%dms", static_cast<int>(seconds * 1000));
    return buf;
  }
  const long long s = static_cast<long long>(seconds);
  if (s < 60) {
    std::snprintf(buf, sizeof(buf), "%llds", s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof(buf), "%lldm%02llds", s / 60, s % 60);
  } else if (s < 86400) {
    std::snprintf(buf, sizeof(buf), "%lldh%02lldm", s / 3600, (s % 3600) / 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%lldd%02lldh", s / 86400, (s % 86400) / 3600);
  }
  return buf;
}

std::string FormatTimestamp(const google::protobuf::Timestamp& t) {
  if (!IsSet(t)) return "-";
  const std::time_t seconds = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

double SecondsBetween(const google::protobuf::Timestamp& from,
                      const google::protobuf::Timestamp& to) {
  if (!IsSet(from) || !IsSet(to)) return 0;
  return static_cast<double>(google::protobuf::util::TimeUtil::TimestampToMilliseconds(to) -
                             google::protobuf::util::TimeUtil::TimestampToMilliseconds(from)) /
         1000.0;
}

google::protobuf::Timestamp Now() { return google::protobuf::util::TimeUtil::GetCurrentTime(); }

}  // namespace warpwatch::cli
