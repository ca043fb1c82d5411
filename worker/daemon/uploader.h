// File: worker/daemon/uploader.h
// Background upload of finished measurements: a bounded in-memory queue drained by one thread in
// batches per run. Transient failures (server or database gone) are retried with backoff until the
// server returns; a batch refused as too large (RESOURCE_EXHAUSTED) is split in halves; a batch
// refused because its run is finished (FAILED_PRECONDITION: the lease was lost) is given up and
// reported through UploaderOptions::on_run_lost. Uploads are
// idempotent on (run, case) server-side, so a batch resent after a lost reply stores nothing twice.
//
// Measurements wait in memory only: a worker that dies loses the ones not yet uploaded (the job's
// lease then expires and the job runs again elsewhere).
#ifndef WARPWATCH_WORKER_DAEMON_UPLOADER_H_
#define WARPWATCH_WORKER_DAEMON_UPLOADER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/client/worker_client.h"
#include "worker/daemon/backoff.h"
#include "worker/daemon/registrar.h"

namespace warpwatch::worker {

struct UploaderOptions {
  size_t queue_capacity = 16384;      // measurements waiting at most; Enqueue blocks when full
  size_t batch_max_points = 64;
  size_t batch_max_bytes = 1 << 20;   // serialized measurements per batch (one always goes)
  int max_internal_retries = 5;       // INTERNAL/UNKNOWN answers retried this often, then given up
  BackoffPolicy backoff;
  // Called (on the uploader's thread, no lock held) when the server refuses a run's batch with
  // FAILED_PRECONDITION: the run is finished server-side, its lease lost. The daemon stops the
  // run (RunningJobs::MarkLost). May be empty.
  std::function<void(int64_t run_id)> on_run_lost;
};

struct UploaderCounts {
  int64_t inserted = 0;     // stored by the server
  int64_t duplicates = 0;   // already stored (a resend after a lost reply)
  int64_t dropped = 0;      // given up: permanent error, abandoned run, or stopped while queued
};

// Thread-safe. `client` and `registrar` must outlive it. No lock is held during an RPC.
class Uploader {
 public:
  Uploader(WorkerClient* client, Registrar* registrar, UploaderOptions options);
  ~Uploader();  // Stop()

  void Start();
  // Ends the thread after the batch in flight; what is still queued is dropped (counted).
  void Stop();

  // Sent with the run's first batch (UploadMeasurementsRequest.environment) until one succeeds.
  void SetEnvironment(int64_t run_id, const v1::RunEnvironment& environment);
  // Queues one measurement; blocks while the queue is full (returns at once after Stop()).
  void Enqueue(int64_t run_id, v1::Measurement measurement);

  // Blocks until every measurement queued for `run_id` is stored or given up, or `give_up()`
  // returns true (polled at least every 100 ms, under the uploader's lock: it must not block or
  // call the uploader). OK when all were stored; the first permanent error otherwise; UNAVAILABLE
  // "N measurements not uploaded" when it gave up waiting.
  Status WaitUploaded(int64_t run_id, const std::function<bool()>& give_up);
  // Drops what is queued for `run_id` and stops retrying its batch in flight (lease lost).
  void Abandon(int64_t run_id);
  // Forgets a run once its job is finished (after WaitUploaded or Abandon).
  void Forget(int64_t run_id);

  UploaderCounts counts() const;
  size_t queued() const;

 private:
  struct Item {
    int64_t run_id;
    v1::Measurement measurement;
  };
  struct RunState {
    int64_t pending = 0;          // queued + in flight
    v1::RunEnvironment environment;
    bool environment_sent = false;
    bool abandoned = false;
    Status error;                 // first permanent error
  };

  void Loop();
  // Takes the next batch (same run as the queue's front) off the queue. Requires mu_ held.
  std::vector<v1::Measurement> TakeBatch(int64_t* run_id);
  // Sends with retries and splitting. OK, CANCELLED (stopped or abandoned), or a permanent error.
  Status Send(int64_t run_id, const v1::RunEnvironment& environment,
              std::vector<v1::Measurement> batch);
  bool ShouldAbort(int64_t run_id);  // takes mu_

  WorkerClient* client_;
  Registrar* registrar_;
  UploaderOptions options_;
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable cv_;           // queue, pending counts and stop changes
  bool stop_ = false;                    // guarded by mu_
  std::deque<Item> queue_;               // guarded by mu_
  std::map<int64_t, RunState> runs_;     // guarded by mu_
  UploaderCounts counts_;                // guarded by mu_
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_UPLOADER_H_
