// File: server/service/result_upload.cc
#include "server/service/result_upload.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/json_util.h>
#include <openssl/sha.h>

namespace warpwatch::server {
namespace {

std::string UploadDeterministicBytes(const v1::RunResult& result) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    result.SerializeToCodedStream(&coded);
  }
  return bytes;
}

std::string Sha256Hex(const std::string& bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * SHA256_DIGEST_LENGTH);
  for (unsigned char c : digest) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

}  // namespace

StatusOr<ParsedUpload> ParseUploadRun(const v1::UploadRunRequest& request, size_t max_bytes) {
  const std::string& json = request.run_result_json();
  if (json.empty()) return InvalidArgumentError("run_result_json: empty");
  if (json.size() > max_bytes) {
    return InvalidArgumentError("run_result_json: " + std::to_string(json.size()) +
                                " bytes, more than the limit of " + std::to_string(max_bytes));
  }
  ParsedUpload parsed;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &parsed.result, options);
  if (!status.ok()) {
    return InvalidArgumentError(
        "run_result_json: not a RunResult (the JSON `warpwatch-worker run --out` writes): " +
        std::string(status.message()));
  }
  if (parsed.result.measurements_size() == 0) {
    return InvalidArgumentError("measurements: none; a RunResult to upload holds at least one");
  }
  if (parsed.result.environment().device().uuid().empty()) {
    return InvalidArgumentError("environment.device.uuid: empty");
  }
  if (parsed.result.environment().device().name().empty()) {
    return InvalidArgumentError("environment.device.name: empty");
  }
  parsed.content_sha256 = Sha256Hex(UploadDeterministicBytes(parsed.result));
  return parsed;
}

}  // namespace warpwatch::server
