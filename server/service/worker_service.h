// File: server/service/worker_service.h
// WorkerService: shaped by the API, implemented by issue 4 (the worker). Until then every method
// authorizes the caller and answers UNIMPLEMENTED; it never invents data.
#ifndef WARPWATCH_SERVER_SERVICE_WORKER_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_WORKER_SERVICE_H_

#include "server/auth/authorizer.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::server {

// Thread-safe. `authorizer` must outlive the service.
class WorkerServiceImpl final : public v1::WorkerService::Service {
 public:
  explicit WorkerServiceImpl(const auth::Authorizer* authorizer) : authorizer_(authorizer) {}

  grpc::Status Register(grpc::ServerContext* context, const v1::RegisterRequest* request,
                        v1::RegisterResponse* response) override;
  grpc::Status Heartbeat(grpc::ServerContext* context, const v1::HeartbeatRequest* request,
                         v1::HeartbeatResponse* response) override;
  grpc::Status AcquireJob(grpc::ServerContext* context, const v1::AcquireJobRequest* request,
                          v1::AcquireJobResponse* response) override;
  grpc::Status ReportProgress(grpc::ServerContext* context,
                              const v1::ReportProgressRequest* request,
                              v1::ReportProgressResponse* response) override;
  grpc::Status UploadMeasurements(grpc::ServerContext* context,
                                  const v1::UploadMeasurementsRequest* request,
                                  v1::UploadMeasurementsResponse* response) override;
  grpc::Status FinishJob(grpc::ServerContext* context, const v1::FinishJobRequest* request,
                         v1::Job* response) override;

 private:
  grpc::Status NotYet(grpc::ServerContext* context, const char* method);

  const auth::Authorizer* authorizer_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_WORKER_SERVICE_H_
