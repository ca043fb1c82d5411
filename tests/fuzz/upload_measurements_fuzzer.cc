// File: tests/fuzz/upload_measurements_fuzzer.cc
// A measurement upload batch as a worker sends it (UploadMeasurementsRequest in the binary wire
// format gRPC carries, or, for an input starting with '{', protobuf JSON: the corpus holds
// measurements of the committed H100 runs in both forms; JSON cannot express every value, e.g. a
// timestamp out of range, so the binary form matters): the edge's checks
// (server/service/detail/worker_requests) and, for a batch they accept, the store's conversion of
// each measurement into its row (server/store/detail/measurement_row: MeasurementRecord, what
// json_to_recordset reads). Checks: no crash; refusals are INVALID_ARGUMENT or
// RESOURCE_EXHAUSTED; every accepted measurement has a measured_at inside Timestamp's range
// (0001-01-01 to 9999-12-31: what PostgreSQL stores and microseconds hold) and converts, into one
// JSON object whose document decodes back to the measurement without its samples.
#include <google/protobuf/util/json_util.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "common/series/comparable_series.h"
#include "server/service/detail/worker_requests.h"
#include "server/store/detail/measurement_row.h"

namespace {

std::string HexDecode(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Timestamp's documented range (google/protobuf/timestamp.proto).
bool IsValidTimestamp(const google::protobuf::Timestamp& ts) {
  return ts.seconds() >= -62135596800 && ts.seconds() <= 253402300799 && ts.nanos() >= 0 &&
         ts.nanos() <= 999999999;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string json(reinterpret_cast<const char*>(data), size);  // or binary
  warpwatch::v1::UploadMeasurementsRequest request;
  if (!json.empty() && json[0] == '{') {
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    if (!google::protobuf::util::JsonStringToMessage(json, &request, options).ok()) return 0;
  } else if (!request.ParseFromString(json)) {
    return 0;
  }

  warpwatch::server::detail::UploadLimits limits;
  limits.max_measurements = 50;
  limits.max_bytes = 256 << 10;
  const warpwatch::Status status =
      warpwatch::server::detail::ValidateUploadMeasurements(request, limits);
  if (!status.ok()) {
    if (status.code() != warpwatch::StatusCode::kInvalidArgument &&
        status.code() != warpwatch::StatusCode::kResourceExhausted) {
      std::abort();
    }
    return 0;
  }
  for (const warpwatch::v1::Measurement& m : request.measurements()) {
    if (m.has_measured_at() && !IsValidTimestamp(m.measured_at())) std::abort();
    const std::string series_id = warpwatch::series::SeriesId(m.case_().canonical(), "GPU", "");
    auto record = warpwatch::server::detail::MeasurementRecord(request.run_id(), series_id, m);
    if (!record.ok()) std::abort();
    const nlohmann::json row = nlohmann::json::parse(*record, nullptr, /*allow_exceptions=*/false);
    if (!row.is_object() || !row.contains("doc_pb") || !row["doc_pb"].is_string()) std::abort();
    warpwatch::v1::Measurement doc;
    if (!doc.ParseFromString(HexDecode(row["doc_pb"].get<std::string>()))) std::abort();
    if (doc.run_id() != request.run_id() || doc.series_id() != series_id ||
        doc.case_().canonical() != m.case_().canonical() || doc.samples_seconds_size() != 0) {
      std::abort();
    }
  }
  return 0;
}
