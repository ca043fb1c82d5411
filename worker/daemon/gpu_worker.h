// File: worker/daemon/gpu_worker.h
// One GPU's loop: long-poll AcquireJob for this GPU, run the job it gets, repeat; back off (with
// jitter) while the server is unreachable. One job at a time, so a GPU is never shared by two jobs.
#ifndef WARPWATCH_WORKER_DAEMON_GPU_WORKER_H_
#define WARPWATCH_WORKER_DAEMON_GPU_WORKER_H_

#include <thread>

#include "warpwatch/v1/common.pb.h"
#include "worker/daemon/job_runner.h"

namespace warpwatch::worker {

class GpuWorker {
 public:
  // `executor` runs this GPU's jobs; it and the context's members must outlive the worker.
  GpuWorker(JobRunnerContext context, v1::Device device, Executor* executor);
  ~GpuWorker();  // Join()

  // Starts the loop thread. It ends once shutdown is requested and the job in hand is finished.
  void Start();
  void Join();

 private:
  void Loop();

  JobRunnerContext context_;
  v1::Device device_;
  JobRunner runner_;
  std::thread thread_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_GPU_WORKER_H_
