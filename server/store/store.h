// File: server/store/store.h
// The server's only view of its database: jobs, the job queue with leases, the worker registry and
// measurement ingest. PostgreSQL implements it (pg_store.h); tests may hand in a fake.
#ifndef WARPWATCH_SERVER_STORE_STORE_H_
#define WARPWATCH_SERVER_STORE_STORE_H_

#include <google/protobuf/timestamp.pb.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/store/history_types.h"
#include "server/store/paging.h"
#include "warpwatch/v1/baseline.pb.h"
#include "warpwatch/v1/common.pb.h"
#include "warpwatch/v1/fleet.pb.h"
#include "warpwatch/v1/job.pb.h"
#include "warpwatch/v1/measurement.pb.h"
#include "warpwatch/v1/result.pb.h"
#include "warpwatch/v1/worker.pb.h"

namespace warpwatch::server {

// JobSpec.max_attempts == 0 means this many.
inline constexpr int kDefaultMaxAttempts = 3;

// Which jobs ListJobs returns. Every set criterion must hold.
struct JobFilter {
  std::vector<v1::JobState> states;           // any of; empty = all
  std::map<std::string, std::string> labels;  // every pair present in spec.labels
  std::string gpu_model;   // a run of the job used a device of this exact model, or the selector
                           // names it (exact text, glob included)
  std::string gpu_uuid;    // a run used this device, or the selector names this uuid
  v1::TimeRange created;   // created_at in [start, end); unset bounds are open
  int page_size = 0;       // EffectivePageSize(page_size, kJobPageSizes) (paging.h)
  std::string page_token;  // JobPage::next_page_token of a query with the same filters; empty =
                           // first page
};

struct JobPage {
  std::vector<v1::Job> jobs;    // newest (highest id) first
  std::string next_page_token;  // empty on the last page
};

// Which workers ListWorkers returns.
struct WorkerFilter {
  std::vector<v1::WorkerState> states;  // any of; empty = all
  int page_size = 0;                    // EffectivePageSize(page_size, kWorkerPageSizes)
  std::string page_token;               // WorkerPage::next_page_token of the same states
};

struct WorkerPage {
  std::vector<v1::WorkerInfo> workers;  // by hostname, then id
  std::string next_page_token;          // empty on the last page
};

// A job handed to a worker for one of its GPUs.
struct Lease {
  v1::Job job;                         // as stored after the claim (RUNNING, attempts counted)
  int64_t run_id = 0;                  // the run created for (job, device)
  google::protobuf::Timestamp expiry;  // the worker must heartbeat before this
};

// What a heartbeat learned about the leases (runs) it tried to extend.
struct LeaseRenewal {
  std::vector<int64_t> lost_run_ids;  // no longer their job's current run under this worker
  std::vector<int64_t> cancel_requested_run_ids;  // still held, but a user asked to cancel
  google::protobuf::Timestamp expiry;             // new expiry of the leases still held
};

// Who calls a WorkerService method: the name of its credential (bearer token name; "anonymous"
// on an open server) and whether it is an admin. A worker row belongs to the principal that
// registered it; only that principal, or an admin, may act as that worker.
struct WorkerCaller {
  std::string principal;
  bool admin = false;
};

// One group of CountOpenRegressions.
struct RegressionCount {
  std::string gpu_model;
  std::string family;
  std::string kind;   // "REGRESSION", "IMPROVEMENT" or "OUTLIER"
  std::string state;  // "OPEN" (not triaged yet) or "ACKNOWLEDGED"
  int64_t count = 0;
};

// What one Store::KeepPartitionsAhead call found and did (migration 0019).
struct PartitionUpkeep {
  int created = 0;           // partitions added ahead of run_id_seq
  int64_t default_rows = 0;  // measurements in the DEFAULT partition (0 unless the keeper lagged)
};

// What one Store::DropOldPartitions call did.
struct PartitionRetention {
  int dropped = 0;      // partitions folded, detached and dropped
  int64_t folded = 0;   // their measurements, folded into measurement_rollup first
  int kept_exempt = 0;  // old partitions kept for the exempt runs they hold
};

struct UploadCounts {
  int inserted = 0;
  int duplicates = 0;  // (run, case canonical) already stored: ignored
};

// What one notification says about the job that became claimable, so a parked long-poll can tell
// whether it may take it without a claim transaction. `any`: it says nothing (a requeue of several
// jobs, a selector too large for a notification, or notifications that may have been missed):
// every poll may.
struct JobWake {
  uint64_t generation = 0;  // the notifier generation it advanced to
  int64_t job_id = 0;       // 0: unknown
  bool any = true;
  std::string gpu_model;    // the job's selector (when !any): glob over the device name, '' any
  std::string gpu_uuid;     // exact device uuid, '' any
  std::map<std::string, std::string> worker_labels;  // each must be on the worker
};

// The device a long-poll claims for, as ClaimJob matches selectors against it.
struct Claimant {
  std::string device_uuid;
  std::string device_name;
  std::map<std::string, std::string> worker_labels;
};

// True when a job with `wake`'s selector may be claimed for `claimant` (ClaimJob's match: model
// glob, uuid exact, labels contained). Always true for an `any` wake.
bool WakeMatches(const JobWake& wake, const Claimant& claimant);

// Wakes long-polls when jobs become claimable (PostgreSQL LISTEN/NOTIFY underneath).
// Usage without lost wake-ups:
//   uint64_t seen = notifier.Generation();
//   ... ClaimJob() found nothing ...
//   notifier.WaitForJob(seen, remaining);   // returns at once if a job arrived since `seen`
//   for (const JobWake& w : notifier.WakesSince(seen)) ... claim only where WakeMatches
// Thread-safe. A generation change is a hint, not a promise: claim again and expect to lose races.
// When the listening connection breaks, the generation also advances once it is re-established
// (notifications may have been missed meanwhile), with an `any` wake.
class JobNotifier {
 public:
  virtual ~JobNotifier() = default;
  // Increases by one for every notification received.
  virtual uint64_t Generation() const = 0;
  // Blocks until Generation() > seen or `timeout` passes. True when the generation advanced.
  virtual bool WaitForJob(uint64_t seen, std::chrono::milliseconds timeout) = 0;
  // The wakes of generations seen+1 .. Generation(), oldest first. Older than the notifier keeps
  // (its last kKeptWakes): one `any` wake stands for them.
  virtual std::vector<JobWake> WakesSince(uint64_t seen) const = 0;
  static constexpr size_t kKeptWakes = 4096;
};

// Thread-safe: every method may be called from many threads at once. Methods never hang: with the
// database unreachable they answer UNAVAILABLE within about a second, and work again once it
// returns without recreating the store. Errors: UNAVAILABLE (database unreachable, retry),
// ABORTED (serialization failure or deadlock, retry), INTERNAL (anything else, with the SQL error),
// plus the per-method codes below.
class Store {
 public:
  virtual ~Store() = default;

  // SELECT 1 on a pooled connection. OK while the database answers.
  virtual Status Ping() = 0;

  // ---- Jobs (JobService) ----

  // Stores a QUEUED job (the spec is expected to be validated already) and notifies waiting
  // long-polls. spec.max_attempts == 0 is stored as kDefaultMaxAttempts. A non-empty
  // `request_id` makes the call idempotent per submitter (AIP-155): when `submitted_by` already
  // submitted a job with it, that job is returned as it is now and nothing is queued;
  // ALREADY_EXISTS when that job's spec differs from `spec`.
  virtual StatusOr<v1::Job> EnqueueJob(const v1::JobSpec& spec, int64_t points_total,
                                       const std::string& submitted_by,
                                       const std::string& request_id) = 0;
  // NOT_FOUND for an unknown id.
  virtual StatusOr<v1::Job> GetJob(int64_t id) = 0;
  // Keyset paging on id, newest first. INVALID_ARGUMENT for a malformed page token, or one from a
  // query with other filters.
  virtual StatusOr<JobPage> ListJobs(const JobFilter& filter) = 0;
  // QUEUED -> CANCELLED now (error = reason); RUNNING -> cancel_requested = true, and its worker
  // ends it CANCELLED later: only then does Job.error become the reason (a job that succeeds or
  // fails anyway keeps its own error). A finished job -> FAILED_PRECONDITION; NOT_FOUND for an
  // unknown id. Cancelling a RUNNING job twice is fine (the first reason stays). Returns the job
  // after the change.
  virtual StatusOr<v1::Job> CancelJob(int64_t id, const std::string& reason) = 0;
  // Number of jobs in each state; states without a job are absent. Feeds warpwatch_jobs{state}.
  virtual StatusOr<std::map<v1::JobState, int64_t>> CountJobsByState() = 0;
  // Unresolved findings of the detector (state OPEN or ACKNOWLEDGED: not yet DISMISSED or FIXED,
  // no longer SUSPECTED) by GPU model, family, kind and state; groups without one are absent.
  // Feeds warpwatch_regressions_open.
  virtual StatusOr<std::vector<RegressionCount>> CountOpenRegressions() = 0;

  // ---- Workers ----

  // Upserts the worker and its devices (device rows keyed by uuid now belong to this worker).
  // Reuses registration.worker_id when a worker of that id exists, otherwise creates a fresh id
  // (ids are never chosen by clients). The worker row is bound to caller.principal.
  // PERMISSION_DENIED, changing nothing, when registration.worker_id names a worker of another
  // principal, or a device belongs to a worker of another principal that is still online
  // (last_seen >= now() - online_window); an admin caller may do both.
  // INVALID_ARGUMENT for a device without a uuid.
  virtual StatusOr<std::string> RegisterWorker(const v1::RegisterRequest& registration,
                                               const WorkerCaller& caller,
                                               std::chrono::milliseconds online_window) = 0;
  // OK when `caller` may act as worker `worker_id`: the worker was registered by the same
  // principal, or the caller is an admin. NOT_FOUND for an unknown worker (register again),
  // PERMISSION_DENIED otherwise. Every WorkerService call but Register checks this first.
  virtual Status CheckWorkerCaller(const std::string& worker_id, const WorkerCaller& caller) = 0;
  // One page of registered workers with their devices (by CUDA ordinal) and their RUNNING jobs,
  // sorted by hostname then id (keyset paging). state is ONLINE when
  // last_seen >= now() - online_window, else OFFLINE (the database clock decides). All of a page
  // is read from one snapshot (REPEATABLE READ). INVALID_ARGUMENT for an unknown state or a bad
  // page token (malformed, or from a query with other states).
  virtual StatusOr<WorkerPage> ListWorkers(std::chrono::milliseconds online_window,
                                           const WorkerFilter& filter) = 0;
  // Workers ONLINE and OFFLINE (both present, maybe 0), by the same rule. Feeds warpwatch_workers.
  virtual StatusOr<std::map<v1::WorkerState, int64_t>> CountWorkersByState(
      std::chrono::milliseconds online_window) = 0;
  // Deletes workers not seen for `offline_for` that hold no job; their devices stay, unowned.
  // Returns how many were deleted.
  virtual StatusOr<int> PruneWorkers(std::chrono::milliseconds offline_for) = 0;

  // ---- Retention ----

  // Empties the per-sample arrays (samples, clocks, throttle flags, kernel times, groups) of at
  // most `batch` measurements whose run finished more than `older_than` ago; every summary stays
  // (median, percentiles, clocks, counters, occupancy, and Measurement.sample_count, so a reader
  // sees how many samples there were). Measurements of a pinned baseline run, and of a run that an
  // unresolved regression (SUSPECTED, OPEN, ACKNOWLEDGED) names, as its run, a baseline run or its
  // confirmation, keep theirs (detail/retention_sql.h). Rows another replica holds are skipped.
  // In the same statement each such measurement's stored document becomes slim: the fields its
  // summary columns hold and the copies of its counters are dropped from it
  // (detail/measurement_slim.h), so an old row keeps each fact once; every read (QueryMeasurements,
  // GetRun's measurements, explanations, incidents ...) rebuilds the same Measurement as before,
  // samples aside. Measurements emptied before slim documents existed (or stored as JSON before
  // migration 0010) are slimmed by later calls as well. Idempotent: a measurement done already is
  // not selected again; one whose document does not decode (every read of it fails too) loses its
  // samples and keeps its document. Returns how many measurements were emptied or slimmed.
  virtual StatusOr<int> DropOldSamples(std::chrono::hours older_than, int batch) = 0;

  // Folds at most `batch` measurements (summaries) whose run finished more than `older_than` ago
  // into measurement_rollup, one row per (series, device, ISO week of the run's start): the good
  // points' medians (status OK, verified, positive finite median) kept sorted, with their median,
  // p10, p90, min and max, the mean SM clock (points with a known clock) and the mean throttled
  // fraction; points that are not good are only counted (failed_points). The folded measurements
  // are deleted (their regressions keep their rows, measurement_id set NULL). Exempt, as for
  // DropOldSamples: measurements of pinned baseline runs and of runs an unresolved regression
  // names. A later fold into a week already rolled up merges exactly (the medians are kept), so
  // batch boundaries do not matter and a second call finds nothing to fold. Rows another replica
  // holds are skipped. Returns how many measurements were folded.
  virtual StatusOr<int> DownsampleSummaries(std::chrono::hours older_than, int batch) = 0;

  // ---- Measurement partitions (migration 0019, docs/partitioning.md) ----

  // Adds measurement partitions (run-id ranges) until two partitions' worth of run ids lie ahead
  // of run_id_seq; a partition spans the runs started in the last 7 days, at least
  // `min_partition_runs` (SQL warpwatch_keep_measurement_partitions). Each is attached under
  // SHARE UPDATE EXCLUSIVE on measurement (reads and writes go on). Also counts the rows of the
  // DEFAULT partition, which stays empty while the keeper keeps up. Serialized across replicas.
  virtual StatusOr<PartitionUpkeep> KeepPartitionsAhead(int64_t min_partition_runs) = 0;

  // Drops whole measurement partitions: a range partition whose run ids were all handed out and
  // whose every run finished more than `older_than` ago is folded into measurement_rollup (as
  // DownsampleSummaries folds rows), the regression and regression_run rows pointing into it get
  // measurement_id NULL (as a row-wise delete sets them), and it is detached and dropped, all in
  // one transaction per partition, at most `max_partitions` of them. A partition holding a
  // measurement of an exempt run (pinned, or named by an unresolved regression: the
  // DownsampleSummaries rule) is kept whole (kept_exempt; DownsampleSummaries folds its other
  // rows) and dropped by a later call once no exemption remains. Detaching takes ACCESS EXCLUSIVE
  // on measurement for a moment: it waits at most 5 s for it, else the call fails
  // (UNAVAILABLE/INTERNAL) and changes nothing. The DEFAULT partition is never dropped.
  virtual StatusOr<PartitionRetention> DropOldPartitions(std::chrono::hours older_than,
                                                         int max_partitions) = 0;

  // ---- Pinned baselines ----

  // Pins request.run_ids as one baseline (migration 0012) in one transaction. NOT_FOUND "run N not
  // found"; FAILED_PRECONDITION naming the run when it did not SUCCEED, when (series set) it has
  // no point of the series ("run N did not measure S") or that point is not good (failed,
  // unverified, throttled above `max_throttled_fraction`), or when (no series) none of its points
  // is good. INVALID_ARGUMENT for no run. Returns the pin as stored.
  virtual StatusOr<v1::BaselinePin> PinBaseline(const BaselinePinRequest& request,
                                                double max_throttled_fraction) = 0;
  // Deletes pin `id` (the series it covered go back to their rolling window at their next run);
  // returns it as it was. NOT_FOUND for an unknown id; `guard`'s error (it sees the pin as
  // stored, under its row lock), deleting nothing.
  using PinGuard = std::function<Status(const v1::BaselinePin& pin)>;
  virtual StatusOr<v1::BaselinePin> UnpinBaseline(int64_t id, const PinGuard& guard) = 0;
  // Keyset paging on id, newest first (as ListRuns).
  virtual StatusOr<BaselinePage> ListBaselines(const BaselineFilter& filter) = 0;

  // ---- Queue (WorkerService) ----

  // Claims the best QUEUED job (priority desc, then oldest id) whose selector matches device
  // `device_uuid` of this worker: model exact or glob (* and ?), uuid exact, every worker_labels
  // pair on the worker. Sets it RUNNING, leased to the worker until now + lease_duration, attempts
  // + 1, and creates the run row for (job, device). nullopt when no job matches. Concurrent claims
  // never hand out one job twice (FOR UPDATE SKIP LOCKED). A job this worker released (FinishJob
  // RELEASED) less than kReleaseBackoff ago is not handed back to it, so a claim/release loop
  // cannot keep a job from the other workers (migration 0017). NOT_FOUND for an unknown worker,
  // or a device not registered to this worker.
  // `claimant`, when given, receives what the selectors were matched against (the device's name,
  // the worker's labels), whether or not a job was leased: what a parked poll needs to tell which
  // notifications are for it, read in the same transaction.
  static constexpr std::chrono::milliseconds kReleaseBackoff{10000};
  virtual StatusOr<std::optional<Lease>> ClaimJob(const std::string& worker_id,
                                                  const std::string& device_uuid,
                                                  std::chrono::milliseconds lease_duration,
                                                  Claimant* claimant = nullptr) = 0;
  // A lease is a run: the worker holds run R while R is its job's current run, the job is
  // RUNNING and leased to the worker. Every lease operation below names the run, so a run that
  // lost its lease (requeued, then claimed again as a new run, even by the same worker) can no
  // longer extend, report on, finish or upload to the job.
  //
  // A worker's heartbeat, in one transaction: marks the worker seen (last_seen = now, ONLINE),
  // extends to now + lease_duration the leases of those `run_ids` the worker still holds, and
  // reports the others as lost and the held ones with a cancel request. An idle worker (no
  // run_ids) costs one UPDATE. NOT_FOUND for an unknown worker (nothing extended).
  virtual StatusOr<LeaseRenewal> RecordHeartbeat(const std::string& worker_id,
                                                 const std::vector<int64_t>& run_ids,
                                                 std::chrono::milliseconds lease_duration) = 0;
  // RUNNING jobs whose lease expired go back to QUEUED (their attempt stays counted) or, once
  // attempts reached max_attempts, to FAILED with error "lease expired N times; max_attempts M".
  // Their open runs are closed FAILED. Returns how many jobs were requeued or failed. Requeues
  // notify waiting long-polls.
  virtual StatusOr<int> RequeueExpiredLeases() = 0;
  // RUNNING jobs whose current attempt (its run) started longer ago than their limit
  // (spec.timeout_seconds, or `default_timeout` when that is 0) end FAILED with error
  // "timed out after N s"; their open runs close FAILED with the same error. Their workers learn it
  // as lost jobs at the next heartbeat. Returns how many jobs were failed.
  virtual StatusOr<int> FailTimedOutJobs(std::chrono::milliseconds default_timeout) = 0;
  // Ends a job through the run the worker holds (FAILED_PRECONDITION when `run_id` is not held,
  // NOT_FOUND for an unknown job): SUCCEEDED; FAILED with `error`; CANCELLED (only after a
  // cancel request, else FAILED_PRECONDITION); RELEASED puts it back to QUEUED without counting
  // the attempt. Closes the run. A job that ends (all but RELEASED) gets points_done = the
  // measurements its run stored, whatever progress was last reported. INVALID_ARGUMENT for
  // UNSPECIFIED.
  virtual StatusOr<v1::Job> FinishJob(const std::string& worker_id, int64_t job_id, int64_t run_id,
                                      v1::JobOutcome outcome, const std::string& error) = 0;
  // Records progress of a job through the run the worker holds (FAILED_PRECONDITION otherwise,
  // NOT_FOUND for an unknown job). Returns cancel_requested.
  virtual StatusOr<bool> UpdateProgress(const std::string& worker_id, int64_t job_id,
                                        int64_t run_id, int64_t points_done, int64_t points_total,
                                        const std::string& current_case) = 0;

  // ---- Measurements ----

  // Stores measurements of an open run that belongs to the worker (NOT_FOUND for an unknown run,
  // PERMISSION_DENIED for another worker's run, FAILED_PRECONDITION for a finished run: its
  // lease was lost, and its measurements no longer count). `environment`, when it has a device or a
  // hostname, is recorded on the run. Idempotent on (run, case canonical): a measurement already
  // stored is counted as a duplicate and left unchanged. series_id is set to "<canonical>@<device
  // model>". The batch is stored by one statement; each sample array is stored once.
  // INVALID_ARGUMENT for a measurement without case.canonical.
  virtual StatusOr<UploadCounts> UploadMeasurements(
      int64_t run_id, const std::string& worker_id, const v1::RunEnvironment& environment,
      const std::vector<v1::Measurement>& measurements) = 0;

  // The measurements of a run, every field as uploaded (run_id and series_id set by the server),
  // in upload order. NOT_FOUND for an unknown run.
  virtual StatusOr<std::vector<v1::Measurement>> ListRunMeasurements(int64_t run_id) = 0;

  // ---- History and triage (ResultService) ----

  // One run with its measurement_count. NOT_FOUND for an unknown id.
  virtual StatusOr<v1::Run> GetRun(int64_t run_id) = 0;
  // Keyset paging on id, newest first. INVALID_ARGUMENT for a malformed page token or one from a
  // query with other filters.
  virtual StatusOr<RunPage> ListRuns(const RunFilter& filter) = 0;
  // Keyset paging on measurement id. NOT_FOUND when run_id names no run; INVALID_ARGUMENT for a
  // bad page token (as ListRuns).
  virtual StatusOr<MeasurementPage> QueryMeasurements(const MeasurementQuery& query) = 0;
  // The series' points oldest first (each a measurement of the case in a SUCCEEDED run, or a week
  // of one device's runs that summary retention folded: SeriesPoint.downsampled), the
  // stored change points of the series (device_uuid '' = model-wide, else the device's) and the
  // regressions recorded on it (newest first; on the device when device_uuid is set). A model is
  // taken from the device when only device_uuid is given: NOT_FOUND when no run used that device.
  // INVALID_ARGUMENT when the device is not of gpu_model. An unknown case is an empty series.
  virtual StatusOr<v1::Series> GetSeries(const SeriesQuery& query) = 0;
  // Keyset paging on id, newest first (as ListRuns).
  virtual StatusOr<RegressionPage> ListRegressions(const RegressionFilter& filter) = 0;
  // Triage: OPEN -> ACKNOWLEDGED | DISMISSED | FIXED, ACKNOWLEDGED -> DISMISSED | FIXED. Sets
  // state, note, updated_by = actor, updated_at, and records a regression_event (from, to, actor,
  // note) in the same transaction. NOT_FOUND for an unknown id; FAILED_PRECONDITION naming both
  // states for any other transition; INVALID_ARGUMENT for a target that is not a triage state.
  virtual StatusOr<v1::Regression> UpdateRegression(int64_t id, v1::RegressionState to,
                                                    const std::string& note,
                                                    const std::string& actor) = 0;
  // Stores a RunResult measured offline as a run with job_id NULL, state SUCCEEDED,
  // content_sha256 = `content_sha256`, uploaded_by = uploader.principal, and analysis_state left
  // PENDING (the detector takes it), its measurements through the batch insert. The run's
  // history_owner is '' (the fleet's history) when uploader.fleet_history, else the uploader's
  // principal: the analysis compares it only with runs of that history. When a run of this
  // uploader with that digest exists, returns it with created = false and stores nothing.
  // INVALID_ARGUMENT for a result without environment.device.uuid / name, a measurement without
  // case.canonical, or an empty uploader.principal.
  virtual StatusOr<UploadedRun> StoreUploadedRun(const v1::RunResult& result,
                                                 const std::string& content_sha256,
                                                 const Uploader& uploader) = 0;

  // ---- Notifications ----

  // New-job notifications for the AcquireJob long-poll. Owned by the store; lives as long as it.
  virtual JobNotifier& job_notifier() = 0;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_STORE_H_
