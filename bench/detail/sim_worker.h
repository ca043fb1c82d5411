// File: bench/detail/sim_worker.h
// A simulated worker for the load benchmarks: one GPU, its own token and its own connection,
// speaking WorkerService exactly as warpwatch-worker does (Register, AcquireJob, Heartbeat,
// UploadMeasurements, FinishJob), without running anything.
#ifndef WARPWATCH_BENCH_DETAIL_SIM_WORKER_H_
#define WARPWATCH_BENCH_DETAIL_SIM_WORKER_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bench/detail/server_under_test.h"
#include "common/status/status.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::bench {

// Not thread-safe, except the async calls, which the stub serves from gRPC's threads.
class SimWorker {
 public:
  // Worker `index` of `server`: token worker_token(index), GPU "GPU-bench-<index>".
  SimWorker(const ServerUnderTest& server, int index);

  Status Register();
  // Blocks until a job is leased to this GPU or `wait_seconds` pass (then run_id() is 0).
  Status Acquire(double wait_seconds);
  Status Upload(const std::vector<v1::Measurement>& batch);
  Status Finish(v1::JobOutcome outcome);

  const std::string& device_uuid() const { return device_uuid_; }
  const std::string& worker_id() const { return worker_id_; }
  const std::string& token() const { return token_; }
  int64_t job_id() const { return job_id_; }
  int64_t run_id() const { return run_id_; }
  v1::WorkerService::Stub& stub() { return *stub_; }

 private:
  std::string token_;
  std::string device_uuid_;
  std::string worker_id_;
  std::unique_ptr<v1::WorkerService::Stub> stub_;
  int64_t job_id_ = 0;
  int64_t run_id_ = 0;
  bool environment_sent_ = false;
};

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_SIM_WORKER_H_
