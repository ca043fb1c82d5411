// File: server/store/detail/pg_store_impl.h
// The PostgreSQL Store's class, shared by its source files, one per concern:
// pg_store.cc (setup, Ping), pg_store_jobs.cc, pg_store_workers.cc, pg_store_queue.cc,
// pg_store_measurements.cc, pg_store_fleet.cc (worker listing), pg_store_timeouts.cc,
// pg_store_baselines.cc (pins), pg_store_rollups.cc (summary downsampling),
// pg_store_sample_window.cc (raw samples dropped, documents slimmed), pg_store_partitions.cc
// (measurement partitions made ahead and dropped by age).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_STORE_IMPL_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_STORE_IMPL_H_

#include <string>

#include "server/store/detail/connection_pool.h"
#include "server/store/detail/pg_job_notifier.h"
#include "server/store/detail/transact.h"
#include "server/store/pg_store.h"
#include "server/store/store.h"

namespace warpwatch::server::detail {

// The connection pool a store opens over `options` (connect timeout 1 s, the options' size,
// timeouts and observer): PgStore's and PgScheduleStore's pools are configured alike.
PoolOptions PoolOptionsFor(const PgStoreOptions& options);

// Thread-safe: the pool and the notifier are; the class holds no other mutable state.
class PgStore : public Store {
 public:
  explicit PgStore(const PgStoreOptions& options);

  Status Ping() override;

  StatusOr<v1::Job> EnqueueJob(const v1::JobSpec& spec, int64_t points_total,
                               const std::string& submitted_by,
                               const std::string& request_id) override;
  StatusOr<v1::Job> GetJob(int64_t id) override;
  StatusOr<JobPage> ListJobs(const JobFilter& filter) override;
  StatusOr<v1::Job> CancelJob(int64_t id, const std::string& reason) override;
  StatusOr<std::map<v1::JobState, int64_t>> CountJobsByState() override;
  StatusOr<std::vector<RegressionCount>> CountOpenRegressions() override;

  StatusOr<std::string> RegisterWorker(const v1::RegisterRequest& registration,
                                       const WorkerCaller& caller,
                                       std::chrono::milliseconds online_window) override;
  Status CheckWorkerCaller(const std::string& worker_id, const WorkerCaller& caller) override;
  StatusOr<WorkerPage> ListWorkers(std::chrono::milliseconds online_window,
                                   const WorkerFilter& filter) override;
  StatusOr<std::map<v1::WorkerState, int64_t>> CountWorkersByState(
      std::chrono::milliseconds online_window) override;
  StatusOr<int> PruneWorkers(std::chrono::milliseconds offline_for) override;
  StatusOr<int> DropOldSamples(std::chrono::hours older_than, int batch) override;
  StatusOr<int> DownsampleSummaries(std::chrono::hours older_than, int batch) override;
  StatusOr<PartitionUpkeep> KeepPartitionsAhead(int64_t min_partition_runs) override;
  StatusOr<PartitionRetention> DropOldPartitions(std::chrono::hours older_than,
                                                 int max_partitions) override;
  StatusOr<v1::BaselinePin> PinBaseline(const BaselinePinRequest& request,
                                        double max_throttled_fraction) override;
  StatusOr<v1::BaselinePin> UnpinBaseline(int64_t id, const PinGuard& guard) override;
  StatusOr<BaselinePage> ListBaselines(const BaselineFilter& filter) override;

  StatusOr<std::optional<Lease>> ClaimJob(const std::string& worker_id,
                                          const std::string& device_uuid,
                                          std::chrono::milliseconds lease_duration,
                                          Claimant* claimant) override;
  StatusOr<LeaseRenewal> RecordHeartbeat(const std::string& worker_id,
                                         const std::vector<int64_t>& run_ids,
                                         std::chrono::milliseconds lease_duration) override;
  StatusOr<int> RequeueExpiredLeases() override;
  StatusOr<int> FailTimedOutJobs(std::chrono::milliseconds default_timeout) override;
  StatusOr<v1::Job> FinishJob(const std::string& worker_id, int64_t job_id, int64_t run_id,
                              v1::JobOutcome outcome, const std::string& error) override;
  StatusOr<bool> UpdateProgress(const std::string& worker_id, int64_t job_id, int64_t run_id,
                                int64_t points_done, int64_t points_total,
                                const std::string& current_case) override;

  StatusOr<UploadCounts> UploadMeasurements(
      int64_t run_id, const std::string& worker_id, const v1::RunEnvironment& environment,
      const std::vector<v1::Measurement>& measurements) override;

  StatusOr<std::vector<v1::Measurement>> ListRunMeasurements(int64_t run_id) override;

  StatusOr<v1::Run> GetRun(int64_t run_id) override;
  StatusOr<RunPage> ListRuns(const RunFilter& filter) override;
  StatusOr<MeasurementPage> QueryMeasurements(const MeasurementQuery& query) override;
  StatusOr<v1::Series> GetSeries(const SeriesQuery& query) override;
  StatusOr<RegressionPage> ListRegressions(const RegressionFilter& filter) override;
  StatusOr<v1::Regression> UpdateRegression(int64_t id, v1::RegressionState to,
                                            const std::string& note,
                                            const std::string& actor) override;
  StatusOr<UploadedRun> StoreUploadedRun(const v1::RunResult& result,
                                         const std::string& content_sha256,
                                         const Uploader& uploader) override;

  JobNotifier& job_notifier() override { return notifier_; }

 private:
  template <typename T, typename Fn>
  StatusOr<T> Run(const std::string& what, Fn&& fn) {
    return Transact<T>(pool_, what, std::forward<Fn>(fn));
  }
  // A batch of measurements into run `run_id` by the configured ingest (PgStoreOptions::ingest):
  // CopyMeasurements (measurement_copy.h) or InsertMeasurements (measurement_row.h). The caller
  // holds the run's row FOR NO KEY UPDATE or created it in `tx`.
  StatusOr<int> StoreBatch(pqxx::work& tx, int64_t run_id, const std::string& device_model,
                           const std::string& settings_key,
                           const std::vector<v1::Measurement>& batch);

  ConnectionPool pool_;
  PgJobNotifier notifier_;
  const bool copy_ingest_;
};


}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_STORE_IMPL_H_
