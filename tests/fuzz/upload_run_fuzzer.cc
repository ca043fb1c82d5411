// File: tests/fuzz/upload_run_fuzzer.cc
// UploadRun's parsing (server/service/result_upload) of a `warpwatch-worker run --out` file, on
// any text a client can upload (the corpus: slices of the committed H100 runs). Checks: no
// crash; every refusal is INVALID_ARGUMENT; an accepted run has measurements and a named device,
// and its content digest does not depend on how the JSON is written (the accepted run printed
// again and re-parsed has the same digest: uploads are idempotent on content).
#include <google/protobuf/util/json_util.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/service/result_upload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warpwatch::v1::UploadRunRequest request;
  request.set_run_result_json(std::string(reinterpret_cast<const char*>(data), size));
  constexpr size_t kMaxBytes = 1 << 20;
  auto parsed = warpwatch::server::ParseUploadRun(request, kMaxBytes);
  if (!parsed.ok()) {
    if (parsed.status().code() != warpwatch::StatusCode::kInvalidArgument) std::abort();
    return 0;
  }
  if (parsed->result.measurements_size() == 0 ||
      parsed->result.environment().device().uuid().empty() ||
      parsed->content_sha256.size() != 64) {
    std::abort();
  }
  std::string again;
  google::protobuf::util::JsonPrintOptions print;
  print.preserve_proto_field_names = true;
  if (!google::protobuf::util::MessageToJsonString(parsed->result, &again, print).ok()) {
    return 0;  // e.g. a timestamp out of JSON's range: nothing to compare
  }
  warpwatch::v1::UploadRunRequest reprinted;
  reprinted.set_run_result_json(again);
  auto reparsed = warpwatch::server::ParseUploadRun(reprinted, 4 * kMaxBytes);
  if (!reparsed.ok() || reparsed->content_sha256 != parsed->content_sha256) std::abort();
  return 0;
}
