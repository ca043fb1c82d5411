// File: server/service/detail/authorized_call.h
// The shared top of every RPC handler: authorize the caller for the method, run the body with the
// caller's principal, log failures, and convert the result to a grpc::Status.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZED_CALL_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZED_CALL_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

#include <string_view>

#include "common/status/status.h"
#include "server/auth/authorizer.h"
#include "server/service/grpc_status.h"

namespace warpwatch::server::detail {

// Logs a failed call: server-side trouble (INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE, ABORTED)
// at warn, caller mistakes at debug.
void LogCallFailure(std::string_view method, const grpc::ServerContextBase& context,
                    const std::string& principal, const Status& status);

// body: Status(const auth::Principal&). Runs only when the caller may call `method`.
template <typename Body>
grpc::Status AuthorizedCall(const auth::Authorizer& authorizer,
                            const grpc::ServerContextBase& context, std::string_view method,
                            Body&& body) {
  StatusOr<auth::Principal> principal = authorizer.Authorize(context, method);
  if (!principal.ok()) {
    LogCallFailure(method, context, "-", principal.status());
    return ToGrpcStatus(principal.status());
  }
  Status status = body(*principal);
  if (!status.ok()) LogCallFailure(method, context, principal->name, status);
  return ToGrpcStatus(status);
}

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZED_CALL_H_
