// File: server/service/result_service.cc
#include "server/service/result_service.h"

#include <spdlog/spdlog.h>

#include <string>
#include <string_view>

#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/detail/raw_unary_call.h"
#include "server/service/result_compare.h"
#include "server/service/result_requests.h"
#include "server/service/result_upload.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kListRuns = "/warpwatch.v1.ResultService/ListRuns";
constexpr std::string_view kQueryMeasurements = "/warpwatch.v1.ResultService/QueryMeasurements";
constexpr std::string_view kGetSeries = "/warpwatch.v1.ResultService/GetSeries";
constexpr std::string_view kCompareRuns = "/warpwatch.v1.ResultService/CompareRuns";
constexpr std::string_view kListRegressions = "/warpwatch.v1.ResultService/ListRegressions";
constexpr std::string_view kUpdateRegression = "/warpwatch.v1.ResultService/UpdateRegression";
constexpr std::string_view kUploadRun = "/warpwatch.v1.ResultService/UploadRun";

}  // namespace

grpc::Status ResultServiceImpl::ListRuns(grpc::ServerContext* context,
                                         const v1::ListRunsRequest* request,
                                         v1::ListRunsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListRuns, [&](const auth::Principal&) -> Status {
        ASSIGN_OR_RETURN(RunFilter filter, ToRunFilter(*request));
        ASSIGN_OR_RETURN(Store * store, database_->HistoryStore());
        ASSIGN_OR_RETURN(RunPage page, store->ListRuns(filter));
        for (v1::Run& run : page.runs) *response->add_runs() = std::move(run);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

grpc::Status ResultServiceImpl::QueryMeasurements(grpc::ServerContext* context,
                                                  const v1::QueryMeasurementsRequest* request,
                                                  v1::QueryMeasurementsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kQueryMeasurements, [&](const auth::Principal&) -> Status {
        ASSIGN_OR_RETURN(MeasurementQuery query, ToMeasurementQuery(*request));
        ASSIGN_OR_RETURN(Store * store, database_->HistoryStore());
        ASSIGN_OR_RETURN(MeasurementPage page, store->QueryMeasurements(query));
        for (v1::Measurement& m : page.measurements) *response->add_measurements() = std::move(m);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

grpc::Status ResultServiceImpl::GetSeries(grpc::ServerContext* context,
                                          const v1::GetSeriesRequest* request,
                                          v1::Series* response) {
  return detail::AuthorizedCall(*authorizer_, *context, kGetSeries,
                                [&](const auth::Principal&) -> Status {
                                  ASSIGN_OR_RETURN(SeriesQuery query, ToSeriesQuery(*request));
                                  ASSIGN_OR_RETURN(Store * store, database_->HistoryStore());
                                  ASSIGN_OR_RETURN(*response, store->GetSeries(query));
                                  return OkStatus();
                                });
}

grpc::Status ResultServiceImpl::CompareRuns(grpc::ServerContext* context,
                                            const v1::CompareRunsRequest* request,
                                            v1::CompareRunsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kCompareRuns, [&](const auth::Principal&) -> Status {
        RETURN_IF_ERROR(ValidateCompareRuns(*request));
        ASSIGN_OR_RETURN(Store * store, database_->HistoryStore());
        ASSIGN_OR_RETURN(v1::Run base, store->GetRun(request->base_run_id()));
        ASSIGN_OR_RETURN(v1::Run new_run, store->GetRun(request->new_run_id()));
        ASSIGN_OR_RETURN(std::vector<v1::Measurement> base_points,
                         store->ListRunMeasurements(base.id()));
        ASSIGN_OR_RETURN(std::vector<v1::Measurement> new_points,
                         store->ListRunMeasurements(new_run.id()));
        ASSIGN_OR_RETURN(*response, CompareStoredRuns(base, base_points, new_run, new_points));
        return OkStatus();
      });
}

grpc::Status ResultServiceImpl::ListRegressions(grpc::ServerContext* context,
                                                const v1::ListRegressionsRequest* request,
                                                v1::ListRegressionsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListRegressions, [&](const auth::Principal&) -> Status {
        ASSIGN_OR_RETURN(RegressionFilter filter, ToRegressionFilter(*request));
        ASSIGN_OR_RETURN(Store * store, database_->HistoryStore());
        ASSIGN_OR_RETURN(RegressionPage page, store->ListRegressions(filter));
        for (v1::Regression& g : page.regressions) *response->add_regressions() = std::move(g);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

grpc::Status ResultServiceImpl::UpdateRegression(grpc::ServerContext* context,
                                                 const v1::UpdateRegressionRequest* request,
                                                 v1::Regression* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kUpdateRegression, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(ValidateUpdateRegression(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(*response, store->UpdateRegression(request->id(), request->state(),
                                                            request->note(), caller.name));
        spdlog::info("msg=\"regression triaged\" id={} state={} by={}", response->id(),
                     v1::RegressionState_Name(response->state()), caller.name);
        return OkStatus();
      });
}

grpc::ServerUnaryReactor* ResultServiceImpl::UploadRun(grpc::CallbackServerContext* context,
                                                       const grpc::ByteBuffer* request_bytes,
                                                       grpc::ByteBuffer* response_bytes) {
  return detail::RawUnaryCall<v1::UploadRunRequest, v1::UploadRunResponse>(
      *authorizer_, upload_pool_, context, kUploadRun, request_bytes, response_bytes,
      [this](const auth::Principal& caller, size_t bytes) -> Status {
        if (bytes <= kMaxUploadRunRequestBytes) return upload_rate_.Admit(caller.name);
        return ResourceExhaustedError(
            "request of " + std::to_string(bytes) + " bytes, more than the limit of " +
            std::to_string(kMaxUploadRunRequestBytes) + " (a run file of at most " +
            std::to_string(kMaxUploadRunBytes) + " bytes)");
      },
      [this](const auth::Principal& caller, const v1::UploadRunRequest& request,
             v1::UploadRunResponse* response) -> Status {
        // An upload forms its uploader's own history; only an admin puts one in the fleet's.
        if (request.fleet_history() && caller.role != auth::Role::kAdmin) {
          return PermissionDeniedError(
              "fleet_history: only an admin puts an upload in the fleet's history of a device; "
              "without it the run is a baseline for your own later uploads of the device");
        }
        ASSIGN_OR_RETURN(ParsedUpload upload, ParseUploadRun(request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(UploadedRun stored,
                         store->StoreUploadedRun(upload.result, upload.content_sha256,
                                                 Uploader{caller.name, request.fleet_history()}));
        *response->mutable_run() = std::move(stored.run);
        response->set_created(stored.created);
        response->set_measurements_stored(stored.measurements_stored);
        spdlog::info(
            "msg=\"run uploaded\" run_id={} created={} measurements={} by={} fleet_history={} "
            "sha256={}",
            response->run().id(), stored.created, stored.measurements_stored, caller.name,
            response->run().fleet_history(), upload.content_sha256);
        return OkStatus();
      });
}

void ResultServiceImpl::AuthorizeBeforeReading() {
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/ListRuns"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/ListRuns", this,
                                                 &ResultServiceImpl::ListRuns));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/QueryMeasurements"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/QueryMeasurements", this,
                                                 &ResultServiceImpl::QueryMeasurements));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/GetSeries"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/GetSeries", this,
                                                 &ResultServiceImpl::GetSeries));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/CompareRuns"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/CompareRuns", this,
                                                 &ResultServiceImpl::CompareRuns));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/ListRegressions"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/ListRegressions", this,
                                                 &ResultServiceImpl::ListRegressions));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/UpdateRegression"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/UpdateRegression", this,
                                                 &ResultServiceImpl::UpdateRegression));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/PinBaseline"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/PinBaseline", this,
                                                 &ResultServiceImpl::PinBaseline));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/UnpinBaseline"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/UnpinBaseline", this,
                                                 &ResultServiceImpl::UnpinBaseline));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ResultService/ListBaselines"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ResultService/ListBaselines", this,
                                                 &ResultServiceImpl::ListBaselines));
}

}  // namespace warpwatch::server
