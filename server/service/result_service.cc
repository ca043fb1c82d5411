// File: server/service/result_service.cc
#include "server/service/result_service.h"

#include <string>

#include "server/service/detail/authorized_call.h"

namespace warpwatch::server {

grpc::Status ResultServiceImpl::NotYet(grpc::ServerContext* context, const char* method) {
  const std::string path = std::string("/warpwatch.v1.ResultService/") + method;
  return detail::AuthorizedCall(*authorizer_, *context, path, [&](const auth::Principal&) {
    return UnimplementedError(std::string("ResultService.") + method +
                              " is not implemented yet (results and regressions land with "
                              "issue 4 and later)");
  });
}

grpc::Status ResultServiceImpl::ListRuns(grpc::ServerContext* context, const v1::ListRunsRequest*,
                                         v1::ListRunsResponse*) {
  return NotYet(context, "ListRuns");
}
grpc::Status ResultServiceImpl::QueryMeasurements(grpc::ServerContext* context,
                                                  const v1::QueryMeasurementsRequest*,
                                                  v1::QueryMeasurementsResponse*) {
  return NotYet(context, "QueryMeasurements");
}
grpc::Status ResultServiceImpl::GetSeries(grpc::ServerContext* context, const v1::GetSeriesRequest*,
                                          v1::Series*) {
  return NotYet(context, "GetSeries");
}
grpc::Status ResultServiceImpl::CompareRuns(grpc::ServerContext* context,
                                            const v1::CompareRunsRequest*,
                                            v1::CompareRunsResponse*) {
  return NotYet(context, "CompareRuns");
}
grpc::Status ResultServiceImpl::ListRegressions(grpc::ServerContext* context,
                                                const v1::ListRegressionsRequest*,
                                                v1::ListRegressionsResponse*) {
  return NotYet(context, "ListRegressions");
}
grpc::Status ResultServiceImpl::UpdateRegression(grpc::ServerContext* context,
                                                 const v1::UpdateRegressionRequest*,
                                                 v1::Regression*) {
  return NotYet(context, "UpdateRegression");
}

}  // namespace warpwatch::server
