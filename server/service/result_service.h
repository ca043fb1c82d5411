// File: server/service/result_service.h
// ResultService: what the fleet measured (runs, measurements, series with their change points and
// regressions, two runs compared), regression triage, runs uploaded from offline nodes, and pinned
// baselines.
// Readers query; submitters and admins triage and upload (server/auth/role.cc). The caller's
// identity recorded with a triage is its credential's principal, never a request field.
#ifndef WARPWATCH_SERVER_SERVICE_RESULT_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_RESULT_SERVICE_H_

#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "server/service/detail/call_pool.h"
#include "server/service/detail/principal_rate.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::server {

// Thread-safe. `database` and `authorizer` must outlive the service. ListRuns,
// QueryMeasurements, GetSeries, CompareRuns and ListRegressions read Database::HistoryStore()
// (a read replica when configured and fit); every other method, the primary. UploadRun is served raw
// (detail/raw_unary_call.h): authorized and size-checked before it is parsed, then parsed and
// stored on upload_pool_ (`upload_threads` at a time). One principal makes at most
// `uploads_per_minute` UploadRun calls in any minute (--max-uploads-per-minute; RESOURCE_EXHAUSTED,
// checked before the request is parsed).
class ResultServiceImpl final
    : public v1::ResultService::WithRawCallbackMethod_UploadRun<v1::ResultService::Service> {
 public:
  ResultServiceImpl(Database* database, const auth::Authorizer* authorizer,
                    int uploads_per_minute = 30, int upload_threads = 2)
      : database_(database),
        authorizer_(authorizer),
        upload_rate_(uploads_per_minute, "UploadRun calls", "--max-uploads-per-minute"),
        upload_pool_(upload_threads) {
    AuthorizeBeforeReading();
  }

  grpc::Status ListRuns(grpc::ServerContext* context, const v1::ListRunsRequest* request,
                        v1::ListRunsResponse* response) override;
  grpc::Status QueryMeasurements(grpc::ServerContext* context,
                                 const v1::QueryMeasurementsRequest* request,
                                 v1::QueryMeasurementsResponse* response) override;
  grpc::Status GetSeries(grpc::ServerContext* context, const v1::GetSeriesRequest* request,
                         v1::Series* response) override;
  // NOT_FOUND naming the run when either run does not exist.
  grpc::Status CompareRuns(grpc::ServerContext* context, const v1::CompareRunsRequest* request,
                           v1::CompareRunsResponse* response) override;
  grpc::Status ListRegressions(grpc::ServerContext* context,
                               const v1::ListRegressionsRequest* request,
                               v1::ListRegressionsResponse* response) override;
  grpc::Status UpdateRegression(grpc::ServerContext* context,
                                const v1::UpdateRegressionRequest* request,
                                v1::Regression* response) override;
  // RESOURCE_EXHAUSTED naming the limit for a request over kMaxUploadRunBytes plus its envelope,
  // before it is parsed; INVALID_ARGUMENT from ParseUploadRun for a file that is not a run.
  grpc::ServerUnaryReactor* UploadRun(grpc::CallbackServerContext* context,
                                      const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;

  // Pinned baselines (result_baselines.cc). PinBaseline: NOT_FOUND for an unknown run,
  // FAILED_PRECONDITION naming a run that did not succeed, did not measure the series or has no
  // good point of it (Store::PinBaseline); pinned_by = the caller's principal.
  grpc::Status PinBaseline(grpc::ServerContext* context, const v1::PinBaselineRequest* request,
                           v1::BaselinePin* response) override;
  // NOT_FOUND for an unknown pin; returns the pin removed.
  grpc::Status UnpinBaseline(grpc::ServerContext* context, const v1::UnpinBaselineRequest* request,
                             v1::BaselinePin* response) override;
  grpc::Status ListBaselines(grpc::ServerContext* context, const v1::ListBaselinesRequest* request,
                             v1::ListBaselinesResponse* response) override;

 private:
  // Serves every synchronous unary method through detail::AuthorizeBeforeRead (the caller is
  // authorized before its request is read); called once by the constructor.
  void AuthorizeBeforeReading();
  Database* database_;
  const auth::Authorizer* authorizer_;
  detail::PrincipalRate upload_rate_;
  detail::CallPool upload_pool_;  // last: drains before the members its tasks use go
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_RESULT_SERVICE_H_
