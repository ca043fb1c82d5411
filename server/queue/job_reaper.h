// File: server/queue/job_reaper.h
// The server's background queue keeper: every `interval` it puts the jobs of dead workers back in
// the queue (Store::RequeueExpiredLeases: requeue, or FAILED after max_attempts) and fails the
// jobs that ran past their timeout (Store::FailTimedOutJobs); now and then it prunes long-gone
// workers (Store::PruneWorkers), keeps measurement partitions ahead of the runs
// (Store::KeepPartitionsAhead) and applies retention (old raw samples dropped; whole old partitions
// folded into week rollups and dropped, then old summaries left in kept partitions folded row by
// row). Metrics are not its business (metrics/gauge_refresher.h), so nothing
// slows its passes down.
#ifndef WARPWATCH_SERVER_QUEUE_JOB_REAPER_H_
#define WARPWATCH_SERVER_QUEUE_JOB_REAPER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>

#include "common/status/status.h"
#include "common/sync/shutdown_signal.h"
#include "server/database/database.h"
#include "server/store/store.h"

namespace warpwatch::server::queue {

struct JobReaperOptions {
  std::chrono::milliseconds interval{1000};                 // --reaper-interval-seconds
  std::chrono::milliseconds default_job_timeout{21600000};  // --default-job-timeout-seconds
  // Workers not seen for this long that hold no job are deleted (Store::PruneWorkers);
  // --worker-retention-hours. Zero disables pruning.
  std::chrono::milliseconds worker_retention{std::chrono::hours(24 * 7)};
  // Passes between two prunes (pruning is not urgent).
  int prune_every = 60;
  // Raw samples of runs that finished longer ago than this are dropped, summaries kept and their
  // documents slimmed (Store::DropOldSamples), at each prune, in batches of sample_batch up to
  // sample_batches_per_prune batches; --sample-retention-days. Zero keeps them forever.
  std::chrono::hours sample_retention{24 * 90};
  // Summaries (measurement rows) of runs that finished longer ago than this are folded into week
  // rollups and deleted (Store::DownsampleSummaries), at each prune, in the same bounded batches;
  // --summary-retention-days. Zero keeps them forever.
  std::chrono::hours summary_retention{24 * 365};
  int sample_batch = 1000;             // measurements per batch, for both
  int sample_batches_per_prune = 20;   // batches per prune, for each
  // Measurement partitions (migration 0019): at each prune, partitions are added ahead of the
  // runs, each spanning at least this many run ids (more when a week holds more runs); with
  // summary retention on, up to partitions_per_prune old partitions are dropped whole before the
  // row-wise fold (Store::DropOldPartitions).
  int64_t partition_min_runs = 1000;
  int partitions_per_prune = 4;
};

// Several server replicas may each run one: the store's statements skip rows another holds.
// Passes before the database is reachable (or migrated) are skipped; errors are counted, logged
// and retried at the next tick. Thread-safe accessors; `database` must outlive the reaper.
class JobReaper {
 public:
  JobReaper(Database* database, JobReaperOptions options);
  // Stop() if still running.
  ~JobReaper();
  JobReaper(const JobReaper&) = delete;
  JobReaper& operator=(const JobReaper&) = delete;

  // Starts the thread; the first pass runs one interval from now. Call once.
  void Start();
  // Wakes and joins the thread (a pass in progress finishes first). Idempotent.
  void Stop();

  // Jobs requeued or failed after a lease expiry, jobs failed by timeout, passes that failed.
  int64_t requeued() const { return requeued_.load(); }
  int64_t timed_out() const { return timed_out_.load(); }
  int64_t errors() const { return errors_.load(); }
  int64_t pruned() const { return pruned_.load(); }
  int64_t samples_dropped() const { return samples_dropped_.load(); }  // measurements emptied
  int64_t summaries_folded() const { return summaries_folded_.load(); }  // measurements folded
  int64_t partitions_created() const { return partitions_created_.load(); }
  int64_t partitions_dropped() const { return partitions_dropped_.load(); }
  // Rows of the DEFAULT measurement partition at the last prune (logged as a warning when not 0:
  // the keeper lagged behind the runs); -1 before the first count.
  int64_t default_partition_rows() const { return default_partition_rows_.load(); }

  // One pass now, on the caller's thread (tests, and the thread's body).
  Status RunOnce();

 private:
  void Loop();
  // Calls `batch` until it returns less than a full batch, an error (logged with `what`),
  // options_.sample_batches_per_prune calls, or Stop() (no batch starts after it: a server
  // stopping in a long prune exits within one batch); returns the sum of what it returned.
  int RunBatches(const std::function<StatusOr<int>()>& batch, const char* what);
  // The partition keeper's and partition retention's share of a prune pass.
  void KeepPartitions(Store* store);

  Database* database_;
  const JobReaperOptions options_;
  std::atomic<int64_t> requeued_{0};
  std::atomic<int64_t> timed_out_{0};
  std::atomic<int64_t> errors_{0};
  std::atomic<int64_t> pruned_{0};
  std::atomic<int64_t> samples_dropped_{0};
  std::atomic<int64_t> summaries_folded_{0};
  std::atomic<int64_t> partitions_created_{0};
  std::atomic<int64_t> partitions_dropped_{0};
  std::atomic<int64_t> default_partition_rows_{-1};
  int64_t passes_ = 0;  // RunOnce calls; only the reaper's thread (or a test) calls RunOnce
  ShutdownSignal stop_;  // raised by Stop()
  std::thread thread_;
};

}  // namespace warpwatch::server::queue

#endif  // WARPWATCH_SERVER_QUEUE_JOB_REAPER_H_
