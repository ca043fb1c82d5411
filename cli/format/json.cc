// File: cli/format/json.cc
#include "cli/format/json.h"

#include <google/protobuf/util/json_util.h>

namespace warpwatch::cli {

std::string ToJson(const google::protobuf::Message& message, bool pretty) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = pretty;
  options.always_print_primitive_fields = true;
  std::string out;
  // Serializing a valid in-memory message cannot fail for our messages (no Any fields).
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace warpwatch::cli
