// File: server/service/detail/authorized_call.cc
#include "server/service/detail/authorized_call.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <random>

#include "server/logging/logging.h"

namespace warpwatch::server::detail {

bool HidesDetail(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInternal:
    case StatusCode::kUnknown:
    case StatusCode::kDataLoss:
    case StatusCode::kUnavailable:
    case StatusCode::kAborted:
    case StatusCode::kDeadlineExceeded:
      return true;
    default:
      return false;
  }
}

std::string NewRequestId() {
  thread_local std::mt19937_64 random(std::random_device{}());
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(random()));
  return text;
}

Status ClientStatus(const Status& status, const std::string& request_id) {
  if (!HidesDetail(status)) return status;
  std::string what;
  switch (status.code()) {
    case StatusCode::kUnavailable:
      what = "unavailable: the database did not answer or the server is stopping; retry later";
      break;
    case StatusCode::kAborted:
      what = "aborted: a concurrent change conflicted with this one; retry";
      break;
    case StatusCode::kDeadlineExceeded:
      what = "the database took too long; retry later or ask for less";
      break;
    default:
      what = "internal error";
      break;
  }
  return Status(status.code(), what + " (request id " + request_id +
                                   "); the server log has the details under that id");
}

void LogCallFailure(std::string_view method, const grpc::ServerContextBase& context,
                    const std::string& principal, const Status& status,
                    const std::string& request_id) {
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
  spdlog::log(level,
              "msg=\"rpc failed\" method={} peer={} principal={} code={} request_id={} "
              "error=\"{}\"",
              method, context.peer(), principal, StatusCodeName(status.code()),
              request_id.empty() ? "-" : request_id, LogEscape(status.message()));
}

grpc::Status FailedCallStatus(std::string_view method, const grpc::ServerContextBase& context,
                              const std::string& principal, const Status& status) {
  // The full message goes to the log only; the client gets what it may see, with an id to quote.
  const std::string request_id = HidesDetail(status) ? NewRequestId() : std::string();
  LogCallFailure(method, context, principal, status, request_id);
  return ToGrpcStatus(ClientStatus(status, request_id));
}

}  // namespace warpwatch::server::detail
