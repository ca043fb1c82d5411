// File: worker/daemon/daemon_options.h
// Timings and limits of the worker daemon (the serve loop). Production defaults; tests shrink them.
#ifndef WARPWATCH_WORKER_DAEMON_DAEMON_OPTIONS_H_
#define WARPWATCH_WORKER_DAEMON_DAEMON_OPTIONS_H_

#include <cstdint>

#include "worker/daemon/backoff.h"
#include "worker/daemon/uploader.h"

namespace warpwatch::worker {

struct DaemonOptions {
  double acquire_wait_seconds = 20;       // AcquireJob long-poll length
  // SIGTERM: running jobs get this long to finish; then they are stopped and handed back.
  double grace_seconds = 30;
  // After the grace period, uploading what finished and FinishJob(RELEASED) get this long before
  // the daemon exits regardless (the server may be gone too; the lease then expires on its own).
  double hand_back_seconds = 30;
  double progress_interval_seconds = 0.5;  // ReportProgress at most this often per job
  int64_t max_points = int64_t{1} << 20;   // the server caps jobs already; this guards the worker
  BackoffPolicy backoff;                   // reconnects: cap ~10 s in production
  UploaderOptions uploader;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_DAEMON_OPTIONS_H_
