// File: server/service/acquire_job.cc
// WorkerServiceImpl::AcquireJob: the long-poll. Claims at once, or sleeps on the store's job
// notifier (PostgreSQL LISTEN/NOTIFY) and claims again on each wake-up, so a matching submit is
// handed out within milliseconds; no query runs while nothing happens.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "server/logging/logging.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/worker_service.h"

namespace warpwatch::server {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::string_view kAcquireJob = "/warpwatch.v1.WorkerService/AcquireJob";
// Longest single sleep on the notifier: bounds how late a shutdown or a client that went away is
// noticed. Notifications themselves wake the sleep at once.
constexpr milliseconds kWakeSlice{100};

// When the wait must end: min(wait_seconds, cap, call deadline - margin), as a steady time.
Clock::time_point WaitEnd(const grpc::ServerContext& context, double wait_seconds, milliseconds cap,
                          milliseconds margin) {
  const Clock::time_point now = Clock::now();
  milliseconds wait =
      std::min(cap, milliseconds(static_cast<int64_t>(std::min(wait_seconds, 1e6) * 1000)));
  const auto deadline = context.deadline();
  const auto system_now = std::chrono::system_clock::now();
  if (deadline < system_now + std::chrono::hours(24 * 365)) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - system_now) - margin;
    wait = std::min(wait, std::max(left, milliseconds(0)));
  }
  return now + wait;
}

}  // namespace

grpc::Status WorkerServiceImpl::AcquireJob(grpc::ServerContext* context,
                                           const v1::AcquireJobRequest* request,
                                           v1::AcquireJobResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kAcquireJob, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateAcquireJob(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        RETURN_IF_ERROR(store->CheckWorkerCaller(request->worker_id(), WorkerCallerOf(caller)));
        return Acquire(context, *request, response);
      });
}

Status WorkerServiceImpl::Acquire(grpc::ServerContext* context,
                                  const v1::AcquireJobRequest& request,
                                  v1::AcquireJobResponse* response) {
  ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
  JobNotifier& notifier = store->job_notifier();
  const Clock::time_point end = WaitEnd(*context, request.wait_seconds(), options_.max_acquire_wait,
                                        options_.deadline_margin);
  while (true) {
    // Read the generation before claiming: a job queued after the claim's snapshot advances it,
    // so the wait below returns at once instead of missing that job.
    const uint64_t seen = notifier.Generation();
    ASSIGN_OR_RETURN(std::optional<Lease> lease,
                     store->ClaimJob(request.worker_id(), request.device_uuid(), options_.lease));
    if (lease.has_value() && context->IsCancelled()) {
      // The worker gave up on this poll (shutting down) while the claim ran: hand the job back
      // now rather than leaving it leased to nobody until the lease expires.
      auto released = store->FinishJob(request.worker_id(), lease->job.id(), lease->run_id,
                                       v1::JOB_OUTCOME_RELEASED, "");
      if (!released.ok()) {
        spdlog::warn(
            "msg=\"could not release a job claimed by a cancelled poll\" job_id={} error=\"{}\"",
            lease->job.id(), released.status().ToString());
      }
      return Status(StatusCode::kCancelled, "client went away during the long-poll");
    }
    if (lease.has_value()) {
      if (options_.on_claimed) options_.on_claimed(lease->job);
      response->set_run_id(lease->run_id);
      *response->mutable_lease_expiry() = lease->expiry;
      *response->mutable_job() = std::move(lease->job);
      spdlog::info("msg=\"job leased\" job_id={} run_id={} worker_id={} device=\"{}\" attempt={}",
                   response->job().id(), response->run_id(), request.worker_id(),
                   LogEscape(request.device_uuid()), response->job().attempts());
      return OkStatus();
    }
    // Nothing claimable: sleep until a notification, the end of the wait, a shutdown or the
    // client going away.
    while (true) {
      if (shutdown_->raised()) return OkStatus();  // empty: the worker polls again elsewhere
      if (context->IsCancelled()) {
        return Status(StatusCode::kCancelled, "client went away during the long-poll");
      }
      const auto left = std::chrono::duration_cast<milliseconds>(end - Clock::now());
      if (left <= milliseconds(0)) return OkStatus();  // the wait ended: empty response
      if (notifier.WaitForJob(seen, std::min(left, kWakeSlice))) break;  // claim again
    }
  }
}

}  // namespace warpwatch::server
