// File: worker/daemon/heartbeater.h
// The heartbeat thread: every interval (from registration) it extends the leases of the running
// jobs and passes on what the server says about them (cancelled, lost). It is also the one place
// that re-registers when the server no longer knows this worker (NOT_FOUND), keeping the worker id.
#ifndef WARPWATCH_WORKER_DAEMON_HEARTBEATER_H_
#define WARPWATCH_WORKER_DAEMON_HEARTBEATER_H_

#include <condition_variable>
#include <mutex>
#include <thread>

#include "worker/client/worker_client.h"
#include "worker/daemon/backoff.h"
#include "worker/daemon/registrar.h"
#include "worker/daemon/running_jobs.h"

namespace warpwatch::worker {

// The collaborators must outlive it. No lock is held during an RPC.
class Heartbeater {
 public:
  Heartbeater(WorkerClient* client, Registrar* registrar, RunningJobs* jobs, BackoffPolicy backoff);
  ~Heartbeater();  // Stop()

  void Start();
  // Ends the thread (the daemon stops it last, after its jobs are handed back or finished).
  void Stop();

  // One heartbeat now (also what the thread does each interval): registers first when needed.
  // OK, or the error of the call that failed.
  Status Beat();

 private:
  void Loop();

  WorkerClient* client_;
  Registrar* registrar_;
  RunningJobs* jobs_;
  BackoffPolicy backoff_policy_;
  std::thread thread_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_HEARTBEATER_H_
