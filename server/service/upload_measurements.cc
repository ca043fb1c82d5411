// File: server/service/upload_measurements.cc
// WorkerServiceImpl::UploadMeasurements: served raw, so the caller and the request's size are
// checked before it is parsed; then the batch is checked against the limits and stored
// idempotently on (run, case).
#include <string>
#include <vector>

#include "server/service/detail/raw_unary_call.h"
#include "server/service/worker_service.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kUploadMeasurements = "/warpwatch.v1.WorkerService/UploadMeasurements";

}  // namespace

grpc::ServerUnaryReactor* WorkerServiceImpl::UploadMeasurements(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request_bytes,
    grpc::ByteBuffer* response_bytes) {
  const int64_t max_bytes = options_.upload.max_bytes;
  return detail::RawUnaryCall<v1::UploadMeasurementsRequest, v1::UploadMeasurementsResponse>(
      *authorizer_, upload_pool_, context, kUploadMeasurements, request_bytes, response_bytes,
      [max_bytes](const auth::Principal&, size_t bytes) -> Status {
        // The same answer ValidateUploadMeasurements gives a parsed request of that size.
        if (static_cast<int64_t>(bytes) <= max_bytes) return OkStatus();
        return ResourceExhaustedError("request of " + std::to_string(bytes) +
                                      " bytes, more than --max-upload-bytes " +
                                      std::to_string(max_bytes) + "; split the batch");
      },
      [this](const auth::Principal& caller, const v1::UploadMeasurementsRequest& request,
             v1::UploadMeasurementsResponse* response) -> Status {
        RETURN_IF_ERROR(detail::ValidateUploadMeasurements(request, options_.upload));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        RETURN_IF_ERROR(CheckCaller(*store, request.worker_id(), caller));
        const std::vector<v1::Measurement> measurements(request.measurements().begin(),
                                                        request.measurements().end());
        StatusOr<UploadCounts> counts = store->UploadMeasurements(
            request.run_id(), request.worker_id(), request.environment(), measurements);
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
