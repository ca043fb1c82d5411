// File: server/service/acquire_job.cc
// WorkerServiceImpl::AcquireJob: the long-poll. The handler authorizes and validates, then hands
// the call to detail::AcquireParking (gRPC's callback API, no thread held): its arrival thread
// checks the caller and claims at once, or parks the call until the store's job notifier
// (PostgreSQL LISTEN/NOTIFY) wakes the parking thread, which claims again, so a matching submit
// is handed out within milliseconds; no query runs while nothing happens, and none on gRPC's
// callback threads.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <optional>

#include "server/logging/logging.h"
#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/detail/raw_unary_call.h"
#include "server/service/worker_service.h"

namespace warpwatch::server {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::string_view kAcquireJob = "/warpwatch.v1.WorkerService/AcquireJob";

// When the wait must end: min(wait_seconds, cap, call deadline - margin), as a steady time.
Clock::time_point WaitEnd(const grpc::ServerContextBase& context, double wait_seconds,
                          milliseconds cap, milliseconds margin) {
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

grpc::ServerUnaryReactor* WorkerServiceImpl::AcquireJob(grpc::CallbackServerContext* context,
                                                        const grpc::ByteBuffer* request_bytes,
                                                        grpc::ByteBuffer* response_bytes) {
  auto* reactor = new detail::AcquireReactor(response_bytes);
  const v1::AcquireJobRequest* request = &reactor->request;
  detail::ParkedPoll poll;
  poll.reactor = reactor;
  poll.context = context;
  poll.request = request;
  poll.response = &reactor->response;
  bool admitted = false;
  const grpc::Status status = detail::AuthorizedCall(
      *authorizer_, *context, kAcquireJob, [&](const auth::Principal& caller) -> Status {
        // Served raw: the request is parsed only once its caller is authorized (issue 23).
        if (request_bytes->Length() > detail::kMaxSmallRequestBytes) {
          return ResourceExhaustedError("request of " + std::to_string(request_bytes->Length()) +
                                        " bytes, more than the limit of " +
                                        std::to_string(detail::kMaxSmallRequestBytes));
        }
        RETURN_IF_ERROR(detail::ParseRawRequest(*request_bytes, &reactor->request));
        RETURN_IF_ERROR(detail::ValidateAcquireJob(*request));
        RETURN_IF_ERROR(database_->ReadyStore().status());  // no query: the schema flag
        ASSIGN_OR_RETURN(poll.slot, principal_polls_.Acquire(caller.name));
        poll.caller = caller;
        poll.principal = caller.name;
        poll.end = WaitEnd(*context, request->wait_seconds(), options_.max_acquire_wait,
                           options_.deadline_margin);
        admitted = true;
        return OkStatus();
      });
  if (admitted) {
    Parking().Arrive(std::move(poll));
  } else {
    reactor->Answer(status);
  }
  return reactor;
}

StatusOr<bool> WorkerServiceImpl::Admit(detail::ParkedPoll& poll) {
  ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
  RETURN_IF_ERROR(CheckCaller(*store, poll.request->worker_id(), poll.caller));
  // Read the generation before claiming: a job queued after the claim's snapshot advances it, so
  // the parked poll claims again instead of missing that job.
  poll.seen = store->job_notifier().Generation();
  // Parked next when nothing was leased: what the parking thread matches notifications against,
  // read by the claim itself.
  Claimant claimant;
  ASSIGN_OR_RETURN(bool leased, Claim(poll, &claimant));
  if (!leased) poll.claimant = std::move(claimant);
  return leased;
}

StatusOr<bool> WorkerServiceImpl::Claim(const detail::ParkedPoll& poll, Claimant* claimant) {
  const v1::AcquireJobRequest& request = *poll.request;
  ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
  ASSIGN_OR_RETURN(std::optional<Lease> lease,
                   store->ClaimJob(request.worker_id(), request.device_uuid(), options_.lease,
                                   claimant));
  if (!lease.has_value()) return false;
  if (poll.reactor->cancelled()) {
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
  if (options_.on_claimed) options_.on_claimed(lease->job);
  v1::AcquireJobResponse* response = poll.response;
  response->set_run_id(lease->run_id);
  *response->mutable_lease_expiry() = lease->expiry;
  *response->mutable_job() = std::move(lease->job);
  spdlog::info("msg=\"job leased\" job_id={} run_id={} worker_id={} device=\"{}\" attempt={}",
               response->job().id(), response->run_id(), request.worker_id(),
               LogEscape(request.device_uuid()), response->job().attempts());
  return true;
}

detail::AcquireParking& WorkerServiceImpl::Parking() {
  std::call_once(parking_once_, [this] {
    // The store exists: the handler got it from ReadyStore() before the first arrival.
    Store* store = database_->ReadyStore().value();
    parking_ = std::make_unique<detail::AcquireParking>(
        &store->job_notifier(), shutdown_,
        [this](detail::ParkedPoll& poll) { return Counted(false, Admit(poll)); },
        [this](const detail::ParkedPoll& poll) { return Counted(true, Claim(poll)); },
        [this](const detail::ParkedPoll& poll, const Status& status) {
          return ClaimFailure(poll, status);
        });
  });
  return *parking_;
}

StatusOr<bool> WorkerServiceImpl::Counted(bool notified, StatusOr<bool> claimed) {
  if (options_.on_claim_attempt) {
    options_.on_claim_attempt(notified, !claimed.ok() ? "error" : *claimed ? "leased" : "empty");
  }
  return claimed;
}

grpc::Status WorkerServiceImpl::ClaimFailure(const detail::ParkedPoll& poll, const Status& status) {
  return detail::FailedCallStatus(kAcquireJob, *poll.context, poll.principal, status);
}

}  // namespace warpwatch::server
