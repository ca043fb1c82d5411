// File: server/service/detail/authorize_before_read.cc
#include "server/service/detail/authorize_before_read.h"

#include <google/protobuf/descriptor.h>

#include <cstdio>
#include <cstdlib>

namespace warpwatch::server::detail {

int MethodIndex(std::string_view path) {
  // "/package.Service/Method"
  const size_t slash = path.rfind('/');
  const google::protobuf::MethodDescriptor* found = nullptr;
  if (path.size() > 1 && path[0] == '/' && slash != std::string_view::npos && slash > 0) {
    const google::protobuf::ServiceDescriptor* service =
        google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
            std::string(path.substr(1, slash - 1)));
    if (service != nullptr) found = service->FindMethodByName(std::string(path.substr(slash + 1)));
  }
  if (found == nullptr) {
    std::fprintf(stderr, "warpwatch-server: no method %.*s in the protos\n",
                 static_cast<int>(path.size()), path.data());
    std::abort();
  }
  return found->index();
}

grpc::Status ReadAuthorizedRequest(
    const auth::Authorizer& authorizer, std::string_view method, size_t max_request_bytes,
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>* stream,
    grpc::ByteBuffer* request) {
  StatusOr<auth::Principal> principal = authorizer.Authorize(*context, method);
  if (!principal.ok()) {
    LogCallFailure(method, *context, "-", principal.status());
    return ToGrpcStatus(principal.status());
  }
  if (!stream->Read(request)) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "no request message");
  }
  if (request->Length() > max_request_bytes) {
    const Status refused = ResourceExhaustedError(
        "request of " + std::to_string(request->Length()) + " bytes, more than the limit of " +
        std::to_string(max_request_bytes) + " for " + std::string(method));
    LogCallFailure(method, *context, principal->name, refused);
    return ToGrpcStatus(refused);
  }
  return grpc::Status::OK;
}

}  // namespace warpwatch::server::detail
