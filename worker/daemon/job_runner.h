// File: worker/daemon/job_runner.h
// Runs one leased job on one GPU from start to finish: expands its spec, runs the points through
// the Executor, queues each finished point for upload, reports progress, and finishes the job with
// its outcome once its points are uploaded:
//   every point ran                    -> SUCCEEDED (points may be FAILED or SKIPPED inside)
//   Execute failed / bad spec / upload refused for good -> FAILED with the reason
//   a user cancelled                   -> child stopped, uploaded points kept, CANCELLED
//   shutdown grace over                -> child stopped, finished points uploaded, RELEASED
//   lease lost (heartbeat, progress or FinishJob says so) -> child stopped, nothing more sent
#ifndef WARPWATCH_WORKER_DAEMON_JOB_RUNNER_H_
#define WARPWATCH_WORKER_DAEMON_JOB_RUNNER_H_

#include <string>

#include "warpwatch/v1/common.pb.h"
#include "warpwatch/v1/worker.pb.h"
#include "worker/client/worker_client.h"
#include "worker/daemon/daemon_options.h"
#include "worker/daemon/progress_reporter.h"
#include "worker/daemon/registrar.h"
#include "worker/daemon/running_jobs.h"
#include "worker/daemon/shutdown.h"
#include "worker/daemon/uploader.h"
#include "worker/executor/executor.h"
#include "worker/metrics/metrics_sink.h"

namespace warpwatch::worker {

// Everything a runner uses; owned by the daemon, outliving every runner.
struct JobRunnerContext {
  WorkerClient* client = nullptr;
  Registrar* registrar = nullptr;
  Uploader* uploader = nullptr;
  ProgressReporter* progress = nullptr;
  RunningJobs* jobs = nullptr;
  Shutdown* shutdown = nullptr;
  MetricsSink* metrics = nullptr;         // may be null
  const DaemonOptions* options = nullptr;
};

// One per GPU thread; Run is called for one job at a time. No lock is held while the executor
// runs or an RPC is in flight.
class JobRunner {
 public:
  JobRunner(JobRunnerContext context, v1::Device device, Executor* executor);

  // Runs the job of `lease` (job set) and returns once it is finished or given up. Returns the
  // outcome as MetricsSink names it ("succeeded", "failed", "cancelled", "released", "lost").
  std::string Run(const v1::AcquireJobResponse& lease);

 private:
  // FinishJob with retries until it is accepted, refused for good, the lease is lost, or the
  // shutdown hand-back time is over. Returns the outcome name.
  std::string Finish(int64_t job_id, int64_t run_id, v1::JobOutcome outcome,
                     const std::string& error, const JobControl& control);
  // True once the shutdown grace period is over: running jobs are stopped and handed back.
  bool GraceOver() const;
  // True once the daemon must stop waiting for the server (shutdown grace + hand-back passed).
  bool HandBackTimeOver() const;

  JobRunnerContext context_;
  v1::Device device_;
  Executor* executor_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_JOB_RUNNER_H_
