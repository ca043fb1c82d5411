// File: server/service/detail/raw_unary_call.h
// The shape of a unary RPC served raw (gRPC's callback API with ByteBuffer request and response):
// the caller is authorized from its metadata and the request's size checked against that caller's
// limit before a byte of it is parsed, so an unauthenticated or oversize request costs the server
// the bytes it received and nothing more. gRPC's generated handlers parse first, and parsing
// amplifies: 16 MB of empty repeated sub-messages became 4.4 GB of objects (issue 23). The methods
// that take large messages (UploadRun, UploadMeasurements) are served this way.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_RAW_UNARY_CALL_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_RAW_UNARY_CALL_H_

#include <google/protobuf/message.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/server_callback.h>

#include <cstddef>
#include <string_view>
#include <utility>

#include "common/status/status.h"
#include "server/auth/authorizer.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/detail/call_pool.h"
#include "server/service/grpc_status.h"

namespace warpwatch::server::detail {

// Parses `bytes` (a request as received) into `message`. INVALID_ARGUMENT naming the message type
// when they are not one. Reads the slices in place (no copy of the bytes).
Status ParseRawRequest(const grpc::ByteBuffer& bytes, google::protobuf::Message* message);
// Serializes `message` into `bytes`. INTERNAL when protobuf refuses (over 2 GiB).
Status SerializeRawResponse(const google::protobuf::Message& message, grpc::ByteBuffer* bytes);

// Serves one raw unary call. On the calling (gRPC callback) thread: authorizes the caller for
// `method` (UNAUTHENTICATED / PERMISSION_DENIED as Authorizer::Authorize), then asks
// `size_limit(principal, request_bytes)` whether this caller may send that many bytes (its error,
// RESOURCE_EXHAUSTED naming the limit, is the answer). Only then, on `pool`: parses the request,
// runs `body(principal, request, &response)`, serializes the response and finishes the call,
// errors logged and converted as AuthorizedCall does. Returns the call's reactor.
// `method` must outlive the call (a string literal); `context`, `request_bytes` and
// `response_bytes` are gRPC's, valid until the reactor finishes. size_limit: Status(const
// auth::Principal&, size_t); body: Status(const auth::Principal&, const Request&, Response*);
// both are run once and must be thread-safe against other calls.
template <typename Request, typename Response, typename SizeLimit, typename Body>
grpc::ServerUnaryReactor* RawUnaryCall(const auth::Authorizer& authorizer, CallPool& pool,
                                       grpc::CallbackServerContext* context,
                                       std::string_view method,
                                       const grpc::ByteBuffer* request_bytes,
                                       grpc::ByteBuffer* response_bytes, SizeLimit&& size_limit,
                                       Body body) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  StatusOr<auth::Principal> principal = authorizer.Authorize(*context, method);
  if (!principal.ok()) {
    LogCallFailure(method, *context, "-", principal.status());
    reactor->Finish(ToGrpcStatus(principal.status()));
    return reactor;
  }
  if (Status size = size_limit(*principal, request_bytes->Length()); !size.ok()) {
    reactor->Finish(FailedCallStatus(method, *context, principal->name, size));
    return reactor;
  }
  pool.Run([reactor, context, method, request_bytes, response_bytes, body = std::move(body),
            caller = *std::move(principal)]() mutable {
    Request request;
    Response response;
    Status status = ParseRawRequest(*request_bytes, &request);
    if (status.ok()) status = body(caller, request, &response);
    if (status.ok()) status = SerializeRawResponse(response, response_bytes);
    reactor->Finish(status.ok() ? grpc::Status::OK
                                : FailedCallStatus(method, *context, caller.name, status));
  });
  return reactor;
}

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_RAW_UNARY_CALL_H_
