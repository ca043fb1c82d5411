// File: worker/daemon/running_jobs.h
// The runs this worker is executing, keyed by run id (AcquireJobResponse.run_id: the lease; one
// job can be run twice at once by two GPUs of a worker, as an old run that lost its lease and the
// new one), with the signals that stop them: a user's cancel, a lost lease, or a shutdown
// hand-back (set by the job's runner once the grace period is over). The heartbeat reads the run
// ids (leases to extend) and sets the flags; each job's executor polls them through
// JobControl::ShouldStop.
#ifndef WARPWATCH_WORKER_DAEMON_RUNNING_JOBS_H_
#define WARPWATCH_WORKER_DAEMON_RUNNING_JOBS_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace warpwatch::worker {

// Flags of one running job. Thread-safe (atomics); shared by the job's runner and the daemon.
struct JobControl {
  std::atomic<bool> cancel_requested{false};  // a user cancelled: end CANCELLED
  std::atomic<bool> lost{false};              // lease no longer ours: stop, report nothing more
  std::atomic<bool> release{false};           // shutdown grace over: hand back (RELEASED)

  bool ShouldStop() const { return cancel_requested || lost || release; }
};

// Thread-safe.
class RunningJobs {
 public:
  // Starts tracking run `run_id`; the returned control lives as long as anyone holds it.
  std::shared_ptr<JobControl> Add(int64_t run_id);
  void Remove(int64_t run_id);
  std::vector<int64_t> RunIds() const;
  bool empty() const;

  // Unknown run ids are ignored (the run may have just finished). MarkLost returns whether the run
  // was still tracked: a heartbeat sent just before a FinishJob can name it lost after it ended.
  void MarkCancelRequested(int64_t run_id);
  bool MarkLost(int64_t run_id);

 private:
  std::shared_ptr<JobControl> Find(int64_t run_id) const;

  mutable std::mutex mu_;
  std::map<int64_t, std::shared_ptr<JobControl>> runs_;  // guarded by mu_
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_RUNNING_JOBS_H_
