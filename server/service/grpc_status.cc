// File: server/service/grpc_status.cc
#include "server/service/grpc_status.h"

namespace warpwatch::server {

static_assert(static_cast<int>(StatusCode::kUnauthenticated) ==
                  static_cast<int>(grpc::StatusCode::UNAUTHENTICATED),
              "warpwatch and gRPC status codes must stay numerically identical");
static_assert(static_cast<int>(StatusCode::kInvalidArgument) ==
              static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));

grpc::Status ToGrpcStatus(const Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(static_cast<int>(status.code())),
                      status.message());
}

}  // namespace warpwatch::server
