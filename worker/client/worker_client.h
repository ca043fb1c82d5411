// File: worker/client/worker_client.h
// WorkerService as the daemon sees it: one method per RPC, the bearer token attached, deadlines
// set, gRPC status turned into warpwatch::Status (same codes). No retries here: callers decide.
#ifndef WARPWATCH_WORKER_CLIENT_WORKER_CLIENT_H_
#define WARPWATCH_WORKER_CLIENT_WORKER_CLIENT_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <memory>
#include <mutex>
#include <set>

#include "common/status/status.h"
#include "warpwatch/v1/worker.grpc.pb.h"
#include "worker/client/client_options.h"

namespace warpwatch::worker {

// Thread-safe: any number of calls may run at once from different threads.
class WorkerClient {
 public:
  // `channel` from MakeServerChannel (or an in-process one in tests).
  WorkerClient(std::shared_ptr<grpc::Channel> channel, ClientOptions options);

  StatusOr<v1::RegisterResponse> Register(const v1::RegisterRequest& request);
  StatusOr<v1::HeartbeatResponse> Heartbeat(const v1::HeartbeatRequest& request);
  // Long-poll: deadline wait_seconds + acquire_extra_seconds. A wait that ends without a job is OK
  // with no job set (a DEADLINE_EXCEEDED of the call is reported as such, not hidden).
  // After CancelLongPolls() it answers CANCELLED at once, and calls in flight end CANCELLED.
  StatusOr<v1::AcquireJobResponse> AcquireJob(const v1::AcquireJobRequest& request);
  StatusOr<v1::ReportProgressResponse> ReportProgress(const v1::ReportProgressRequest& request);
  StatusOr<v1::UploadMeasurementsResponse> UploadMeasurements(
      const v1::UploadMeasurementsRequest& request);
  StatusOr<v1::Job> FinishJob(const v1::FinishJobRequest& request);

  // Ends every AcquireJob in flight and refuses new ones (shutdown: stop taking jobs). The other
  // calls keep working so running jobs can still upload and finish.
  void CancelLongPolls();

 private:
  // Prepares `context`: token metadata and a deadline `seconds` from now.
  void Prepare(grpc::ClientContext* context, double seconds) const;

  std::unique_ptr<v1::WorkerService::Stub> stub_;
  ClientOptions options_;

  std::mutex mu_;
  bool long_polls_cancelled_ = false;              // guarded by mu_
  std::set<grpc::ClientContext*> long_polls_;      // guarded by mu_: AcquireJob calls in flight
};

// warpwatch::Status with the gRPC status's code and message.
Status FromGrpcStatus(const grpc::Status& status);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLIENT_WORKER_CLIENT_H_
