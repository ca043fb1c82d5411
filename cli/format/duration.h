// File: cli/format/duration.h
// Human-readable durations and timestamps.
#ifndef WARPWATCH_CLI_FORMAT_DURATION_H_
#define WARPWATCH_CLI_FORMAT_DURATION_H_

#include <google/protobuf/timestamp.pb.h>

#include <string>

namespace warpwatch::cli {

// "850ms", "42s", "3m05s", "2h07m", "3d04h". Negative values print as "0s".
std::string FormatDuration(double seconds);

// "2026-11-22 08:35:54Z" (UTC); "-" for an unset (zero) timestamp.
std::string FormatTimestamp(const google::protobuf::Timestamp& t);

// Seconds from `from` to `to`; 0 when either is unset.
double SecondsBetween(const google::protobuf::Timestamp& from,
                      const google::protobuf::Timestamp& to);

// The current time as a Timestamp.
google::protobuf::Timestamp Now();

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_DURATION_H_
