// File: server/service/worker_service.cc
// WorkerService: Register, Heartbeat, ReportProgress, FinishJob. AcquireJob lives in
// acquire_job.cc, UploadMeasurements in upload_measurements.cc.
#include "server/service/worker_service.h"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "server/logging/logging.h"
#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/fleet_service.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kRegister = "/warpwatch.v1.WorkerService/Register";
constexpr std::string_view kHeartbeat = "/warpwatch.v1.WorkerService/Heartbeat";
constexpr std::string_view kReportProgress = "/warpwatch.v1.WorkerService/ReportProgress";
constexpr std::string_view kFinishJob = "/warpwatch.v1.WorkerService/FinishJob";

double Seconds(std::chrono::milliseconds d) { return static_cast<double>(d.count()) / 1000.0; }

}  // namespace

WorkerCaller WorkerCallerOf(const auth::Principal& principal) {
  return WorkerCaller{principal.name, principal.role == auth::Role::kAdmin};
}

WorkerServiceImpl::WorkerServiceImpl(Database* database, const auth::Authorizer* authorizer,
                                     const ShutdownSignal* shutdown, WorkerServiceOptions options)
    : database_(database),
      authorizer_(authorizer),
      shutdown_(shutdown),
      options_(std::move(options)),
      principal_polls_(options_.max_parked_polls_per_principal, "AcquireJob long-polls",
                       "--max-parked-polls-per-principal"),
      upload_pool_(options_.upload_threads) {
  AuthorizeBeforeReading();
}

grpc::Status WorkerServiceImpl::Register(grpc::ServerContext* context,
                                         const v1::RegisterRequest* request,
                                         v1::RegisterResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kRegister, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateRegister(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(std::string id, store->RegisterWorker(*request, WorkerCallerOf(caller),
                                                               kHeartbeatsBeforeOffline *
                                                                   options_.heartbeat_interval));
        response->set_worker_id(id);
        response->set_heartbeat_interval_seconds(Seconds(options_.heartbeat_interval));
        response->set_lease_seconds(Seconds(options_.lease));
        spdlog::info(
            "msg=\"worker registered\" worker_id={} hostname=\"{}\" version=\"{}\" gpus={} "
            "by={} reregistered={}",
            id, LogEscape(request->hostname()), LogEscape(request->version()),
            request->devices_size(), caller.name, request->worker_id() == id);
        return OkStatus();
      });
}

Status WorkerServiceImpl::CheckCaller(Store& store, const std::string& worker_id,
                                      const auth::Principal& caller) {
  const WorkerCaller who = WorkerCallerOf(caller);
  // An admin passes for any worker: never let that answer serve a non-admin of the same name.
  const std::string key = (who.admin ? "admin:" : "worker:") + who.principal;
  if (caller_cache_.Allowed(worker_id, key)) return OkStatus();
  RETURN_IF_ERROR(store.CheckWorkerCaller(worker_id, who));
  caller_cache_.Remember(worker_id, key);
  return OkStatus();
}

grpc::Status WorkerServiceImpl::Heartbeat(grpc::ServerContext* context,
                                          const v1::HeartbeatRequest* request,
                                          v1::HeartbeatResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kHeartbeat, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateHeartbeat(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        RETURN_IF_ERROR(CheckCaller(*store, request->worker_id(), caller));
        const std::vector<int64_t> runs(request->running_run_ids().begin(),
                                        request->running_run_ids().end());
        ASSIGN_OR_RETURN(LeaseRenewal renewal,
                         store->RecordHeartbeat(request->worker_id(), runs, options_.lease));
        for (int64_t id : renewal.cancel_requested_run_ids) response->add_cancelled_run_ids(id);
        for (int64_t id : renewal.lost_run_ids) response->add_lost_run_ids(id);
        *response->mutable_lease_expiry() = renewal.expiry;
        if (!renewal.lost_run_ids.empty()) {
          spdlog::info("msg=\"worker lost runs\" worker_id={} lost={}", request->worker_id(),
                       renewal.lost_run_ids.size());
        }
        return OkStatus();
      });
}

grpc::Status WorkerServiceImpl::ReportProgress(grpc::ServerContext* context,
                                               const v1::ReportProgressRequest* request,
                                               v1::ReportProgressResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kReportProgress, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateReportProgress(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        RETURN_IF_ERROR(CheckCaller(*store, request->worker_id(), caller));
        ASSIGN_OR_RETURN(bool cancel,
                         store->UpdateProgress(request->worker_id(), request->job_id(),
                                               request->run_id(), request->points_done(),
                                               request->points_total(), request->current_case()));
        response->set_cancel_requested(cancel);
        return OkStatus();
      });
}

grpc::Status WorkerServiceImpl::FinishJob(grpc::ServerContext* context,
                                          const v1::FinishJobRequest* request, v1::Job* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kFinishJob, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateFinishJob(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        RETURN_IF_ERROR(CheckCaller(*store, request->worker_id(), caller));
        ASSIGN_OR_RETURN(
            *response, store->FinishJob(request->worker_id(), request->job_id(), request->run_id(),
                                        request->outcome(), request->error()));
        if (options_.on_finished) options_.on_finished(*response);
        spdlog::info("msg=\"job finished\" job_id={} run_id={} worker_id={} outcome={} state={}",
                     response->id(), request->run_id(), request->worker_id(),
                     v1::JobOutcome_Name(request->outcome()), v1::JobState_Name(response->state()));
        return OkStatus();
      });
}

void WorkerServiceImpl::AuthorizeBeforeReading() {
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.WorkerService/Register"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.WorkerService/Register", this,
                                                 &WorkerServiceImpl::Register));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.WorkerService/Heartbeat"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.WorkerService/Heartbeat", this,
                                                 &WorkerServiceImpl::Heartbeat));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.WorkerService/ReportProgress"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.WorkerService/ReportProgress", this,
                                                 &WorkerServiceImpl::ReportProgress));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.WorkerService/FinishJob"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.WorkerService/FinishJob", this,
                                                 &WorkerServiceImpl::FinishJob));
}

}  // namespace warpwatch::server
