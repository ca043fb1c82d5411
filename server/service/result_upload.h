// File: server/service/result_upload.h
// UploadRun's request side: the uploaded `warpwatch-worker run --out` text parsed as a RunResult,
// and the digest that makes the upload idempotent on content.
#ifndef WARPWATCH_SERVER_SERVICE_RESULT_UPLOAD_H_
#define WARPWATCH_SERVER_SERVICE_RESULT_UPLOAD_H_

#include <cstddef>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server {

// The largest run file UploadRun takes (the server's gRPC receive limit is set above it, so a
// larger file is refused here, by name, not by the transport).
inline constexpr size_t kMaxUploadRunBytes = 32u << 20;
// The largest UploadRunRequest read at all: a run file of kMaxUploadRunBytes and its envelope
// (the field's tag and length). Checked before the request is parsed; a file just over
// kMaxUploadRunBytes still reaches ParseUploadRun, which names the file's limit.
inline constexpr size_t kMaxUploadRunRequestBytes = kMaxUploadRunBytes + 1024;

struct ParsedUpload {
  v1::RunResult result;
  std::string content_sha256;  // lowercase hex
};

// Parses request.run_result_json (protobuf JSON mapping, field names snake_case or lowerCamel;
// unknown fields refused, so another message's JSON is not taken for a RunResult).
// content_sha256 is the SHA-256 of the RunResult's deterministic binary serialization: the same
// run twice has one digest however its JSON is spaced or ordered. INVALID_ARGUMENT naming what is
// wrong: "run_result_json: empty", "...: N bytes, more than the limit of M", "...: not a
// RunResult ...", "measurements: none", "environment.device.uuid: empty".
StatusOr<ParsedUpload> ParseUploadRun(const v1::UploadRunRequest& request,
                                      size_t max_bytes = kMaxUploadRunBytes);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_RESULT_UPLOAD_H_
