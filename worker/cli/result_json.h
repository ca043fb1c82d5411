// The RunResult document of `warpwatch-worker run --out` (protobuf's JSON mapping, so `warpwatch
// upload` parses it with the same mapping). CUDA-free.
#ifndef WARPWATCH_WORKER_CLI_RESULT_JSON_H_
#define WARPWATCH_WORKER_CLI_RESULT_JSON_H_

#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// Pretty-printed JSON with proto field names (snake_case) and every field, defaults included.
StatusOr<std::string> RunResultToJson(const v1::RunResult& result);
StatusOr<v1::RunResult> RunResultFromJson(const std::string& json);

// Writes the JSON to `path` (replaced atomically through a temporary file beside it).
Status WriteRunResultFile(const v1::RunResult& result, const std::string& path);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLI_RESULT_JSON_H_
