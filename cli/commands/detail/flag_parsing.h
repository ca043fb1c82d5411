// File: cli/commands/detail/flag_parsing.h
// Parsers for the structured flag values of submit and jobs. INVALID_ARGUMENT naming the flag.
#ifndef WARPWATCH_CLI_COMMANDS_DETAIL_FLAG_PARSING_H_
#define WARPWATCH_CLI_COMMANDS_DETAIL_FLAG_PARSING_H_

#include <string>
#include <utility>

#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::cli::detail {

// "--axis [FAMILY:]NAME=V1,V2,...": "reduce:n=1024,2048" or "block_size=128,256".
StatusOr<v1::AxisOverride> ParseAxis(const std::string& text);

// "KEY=VALUE" (the value may contain '='; the key may not be empty).
StatusOr<std::pair<std::string, std::string>> ParseKeyValue(const std::string& text,
                                                            const std::string& flag);

// "--max-noise": "0.5%" (percent) or "0.005" (fraction) -> 0.005.
StatusOr<double> ParseNoise(const std::string& text);

// "queued", "RUNNING", "job_state_failed" ... -> the JobState.
StatusOr<v1::JobState> ParseJobState(const std::string& text);

}  // namespace warpwatch::cli::detail

#endif  // WARPWATCH_CLI_COMMANDS_DETAIL_FLAG_PARSING_H_
