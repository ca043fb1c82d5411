// File: server/service/upload_measurements.cc
// WorkerServiceImpl::UploadMeasurements: checks the batch against the limits, then stores it
// idempotently on (run, case).
#include <vector>

#include "server/service/detail/authorized_call.h"
#include "server/service/worker_service.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kUploadMeasurements = "/warpwatch.v1.WorkerService/UploadMeasurements";

}  // namespace

grpc::Status WorkerServiceImpl::UploadMeasurements(grpc::ServerContext* context,
                                                   const v1::UploadMeasurementsRequest* request,
                                                   v1::UploadMeasurementsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kUploadMeasurements, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateUploadMeasurements(*request, options_.upload));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        RETURN_IF_ERROR(CheckCaller(*store, request->worker_id(), caller));
        const std::vector<v1::Measurement> measurements(request->measurements().begin(),
                                                        request->measurements().end());
        StatusOr<UploadCounts> counts = store->UploadMeasurements(
            request->run_id(), request->worker_id(), request->environment(), measurements);
        if (!counts.ok()) {
          // The store says PERMISSION_DENIED for another worker's run; at the edge that code
          // means "your token may not call this", so answer as for jobs a worker does not hold.
          if (counts.status().code() == StatusCode::kPermissionDenied) {
            return FailedPreconditionError(counts.status().message());
          }
          return counts.status();
        }
        response->set_inserted(counts->inserted);
        response->set_duplicates(counts->duplicates);
        if (options_.on_upload) options_.on_upload(*counts);
        return OkStatus();
      });
}

}  // namespace warpwatch::server
