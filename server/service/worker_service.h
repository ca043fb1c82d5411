// File: server/service/worker_service.h
// WorkerService over the Store: what worker daemons call to register, keep their leases, take
// jobs by long-poll, report progress, upload measurements and finish jobs. A worker id is bound
// to the credential that registered it: every other call first checks that the caller's
// principal owns request.worker_id (PERMISSION_DENIED otherwise; admins may act as any worker).
// A worker only ever touches jobs it holds: the store checks the lease owner, and this edge maps
// its answers.
#ifndef WARPWATCH_SERVER_SERVICE_WORKER_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_WORKER_SERVICE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "common/sync/shutdown_signal.h"
#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "server/service/detail/acquire_parking.h"
#include "server/service/detail/call_pool.h"
#include "server/service/detail/worker_caller_cache.h"
#include "server/service/detail/worker_requests.h"
#include "server/store/store.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::server {

// The store's view of a caller: its principal's name, and whether it is an admin.
WorkerCaller WorkerCallerOf(const auth::Principal& principal);

struct WorkerServiceOptions {
  std::chrono::milliseconds lease{60000};               // --lease-seconds
  std::chrono::milliseconds heartbeat_interval{20000};  // told to workers at Register
  std::chrono::milliseconds max_acquire_wait{60000};    // --acquire-max-wait-seconds
  // A long-poll ends this long before the call's deadline, so the empty answer reaches the worker
  // before its deadline does.
  std::chrono::milliseconds deadline_margin{500};
  detail::UploadLimits upload;  // --max-upload-batch, --max-upload-bytes
  int upload_threads = 4;       // UploadMeasurements calls parsed and stored at once
  // AcquireJob long-polls one principal may have admitted and waiting at once
  // (--max-parked-polls-per-principal); more are refused RESOURCE_EXHAUSTED.
  int max_parked_polls_per_principal = 64;
  // Called after each stored upload (metrics); may be empty. Must be thread-safe.
  std::function<void(const UploadCounts&)> on_upload;
  // Called with the job as stored after each claim AcquireJob hands out, and after each
  // FinishJob that succeeded (metrics); may be empty. Must be thread-safe.
  std::function<void(const v1::Job&)> on_claimed;
  std::function<void(const v1::Job&)> on_finished;
  // Called after each claim transaction AcquireJob ran (`notified`: for a parked poll a queued
  // job's notification woke; else a poll's first claim on arrival) with its outcome: "leased",
  // "empty" or "error" (metrics); may be empty. Must be thread-safe.
  std::function<void(bool notified, const char* outcome)> on_claim_attempt;
};

// Thread-safe. `database`, `authorizer` and `shutdown` must outlive the service.
// AcquireJob uses gRPC's raw callback API (its long-polls hold no thread while they wait; the
// caller is authorized before its request is parsed); UploadMeasurements is served raw
// (detail/raw_unary_call.h: authorized and size-checked before it is parsed); the other methods
// are synchronous, authorized before their request is read (detail/authorize_before_read.h).
class WorkerServiceImpl final
    : public v1::WorkerService::WithRawCallbackMethod_AcquireJob<
          v1::WorkerService::WithRawCallbackMethod_UploadMeasurements<v1::WorkerService::Service>> {
 public:
  WorkerServiceImpl(Database* database, const auth::Authorizer* authorizer,
                    const ShutdownSignal* shutdown, WorkerServiceOptions options);

  // Upserts the worker and its GPUs, bound to the caller's principal; answers its id, the
  // heartbeat interval and lease length. PERMISSION_DENIED for a worker id of another principal,
  // or a GPU of another principal's worker that is online (Store::RegisterWorker).
  grpc::Status Register(grpc::ServerContext* context, const v1::RegisterRequest* request,
                        v1::RegisterResponse* response) override;
  // Marks the worker seen and extends the leases of the jobs it still holds; answers the jobs it
  // must stop (cancel requested) and the ones it lost (requeued, timed out, finished elsewhere).
  // NOT_FOUND for an unknown worker (register again).
  grpc::Status Heartbeat(grpc::ServerContext* context, const v1::HeartbeatRequest* request,
                         v1::HeartbeatResponse* response) override;
  // Long-poll (acquire_job.cc): claims a job matching the GPU at once, or waits for one for
  // min(wait_seconds, --acquire-max-wait-seconds, call deadline - margin), parked without a
  // thread and woken by the store's job notifications. An empty response when the wait ends or
  // the server shuts down; CANCELLED when the client goes away. NOT_FOUND for an unknown worker
  // or a GPU not registered to it.
  grpc::ServerUnaryReactor* AcquireJob(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request_bytes,
                                       grpc::ByteBuffer* response_bytes) override;
  // Records progress of a held job; answers whether a cancel was requested. FAILED_PRECONDITION
  // for a job the worker does not hold.
  grpc::Status ReportProgress(grpc::ServerContext* context,
                              const v1::ReportProgressRequest* request,
                              v1::ReportProgressResponse* response) override;
  // upload_measurements.cc. Idempotent on (run, case). The caller is authorized and the request's
  // size checked against --max-upload-bytes before it is parsed (RESOURCE_EXHAUSTED naming the
  // limit, as for a batch of too many measurements); FAILED_PRECONDITION for another worker's run.
  // Parsing and storing run on upload_pool_.
  grpc::ServerUnaryReactor* UploadMeasurements(grpc::CallbackServerContext* context,
                                               const grpc::ByteBuffer* request,
                                               grpc::ByteBuffer* response) override;
  // Ends a held job with its outcome. FAILED_PRECONDITION for a job the worker does not hold, or
  // CANCELLED without a cancel request.
  grpc::Status FinishJob(grpc::ServerContext* context, const v1::FinishJobRequest* request,
                         v1::Job* response) override;

 private:
  // Serves every synchronous unary method through detail::AuthorizeBeforeRead (the caller is
  // authorized before its request is read); called once by the constructor.
  void AuthorizeBeforeReading();
  // Store::CheckWorkerCaller, answered from caller_cache_ when the same principal (name and
  // whether admin) passed it for the same worker within the last 30 s.
  Status CheckCaller(Store& store, const std::string& worker_id, const auth::Principal& caller);
  // A new poll's caller check and first claim (detail::AcquireParking::Admit).
  StatusOr<bool> Admit(detail::ParkedPoll& poll);
  // One claim for a poll (detail::AcquireParking::Claim); `claimant`, when given, receives the
  // poll's device as ClaimJob matched it.
  StatusOr<bool> Claim(const detail::ParkedPoll& poll, Claimant* claimant = nullptr);
  // Reports one claim's outcome to options_.on_claim_attempt; returns it unchanged.
  StatusOr<bool> Counted(bool notified, StatusOr<bool> claimed);
  grpc::Status ClaimFailure(const detail::ParkedPoll& poll, const Status& status);
  // Created at the first arrival, when the store (and its notifier) exists.
  detail::AcquireParking& Parking();

  Database* database_;
  const auth::Authorizer* authorizer_;
  const ShutdownSignal* shutdown_;
  WorkerServiceOptions options_;
  detail::WorkerCallerCache caller_cache_{std::chrono::seconds(30)};
  detail::PrincipalSlots principal_polls_;  // before parking_: its polls hold these slots
  detail::CallPool upload_pool_;  // after the members its tasks use: it drains first
  std::once_flag parking_once_;
  std::unique_ptr<detail::AcquireParking> parking_;  // set once under parking_once_
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_WORKER_SERVICE_H_
