// File: server/service/worker_service.cc
#include "server/service/worker_service.h"

#include <string>

#include "server/service/detail/authorized_call.h"

namespace warpwatch::server {

grpc::Status WorkerServiceImpl::NotYet(grpc::ServerContext* context, const char* method) {
  const std::string path = std::string("/warpwatch.v1.WorkerService/") + method;
  return detail::AuthorizedCall(*authorizer_, *context, path, [&](const auth::Principal&) {
    return UnimplementedError(std::string("WorkerService.") + method +
                              " is not implemented yet (issue 4: the worker)");
  });
}

grpc::Status WorkerServiceImpl::Register(grpc::ServerContext* context,
                                         const v1::RegisterRequest*, v1::RegisterResponse*) {
  return NotYet(context, "Register");
}
grpc::Status WorkerServiceImpl::Heartbeat(grpc::ServerContext* context,
                                          const v1::HeartbeatRequest*, v1::HeartbeatResponse*) {
  return NotYet(context, "Heartbeat");
}
grpc::Status WorkerServiceImpl::AcquireJob(grpc::ServerContext* context,
                                           const v1::AcquireJobRequest*,
                                           v1::AcquireJobResponse*) {
  return NotYet(context, "AcquireJob");
}
grpc::Status WorkerServiceImpl::ReportProgress(grpc::ServerContext* context,
                                               const v1::ReportProgressRequest*,
                                               v1::ReportProgressResponse*) {
  return NotYet(context, "ReportProgress");
}
grpc::Status WorkerServiceImpl::UploadMeasurements(grpc::ServerContext* context,
                                                   const v1::UploadMeasurementsRequest*,
                                                   v1::UploadMeasurementsResponse*) {
  return NotYet(context, "UploadMeasurements");
}
grpc::Status WorkerServiceImpl::FinishJob(grpc::ServerContext* context,
                                          const v1::FinishJobRequest*, v1::Job*) {
  return NotYet(context, "FinishJob");
}

}  // namespace warpwatch::server
