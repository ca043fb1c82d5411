// File: cli/format/json.h
// Protobuf's canonical JSON mapping for --json output (int64 as strings, enums by name).
#ifndef WARPWATCH_CLI_FORMAT_JSON_H_
#define WARPWATCH_CLI_FORMAT_JSON_H_

#include <google/protobuf/message.h>

#include <string>

namespace warpwatch::cli {

// Indented JSON when `pretty`, else one line (JSON Lines for streams). Ends without a newline.
std::string ToJson(const google::protobuf::Message& message, bool pretty);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_JSON_H_
