// File: server/service/watch_job.cc
// JobServiceImpl::WatchJob: polls the store and streams each change of the job.
#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "server/service/detail/authorized_call.h"
#include "server/service/job_service.h"
#include "server/validation/request_validator.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kWatchJob = "/warpwatch.v1.JobService/WatchJob";

}  // namespace

grpc::Status JobServiceImpl::ServeWatchJob(grpc::ServerContext* context,
                                           const v1::GetJobRequest& request,
                                           const std::function<bool(const v1::JobEvent&)>& write) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kWatchJob, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(validation::ValidateGetJob(request));
        ASSIGN_OR_RETURN(detail::PrincipalSlots::Slot slot,
                         principal_watches_.Acquire(caller.name));
        if (open_watches_.fetch_add(1) >= options_.max_watches) {
          open_watches_.fetch_sub(1);
          return ResourceExhaustedError(std::to_string(options_.max_watches) +
                                        " WatchJob streams are open, the server's limit "
                                        "(--max-watch-streams); poll GetJob or watch later");
        }
        const Status status = Watch(context, request.job_id(), write);
        open_watches_.fetch_sub(1);
        return status;
      });
}

Status JobServiceImpl::Watch(grpc::ServerContext* context, int64_t job_id,
                             const std::function<bool(const v1::JobEvent&)>& write) {
  std::optional<v1::Job> last;
  const auto end = std::chrono::steady_clock::now() + options_.max_watch;
  while (true) {
    if (context->IsCancelled()) return Status(StatusCode::kCancelled, "client went away");
    if (std::chrono::steady_clock::now() >= end) {
      return ResourceExhaustedError(
          "WatchJob stream open for " +
          std::to_string(std::chrono::duration_cast<std::chrono::seconds>(options_.max_watch)
                             .count()) +
          " s, the server's limit (--max-watch-seconds); watch the job again");
    }
    ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
    ASSIGN_OR_RETURN(v1::Job job, store->GetJob(job_id));
    if (!last || !google::protobuf::util::MessageDifferencer::Equals(*last, job)) {
      v1::JobEvent event;
      *event.mutable_job() = job;
      *event.mutable_at() = google::protobuf::util::TimeUtil::GetCurrentTime();
      if (!write(event)) return Status(StatusCode::kCancelled, "client went away");
      last = std::move(job);
    }
    if (IsFinalJobState(last->state())) return OkStatus();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    if (shutdown_->WaitFor(std::max(std::chrono::milliseconds(1),
                                    std::min(options_.watch_poll, left)))) {
      return UnavailableError("server shutting down; watch the job again");
    }
  }
}

}  // namespace warpwatch::server
