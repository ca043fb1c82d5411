// File: server/service/job_service.cc
#include "server/service/job_service.h"

#include <spdlog/spdlog.h>

#include "server/auth/ownership.h"
#include "server/logging/logging.h"
#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"
#include "server/validation/request_validator.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kSubmitJob = "/warpwatch.v1.JobService/SubmitJob";
constexpr std::string_view kGetJob = "/warpwatch.v1.JobService/GetJob";
constexpr std::string_view kListJobs = "/warpwatch.v1.JobService/ListJobs";
constexpr std::string_view kCancelJob = "/warpwatch.v1.JobService/CancelJob";

JobFilter ToFilter(const v1::ListJobsRequest& request) {
  JobFilter filter;
  for (int state : request.states()) filter.states.push_back(static_cast<v1::JobState>(state));
  filter.labels.insert(request.labels().begin(), request.labels().end());
  filter.gpu_model = request.gpu_model();
  filter.gpu_uuid = request.gpu_uuid();
  filter.created = request.created();
  filter.page_size = request.page_size();
  filter.page_token = request.page_token();
  return filter;
}

}  // namespace

bool IsFinalJobState(v1::JobState state) {
  return state == v1::JOB_STATE_SUCCEEDED || state == v1::JOB_STATE_FAILED ||
         state == v1::JOB_STATE_CANCELLED;
}

JobServiceImpl::JobServiceImpl(Database* database, const auth::Authorizer* authorizer,
                               const ShutdownSignal* shutdown, JobServiceOptions options)
    : database_(database),
      authorizer_(authorizer),
      shutdown_(shutdown),
      options_(options),
      principal_watches_(options.max_watches_per_principal, "WatchJob streams",
                         "--max-watch-streams-per-principal") {
  AuthorizeBeforeReading();
}

grpc::Status JobServiceImpl::SubmitJob(grpc::ServerContext* context,
                                       const v1::SubmitJobRequest* request, v1::Job* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kSubmitJob, [&](const auth::Principal& caller) -> Status {
        ASSIGN_OR_RETURN(int64_t points_total,
                         validation::ValidateSubmitJob(*request, options_.limits));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(*response, store->EnqueueJob(request->spec(), points_total, caller.name,
                                                      request->request_id()));
        spdlog::info(
            "msg=\"job submitted\" job_id={} points_total={} submitted_by={} priority={} "
            "request_id=\"{}\"",
            response->id(), points_total, caller.name, request->spec().priority(),
            LogEscape(request->request_id()));
        return OkStatus();
      });
}

grpc::Status JobServiceImpl::GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request,
                                    v1::Job* response) {
  return detail::AuthorizedCall(*authorizer_, *context, kGetJob,
                                [&](const auth::Principal&) -> Status {
                                  RETURN_IF_ERROR(validation::ValidateGetJob(*request));
                                  ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
                                  ASSIGN_OR_RETURN(*response, store->GetJob(request->job_id()));
                                  return OkStatus();
                                });
}

grpc::Status JobServiceImpl::ListJobs(grpc::ServerContext* context,
                                      const v1::ListJobsRequest* request,
                                      v1::ListJobsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListJobs, [&](const auth::Principal&) -> Status {
        RETURN_IF_ERROR(validation::ValidateListJobs(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(JobPage page, store->ListJobs(ToFilter(*request)));
        for (v1::Job& job : page.jobs) *response->add_jobs() = std::move(job);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

grpc::Status JobServiceImpl::CancelJob(grpc::ServerContext* context,
                                       const v1::CancelJobRequest* request, v1::Job* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kCancelJob, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(validation::ValidateCancelJob(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        // Job ids are never reused and submitted_by never changes, so reading it first decides
        // for the job the cancel then acts on.
        ASSIGN_OR_RETURN(const v1::Job job, store->GetJob(request->job_id()));
        RETURN_IF_ERROR(auth::CheckCreator(caller, job.submitted_by(),
                                           "job " + std::to_string(job.id())));
        const std::string reason =
            request->reason().empty() ? "cancelled by " + caller.name : request->reason();
        ASSIGN_OR_RETURN(*response, store->CancelJob(request->job_id(), reason));
        spdlog::info("msg=\"job cancel\" job_id={} by={} state={}", response->id(), caller.name,
                     v1::JobState_Name(response->state()));
        return OkStatus();
      });
}

void JobServiceImpl::AuthorizeBeforeReading() {
  MarkMethodStreamed(
      detail::MethodIndex("/warpwatch.v1.JobService/WatchJob"),
      detail::AuthorizeBeforeReadStreaming<v1::GetJobRequest, v1::JobEvent>(
          *authorizer_, "/warpwatch.v1.JobService/WatchJob", detail::kMaxSmallRequestBytes,
          [this](grpc::ServerContext* context, const v1::GetJobRequest& request,
                 const std::function<bool(const v1::JobEvent&)>& write) {
            return ServeWatchJob(context, request, write);
          }));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.JobService/SubmitJob"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.JobService/SubmitJob", this,
                                                 &JobServiceImpl::SubmitJob));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.JobService/GetJob"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.JobService/GetJob", this,
                                                 &JobServiceImpl::GetJob));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.JobService/ListJobs"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.JobService/ListJobs", this,
                                                 &JobServiceImpl::ListJobs));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.JobService/CancelJob"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.JobService/CancelJob", this,
                                                 &JobServiceImpl::CancelJob));
}

}  // namespace warpwatch::server
