// File: worker/daemon/progress_reporter.h
// Sends each running run's progress (ReportProgress, naming the job and its run: the lease) from
// its own thread, so a slow or absent server never stalls the executor's callbacks. Only the
// latest progress of a run is kept; each run is reported at most once per min_interval. A reply
// with cancel_requested, or FAILED_PRECONDITION (the run lost its lease), is passed on to
// RunningJobs.
#ifndef WARPWATCH_WORKER_DAEMON_PROGRESS_REPORTER_H_
#define WARPWATCH_WORKER_DAEMON_PROGRESS_REPORTER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "warpwatch/v1/worker.pb.h"
#include "worker/client/worker_client.h"
#include "worker/daemon/registrar.h"
#include "worker/daemon/running_jobs.h"

namespace warpwatch::worker {

// Thread-safe. The collaborators must outlive it. No lock is held during an RPC.
class ProgressReporter {
 public:
  ProgressReporter(WorkerClient* client, Registrar* registrar, RunningJobs* jobs,
                   std::chrono::milliseconds min_interval);
  ~ProgressReporter();  // Stop()

  void Start();
  void Stop();

  // Records the latest progress of run `run_id` of job `job_id`; sent soon by the reporter's
  // thread (best effort: a failed report is dropped, the next one carries newer numbers anyway).
  void Update(int64_t job_id, int64_t run_id, int64_t points_done, int64_t points_total,
              const std::string& current_case);
  // Forgets the run (finished); a pending report is dropped.
  void Remove(int64_t run_id);

 private:
  struct Entry {
    v1::ReportProgressRequest latest;
    bool dirty = false;
    std::chrono::steady_clock::time_point last_sent;
  };

  void Loop();

  WorkerClient* client_;
  Registrar* registrar_;
  RunningJobs* jobs_;
  std::chrono::milliseconds min_interval_;
  std::thread thread_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;                    // guarded by mu_
  std::map<int64_t, Entry> entries_;     // by run id; guarded by mu_
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_PROGRESS_REPORTER_H_
