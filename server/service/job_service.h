// File: server/service/job_service.h
// JobService over the Store: submit (validate, expand, enqueue), get, list, cancel, watch.
#ifndef WARPWATCH_SERVER_SERVICE_JOB_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_JOB_SERVICE_H_

#include <atomic>
#include <chrono>
#include <functional>

#include "common/sync/shutdown_signal.h"
#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "server/service/detail/principal_slots.h"
#include "server/validation/job_spec_validator.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::server {

struct JobServiceOptions {
  validation::SpecLimits limits;              // --max-sweep-points
  std::chrono::milliseconds watch_poll{500};  // WatchJob re-reads the job this often
  // Open WatchJob streams at most. Each holds a server thread for its life (gRPC's synchronous
  // API), so thousands of watchers, or watchers that never read, would otherwise grow the
  // server's threads without bound; past the limit a watch is refused RESOURCE_EXHAUSTED at once
  // and everything else keeps answering.
  int max_watches = 512;
  // Bounded per principal (issue 23): open streams of one principal (--max-watch-streams-per-
  // principal), and how long one stream lives (--max-watch-seconds); both RESOURCE_EXHAUSTED.
  int max_watches_per_principal = 32;
  std::chrono::milliseconds max_watch{std::chrono::hours(24)};
};

// Thread-safe. `database`, `authorizer` and `shutdown` must outlive the service.
class JobServiceImpl final : public v1::JobService::Service {
 public:
  JobServiceImpl(Database* database, const auth::Authorizer* authorizer,
                 const ShutdownSignal* shutdown, JobServiceOptions options);

  grpc::Status SubmitJob(grpc::ServerContext* context, const v1::SubmitJobRequest* request,
                         v1::Job* response) override;
  grpc::Status GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request,
                      v1::Job* response) override;
  grpc::Status ListJobs(grpc::ServerContext* context, const v1::ListJobsRequest* request,
                        v1::ListJobsResponse* response) override;
  grpc::Status CancelJob(grpc::ServerContext* context, const v1::CancelJobRequest* request,
                         v1::Job* response) override;
  // Sends the job at once and after every change; ends OK when the job reaches a final state,
  // CANCELLED when the client goes away, UNAVAILABLE when the server shuts down (watch again),
  // RESOURCE_EXHAUSTED when options.max_watches streams are already open, when the caller holds
  // options.max_watches_per_principal, or when the stream has been open options.max_watch.
  // Served through detail::AuthorizeBeforeReadStreaming (the caller authorized before its
  // request is read): `write` sends one event, false once the client went away.
  grpc::Status ServeWatchJob(grpc::ServerContext* context, const v1::GetJobRequest& request,
                             const std::function<bool(const v1::JobEvent&)>& write);

 private:
  // Serves every synchronous unary method through detail::AuthorizeBeforeRead (the caller is
  // authorized before its request is read); called once by the constructor.
  void AuthorizeBeforeReading();
  Status Watch(grpc::ServerContext* context, int64_t job_id,
               const std::function<bool(const v1::JobEvent&)>& write);

  Database* database_;
  const auth::Authorizer* authorizer_;
  const ShutdownSignal* shutdown_;
  JobServiceOptions options_;
  std::atomic<int> open_watches_{0};
  detail::PrincipalSlots principal_watches_;
};

// SUCCEEDED, FAILED or CANCELLED.
bool IsFinalJobState(v1::JobState state);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_JOB_SERVICE_H_
