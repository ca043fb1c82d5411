// File: server/service/detail/authorize_before_read.h
// Every unary method of a synchronous service authorized before its request is read (issue 23).
// gRPC's generated handlers read and parse the request before the handler runs, and parsing
// amplifies: 32 MiB of empty repeated sub-messages to Register raised the server's peak RSS by
// 2.5 GiB before it answered UNAUTHENTICATED. gRPC 1.51 runs server interceptors only after the
// parse, and its AuthMetadataProcessor aborts on insecure credentials, so the methods are served
// through a handler of our own instead: the method is marked "streamed" (the transport hands no
// payload up front), the caller is authorized from its metadata, and only then is the one request
// message read, as bytes, checked against `max_request_bytes` (RESOURCE_EXHAUSTED naming the
// limit), parsed and handed to the service's ordinary synchronous method, whose answer is sent as
// a unary answer. Clients see a plain unary method. Unread bytes stay in the transport's
// flow-control window, so an unauthenticated request costs at most what that window holds.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZE_BEFORE_READ_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZE_BEFORE_READ_H_

#include <grpcpp/impl/service_type.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/method_handler.h>
#include <grpcpp/support/sync_stream.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "common/status/status.h"
#include "server/auth/authorizer.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/detail/raw_unary_call.h"
#include "server/service/grpc_status.h"

namespace warpwatch::server::detail {

// Requests of the methods served this way are small (a job spec, a worker's GPUs, a page
// request): 4 MiB, gRPC's own default limit, which they had before UploadRun raised the server's.
inline constexpr size_t kMaxSmallRequestBytes = 4u << 20;

// The index of method `path` ("/warpwatch.v1.JobService/GetJob") in its service as the generated
// code registers it (descriptor order); aborts when it is not there (a renamed method: the server
// must not start with a method left unprotected).
int MethodIndex(std::string_view path);

// The bytes-level step of a method served through AuthorizeBeforeRead: authorizes the caller of
// `method` (full path) from `context`, reads the one request message as bytes into `request`,
// and checks its size against `max_request_bytes`. OK, or the status to answer (UNAUTHENTICATED,
// PERMISSION_DENIED, RESOURCE_EXHAUSTED, INTERNAL when no message came). Logs refusals.
grpc::Status ReadAuthorizedRequest(const auth::Authorizer& authorizer, std::string_view method,
                                   size_t max_request_bytes, grpc::ServerContext* context,
                                   grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>* stream,
                                   grpc::ByteBuffer* request);

// A MethodHandler serving unary method `method` (full path, a string literal) through `handler`,
// the service's ordinary synchronous method (grpc::Status(ServerContext*, const Request*,
// Response*)). For grpc::Service::MarkMethodStreamed, which owns it. `authorizer` must outlive it.
template <typename Request, typename Response, typename Handler>
grpc::internal::MethodHandler* AuthorizeBeforeRead(const auth::Authorizer& authorizer,
                                                  std::string_view method,
                                                  size_t max_request_bytes, Handler handler) {
  using Stream = grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;
  return new grpc::internal::TemplatedBidiStreamingHandler<Stream, false>(
      [&authorizer, method, max_request_bytes, handler = std::move(handler)](
          grpc::ServerContext* context, Stream* stream) -> grpc::Status {
        grpc::ByteBuffer bytes;
        grpc::Status read =
            ReadAuthorizedRequest(authorizer, method, max_request_bytes, context, stream, &bytes);
        if (!read.ok()) return read;
        Request request;
        if (Status parsed = ParseRawRequest(bytes, &request); !parsed.ok()) {
          return ToGrpcStatus(parsed);
        }
        bytes.Clear();
        Response response;
        grpc::Status status = handler(context, &request, &response);
        if (!status.ok()) return status;
        grpc::ByteBuffer answer;
        if (Status serialized = SerializeRawResponse(response, &answer); !serialized.ok()) {
          return ToGrpcStatus(serialized);
        }
        if (!stream->Write(answer)) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
        return grpc::Status::OK;
      });
}

// A server-streaming method served the same way: `handler(context, request, write)` streams its
// answers through `write` (false once the client went away). handler: grpc::Status(
// grpc::ServerContext*, const Request&, const std::function<bool(const Response&)>&).
template <typename Request, typename Response, typename Handler>
grpc::internal::MethodHandler* AuthorizeBeforeReadStreaming(const auth::Authorizer& authorizer,
                                                           std::string_view method,
                                                           size_t max_request_bytes,
                                                           Handler handler) {
  using Stream = grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;
  return new grpc::internal::TemplatedBidiStreamingHandler<Stream, false>(
      [&authorizer, method, max_request_bytes, handler = std::move(handler)](
          grpc::ServerContext* context, Stream* stream) -> grpc::Status {
        grpc::ByteBuffer bytes;
        grpc::Status read =
            ReadAuthorizedRequest(authorizer, method, max_request_bytes, context, stream, &bytes);
        if (!read.ok()) return read;
        Request request;
        if (Status parsed = ParseRawRequest(bytes, &request); !parsed.ok()) {
          return ToGrpcStatus(parsed);
        }
        bytes.Clear();
        const std::function<bool(const Response&)> write = [stream](const Response& response) {
          grpc::ByteBuffer answer;
          return SerializeRawResponse(response, &answer).ok() && stream->Write(answer);
        };
        return handler(context, request, write);
      });
}

// The same for a service's own method: `(service->*method)(context, request, response)`.
// Use in the service's constructor:
//   MarkMethodStreamed(detail::MethodIndex(kGetJob),
//                      detail::AuthorizeBeforeRead(*authorizer_, kGetJob, this, &Impl::GetJob));
template <typename Service, typename Request, typename Response>
grpc::internal::MethodHandler* AuthorizeBeforeRead(
    const auth::Authorizer& authorizer, std::string_view path, Service* service,
    grpc::Status (Service::*method)(grpc::ServerContext*, const Request*, Response*),
    size_t max_request_bytes = kMaxSmallRequestBytes) {
  return AuthorizeBeforeRead<Request, Response>(
      authorizer, path, max_request_bytes,
      [service, method](grpc::ServerContext* context, const Request* request, Response* response) {
        return (service->*method)(context, request, response);
      });
}

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_AUTHORIZE_BEFORE_READ_H_
