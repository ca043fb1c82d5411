// File: cli/client/exit_codes.h
// The CLI's exit codes (documented in `warpwatch --help`) and how RPC errors are reported.
#ifndef WARPWATCH_CLI_CLIENT_EXIT_CODES_H_
#define WARPWATCH_CLI_CLIENT_EXIT_CODES_H_

#include <grpcpp/support/status.h>

#include <string>

#include "common/status/status.h"

namespace warpwatch::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitOther = 1,            // any other error
  kExitUsage = 2,            // bad command line
  kExitNotFound = 3,         // NOT_FOUND
  kExitInvalid = 4,          // INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE, ALREADY_EXISTS
  kExitUnavailable = 5,      // UNAVAILABLE, DEADLINE_EXCEEDED (server or database down)
  kExitAuth = 6,             // UNAUTHENTICATED, PERMISSION_DENIED
  kExitJobNotSucceeded = 7,  // watch / submit --watch: the job ended FAILED or CANCELLED
};

// The exit code for a gRPC status code.
int ExitCodeFor(grpc::StatusCode code);

// Prints "warpwatch: CODE: message" to stderr and returns ExitCodeFor(status).
int ReportError(const grpc::Status& status);
// Same for a local error (a file that cannot be read, a bad flag value).
int ReportError(const Status& status);

// The text of the --help footer listing the codes.
std::string ExitCodesHelp();

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_CLIENT_EXIT_CODES_H_
