// File: server/service/detail/authorized_call.cc
#include "server/service/detail/authorized_call.h"

#include <spdlog/spdlog.h>

#include "server/logging/logging.h"

namespace warpwatch::server::detail {

void LogCallFailure(std::string_view method, const grpc::ServerContextBase& context,
                    const std::string& principal, const Status& status) {
  bool server_side = false;
  switch (status.code()) {
    case StatusCode::kInternal:
    case StatusCode::kUnknown:
    case StatusCode::kDataLoss:
    case StatusCode::kUnavailable:
    case StatusCode::kAborted:
      server_side = true;
      break;
    default:
      break;
  }
  const spdlog::level::level_enum level = server_side ? spdlog::level::warn : spdlog::level::debug;
  spdlog::log(level, "msg=\"rpc failed\" method={} peer={} principal={} code={} error=\"{}\"",
              method, context.peer(), principal, StatusCodeName(status.code()),
              LogEscape(status.message()));
}

}  // namespace warpwatch::server::detail
