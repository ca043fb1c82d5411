// File: server/store/detail/conversions.cc
#include "server/store/detail/conversions.h"

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace warpwatch::server::detail {
namespace {

// Timestamp's range (google/protobuf/timestamp.proto): 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59Z.
constexpr int64_t kMinTimestampSeconds = -62135596800;
constexpr int64_t kMaxTimestampSeconds = 253402300799;

}  // namespace

std::string JobStateName(v1::JobState state) {
  switch (state) {
    case v1::JOB_STATE_QUEUED:
      return "QUEUED";
    case v1::JOB_STATE_RUNNING:
      return "RUNNING";
    case v1::JOB_STATE_SUCCEEDED:
      return "SUCCEEDED";
    case v1::JOB_STATE_FAILED:
      return "FAILED";
    case v1::JOB_STATE_CANCELLED:
      return "CANCELLED";
    default:
      return "";
  }
}

v1::JobState JobStateFromName(const std::string& name) {
  for (v1::JobState s : {v1::JOB_STATE_QUEUED, v1::JOB_STATE_RUNNING, v1::JOB_STATE_SUCCEEDED,
                         v1::JOB_STATE_FAILED, v1::JOB_STATE_CANCELLED}) {
    if (JobStateName(s) == name) return s;
  }
  return v1::JOB_STATE_UNSPECIFIED;
}

google::protobuf::Timestamp TimestampFromMicros(int64_t micros) {
  if (micros == 0) return google::protobuf::Timestamp();
  return google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(micros);
}

int64_t MicrosFromTimestamp(const google::protobuf::Timestamp& ts) {
  google::protobuf::Timestamp clamped;
  clamped.set_seconds(std::clamp(ts.seconds(), kMinTimestampSeconds, kMaxTimestampSeconds));
  clamped.set_nanos(std::clamp(ts.nanos(), 0, 999999999));
  return google::protobuf::util::TimeUtil::TimestampToMicroseconds(clamped);
}

std::string MicrosSql(const std::string& column) {
  return "coalesce((extract(epoch from " + column + ") * 1000000)::bigint, 0)";
}

StatusOr<std::string> MessageToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string out;
  auto status = google::protobuf::util::MessageToJsonString(message, &out, options);
  if (!status.ok()) {
    return InternalError("encoding " + message.GetTypeName() +
                         " as JSON: " + std::string(status.message()));
  }
  return out;
}

Status MessageFromJson(const std::string& json, google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;  // rows written by a newer server stay readable
  auto status = google::protobuf::util::JsonStringToMessage(json, message, options);
  if (!status.ok()) {
    return InternalError("decoding stored " + message->GetTypeName() + ": " +
                         std::string(status.message()));
  }
  return OkStatus();
}

std::string StringMapToJson(const std::map<std::string, std::string>& map) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : map) j[k] = v;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

StatusOr<std::map<std::string, std::string>> StringMapFromJson(const std::string& json) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return InternalError("stored labels are not a JSON object");
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) return InternalError("stored label \"" + k + "\" is not a string");
    out[k] = v.get<std::string>();
  }
  return out;
}

std::string BigintArrayLiteral(const std::vector<int64_t>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

std::string DoubleArrayLiteral(const std::vector<double>& values) {
  std::string out = "{";
  char buf[64];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    const double v = values[i];
    if (std::isnan(v)) {
      out += "NaN";
    } else if (std::isinf(v)) {
      out += v > 0 ? "Infinity" : "-Infinity";
    } else {
      // Shortest text that reads back to the same double.
      auto result = std::to_chars(buf, buf + sizeof(buf), v);
      out.append(buf, result.ptr);
    }
  }
  return out + "}";
}

std::string BoolArrayLiteral(const std::vector<bool>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += values[i] ? 't' : 'f';
  }
  return out + "}";
}

std::string TextArrayLiteral(const std::vector<std::string>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

std::string HexEncode(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * bytes.size(), '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    out[2 * i] = kDigits[b >> 4];
    out[2 * i + 1] = kDigits[b & 15];
  }
  return out;
}

}  // namespace warpwatch::server::detail
