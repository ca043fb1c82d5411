// File: server/service/result_service.h
// ResultService: shaped by the API, implemented by a later issue (results and regressions). Until
// then every method authorizes the caller and answers UNIMPLEMENTED; it never invents data.
#ifndef WARPWATCH_SERVER_SERVICE_RESULT_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_RESULT_SERVICE_H_

#include "server/auth/authorizer.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::server {

// Thread-safe. `authorizer` must outlive the service.
class ResultServiceImpl final : public v1::ResultService::Service {
 public:
  explicit ResultServiceImpl(const auth::Authorizer* authorizer) : authorizer_(authorizer) {}

  grpc::Status ListRuns(grpc::ServerContext* context, const v1::ListRunsRequest* request,
                        v1::ListRunsResponse* response) override;
  grpc::Status QueryMeasurements(grpc::ServerContext* context,
                                 const v1::QueryMeasurementsRequest* request,
                                 v1::QueryMeasurementsResponse* response) override;
  grpc::Status GetSeries(grpc::ServerContext* context, const v1::GetSeriesRequest* request,
                         v1::Series* response) override;
  grpc::Status CompareRuns(grpc::ServerContext* context, const v1::CompareRunsRequest* request,
                           v1::CompareRunsResponse* response) override;
  grpc::Status ListRegressions(grpc::ServerContext* context,
                               const v1::ListRegressionsRequest* request,
                               v1::ListRegressionsResponse* response) override;
  grpc::Status UpdateRegression(grpc::ServerContext* context,
                                const v1::UpdateRegressionRequest* request,
                                v1::Regression* response) override;

 private:
  grpc::Status NotYet(grpc::ServerContext* context, const char* method);

  const auth::Authorizer* authorizer_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_RESULT_SERVICE_H_
