// File: cli/client/exit_codes.cc
#include "cli/client/exit_codes.h"

#include <iostream>

namespace warpwatch::cli {

int ExitCodeFor(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return kExitOk;
    case grpc::StatusCode::NOT_FOUND:
      return kExitNotFound;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::OUT_OF_RANGE:
    case grpc::StatusCode::ALREADY_EXISTS:
      return kExitInvalid;
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return kExitUnavailable;
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
      return kExitAuth;
    default:
      return kExitOther;
  }
}

int ReportError(const grpc::Status& status) {
  const auto code = static_cast<StatusCode>(static_cast<int>(status.error_code()));
  std::cerr << "warpwatch: " << StatusCodeName(code) << ": " << status.error_message() << "\n";
  return ExitCodeFor(status.error_code());
}

int ReportError(const Status& status) {
  return ReportError(grpc::Status(static_cast<grpc::StatusCode>(static_cast<int>(status.code())),
                                  status.message()));
}

std::string ExitCodesHelp() {
  return "Exit codes:\n"
         "  0  success\n"
         "  1  other error\n"
         "  2  usage (bad command line)\n"
         "  3  not found\n"
         "  4  invalid argument or failed precondition (e.g. cancelling a finished job)\n"
         "  5  unavailable (server or its database down, deadline exceeded)\n"
         "  6  authentication or permission (missing/unknown token, role not allowed)\n"
         "  7  the watched job ended FAILED or CANCELLED\n"
         "Errors print the server's code and message on stderr.";
}

}  // namespace warpwatch::cli
