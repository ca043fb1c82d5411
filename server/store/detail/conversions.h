// File: server/store/detail/conversions.h
// Value conversions between proto types and the SQL representations the schema uses:
// state names, timestamps as epoch microseconds, messages and label maps as JSON, array literals.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_CONVERSIONS_H_
#define WARPWATCH_SERVER_STORE_DETAIL_CONVERSIONS_H_

#include <google/protobuf/message.h>
#include <google/protobuf/timestamp.pb.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/common.pb.h"

namespace warpwatch::server::detail {

// "QUEUED" ... ; the job.state column's vocabulary. UNSPECIFIED -> "".
std::string JobStateName(v1::JobState state);
// Inverse; JOB_STATE_UNSPECIFIED for an unknown name.
v1::JobState JobStateFromName(const std::string& name);

// 0 <-> an unset (zero) timestamp.
google::protobuf::Timestamp TimestampFromMicros(int64_t micros);
// A timestamp from a client may hold any seconds and nanos: it is clamped into Timestamp's range
// (0001-01-01 to 9999-12-31, nanos 0..999999999) first, so the product never overflows int64
// (protobuf's TimeUtil would, which is undefined behaviour) and PostgreSQL takes the result.
int64_t MicrosFromTimestamp(const google::protobuf::Timestamp& ts);

// SQL expression giving a timestamptz column as epoch microseconds (0 for NULL).
std::string MicrosSql(const std::string& column);

// Protobuf's JSON mapping with proto field names (snake_case), for jsonb columns.
StatusOr<std::string> MessageToJson(const google::protobuf::Message& message);
Status MessageFromJson(const std::string& json, google::protobuf::Message* message);

// A string map as a JSON object, for jsonb columns and @> filters.
std::string StringMapToJson(const std::map<std::string, std::string>& map);
// Inverse. INTERNAL for anything but an object of strings.
StatusOr<std::map<std::string, std::string>> StringMapFromJson(const std::string& json);

// PostgreSQL array literals ("{1,2}"), passed as text parameters and cast in SQL.
std::string BigintArrayLiteral(const std::vector<int64_t>& values);
std::string DoubleArrayLiteral(const std::vector<double>& values);  // NaN/Infinity spelled out
std::string BoolArrayLiteral(const std::vector<bool>& values);
std::string TextArrayLiteral(const std::vector<std::string>& values);  // elements quoted

// Lower-case hex of `bytes`, for bytea values passed as text and decode(..., 'hex')d in SQL.
std::string HexEncode(const std::string& bytes);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_CONVERSIONS_H_
