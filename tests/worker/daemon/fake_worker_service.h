// File: tests/worker/daemon/fake_worker_service.h
// An in-memory WorkerService for the daemon's unit tests, served by a real gRPC server on
// 127.0.0.1: hands out queued jobs, records every call, stores uploads keyed by (run, case) like
// the real server, and injects failures (unavailable, oversize batches, cancels, lost leases).
#ifndef WARPWATCH_TESTS_WORKER_DAEMON_FAKE_WORKER_SERVICE_H_
#define WARPWATCH_TESTS_WORKER_DAEMON_FAKE_WORKER_SERVICE_H_

#include <grpcpp/server.h>
#include <grpcpp/support/status.h>

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::worker::testing {

// Thread-safe. Test code reads state with Get(), changes it with Set(); both hold the lock.
class FakeWorkerService final : public v1::WorkerService::Service {
 public:
  struct State {
    // Knobs.
    bool unavailable = false;             // every RPC answers UNAVAILABLE
    int register_failures = 0;            // the next N Register calls answer UNAVAILABLE
    int heartbeat_not_found = 0;          // the next N heartbeats answer NOT_FOUND (unknown worker)
    grpc::StatusCode upload_code = grpc::StatusCode::OK;  // not OK: every upload answers it
    size_t max_batch = 0;                 // > 0: uploads with more measurements: RESOURCE_EXHAUSTED
    std::set<int64_t> cancel;             // run ids heartbeats and progress report as cancelled
    std::set<int64_t> lost;               // run ids heartbeats report as lost (their progress
                                          // and FinishJob answer FAILED_PRECONDITION)
    double heartbeat_interval_seconds = 0.1;
    std::vector<v1::Job> queue;           // handed out in order by AcquireJob
    // Records.
    std::vector<v1::RegisterRequest> registers;
    std::vector<v1::HeartbeatRequest> heartbeats;
    std::vector<v1::ReportProgressRequest> progress;
    std::vector<v1::UploadMeasurementsRequest> uploads;   // accepted ones
    int refused_batches = 0;                              // RESOURCE_EXHAUSTED answers
    std::map<int64_t, std::map<std::string, int>> stored; // run -> canonical -> times stored
    std::map<int64_t, v1::RunEnvironment> environments;   // run -> environment received
    std::vector<v1::FinishJobRequest> finishes;
    int64_t next_run_id = 100;
  };

  State Get() const;
  void Set(const std::function<void(State&)>& change);
  // Adds a job with spec `spec` (id given) to the queue.
  void Enqueue(int64_t job_id, const v1::JobSpec& spec);

  grpc::Status Register(grpc::ServerContext*, const v1::RegisterRequest*,
                        v1::RegisterResponse*) override;
  grpc::Status Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest*,
                         v1::HeartbeatResponse*) override;
  grpc::Status AcquireJob(grpc::ServerContext*, const v1::AcquireJobRequest*,
                          v1::AcquireJobResponse*) override;
  grpc::Status ReportProgress(grpc::ServerContext*, const v1::ReportProgressRequest*,
                              v1::ReportProgressResponse*) override;
  grpc::Status UploadMeasurements(grpc::ServerContext*, const v1::UploadMeasurementsRequest*,
                                  v1::UploadMeasurementsResponse*) override;
  grpc::Status FinishJob(grpc::ServerContext*, const v1::FinishJobRequest*, v1::Job*) override;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;  // queue changes
  State state_;                 // guarded by mu_
};

// A gRPC server on 127.0.0.1 serving `service`; Restart keeps the port (server gone and back).
class FakeServer {
 public:
  explicit FakeServer(FakeWorkerService* service);
  ~FakeServer();
  void Stop();
  void Start();  // on the same port as before (a fresh one the first time)
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  FakeWorkerService* service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace warpwatch::worker::testing

#endif  // WARPWATCH_TESTS_WORKER_DAEMON_FAKE_WORKER_SERVICE_H_
