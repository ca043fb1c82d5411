// File: server/service/grpc_status.h
// warpwatch::Status -> grpc::Status at the RPC edge. The codes are numerically identical.
#ifndef WARPWATCH_SERVER_SERVICE_GRPC_STATUS_H_
#define WARPWATCH_SERVER_SERVICE_GRPC_STATUS_H_

#include <grpcpp/support/status.h>

#include "common/status/status.h"

namespace warpwatch::server {

grpc::Status ToGrpcStatus(const Status& status);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_GRPC_STATUS_H_
