// RunResult JSON.
#include "worker/cli/result_json.h"

#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <fstream>

namespace warpwatch::worker {

StatusOr<std::string> RunResultToJson(const v1::RunResult& result) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string json;
  auto status = google::protobuf::util::MessageToJsonString(result, &json, options);
  if (!status.ok()) return InternalError("RunResult to JSON: " + status.ToString());
  return json;
}

StatusOr<v1::RunResult> RunResultFromJson(const std::string& json) {
  v1::RunResult result;
  google::protobuf::util::JsonParseOptions options;
  auto status = google::protobuf::util::JsonStringToMessage(json, &result, options);
  if (!status.ok()) return InvalidArgumentError("RunResult JSON: " + status.ToString());
  return result;
}

Status WriteRunResultFile(const v1::RunResult& result, const std::string& path) {
  ASSIGN_OR_RETURN(std::string json, RunResultToJson(result));
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return UnavailableError("cannot write " + tmp);
    out << json << "\n";
    if (!out.flush()) return UnavailableError("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return UnavailableError("cannot rename " + tmp + " to " + path);
  }
  return OkStatus();
}

}  // namespace warpwatch::worker
