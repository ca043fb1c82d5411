// File: server/service/detail/authorized_call.h
// The shared top of every RPC handler: authorize the caller for the method, run the body with the
// caller's principal, log failures, and convert the result to a grpc::Status. Server internals
// (the store's SQL error text) never reach the client: they are logged under a request id that
// the client's message names.
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
// at warn, caller mistakes at debug. `request_id` (may be empty) ties the line to the answer.
void LogCallFailure(std::string_view method, const grpc::ServerContextBase& context,
                    const std::string& principal, const Status& status,
                    const std::string& request_id = "");

// Whether `status` may carry server internals (libpq's text: database host, port, user,
// relation names; SQL): INTERNAL, UNKNOWN, DATA_LOSS, and the codes the store gives database
// trouble, UNAVAILABLE, ABORTED and DEADLINE_EXCEEDED. Clients get a fixed message for these
// (ClientStatus).
bool HidesDetail(const Status& status);

// A fresh random request id: 16 hex digits. Thread-safe.
std::string NewRequestId();

// What the client sees of a failed call: `status` itself, or for HidesDetail codes the same
// code with a fixed message for the code ("unavailable: ... (request id <request_id>); the
// server log has the details under that id") and nothing of the original message.
Status ClientStatus(const Status& status, const std::string& request_id);

// The answer to a call that failed with `status` after authorization: logged (under a fresh request
// id when the client must not see the detail) and converted as AuthorizedCall does.
grpc::Status FailedCallStatus(std::string_view method, const grpc::ServerContextBase& context,
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
  if (status.ok()) return grpc::Status::OK;
  return FailedCallStatus(method, context, principal->name, status);
}

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZED_CALL_H_
