// File: server/store/store.h
// The server's only view of its database: jobs, the job queue with leases, the worker registry and
// measurement ingest. PostgreSQL implements it (pg_store.h); tests may hand in a fake.
#ifndef WARPWATCH_SERVER_STORE_STORE_H_
#define WARPWATCH_SERVER_STORE_STORE_H_

#include <google/protobuf/timestamp.pb.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/common.pb.h"
#include "warpwatch/v1/fleet.pb.h"
#include "warpwatch/v1/job.pb.h"
#include "warpwatch/v1/measurement.pb.h"
#include "warpwatch/v1/worker.pb.h"

namespace warpwatch::server {

// Default and upper bound of JobFilter::page_size.
inline constexpr int kDefaultJobPageSize = 50;
inline constexpr int kMaxJobPageSize = 1000;
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
  int page_size = 0;       // 0 = kDefaultJobPageSize; clamped to kMaxJobPageSize
  std::string page_token;  // JobPage::next_page_token of the previous page; empty = first page
};

struct JobPage {
  std::vector<v1::Job> jobs;    // newest (highest id) first
  std::string next_page_token;  // empty on the last page
};

// A job handed to a worker for one of its GPUs.
struct Lease {
  v1::Job job;                         // as stored after the claim (RUNNING, attempts counted)
  int64_t run_id = 0;                  // the run created for (job, device)
  google::protobuf::Timestamp expiry;  // the worker must heartbeat before this
};

// What a heartbeat learned about the leases it tried to extend.
struct LeaseRenewal {
  std::vector<int64_t> lost_job_ids;  // not RUNNING under this worker any more: stop them
  std::vector<int64_t> cancel_requested_job_ids;  // still held, but a user asked to cancel
  google::protobuf::Timestamp expiry;             // new expiry of the leases still held
};

struct UploadCounts {
  int inserted = 0;
  int duplicates = 0;  // (run, case canonical) already stored: ignored
};

// Wakes long-polls when jobs become claimable (PostgreSQL LISTEN/NOTIFY underneath).
// Usage without lost wake-ups:
//   uint64_t seen = notifier.Generation();
//   ... ClaimJob() found nothing ...
//   notifier.WaitForJob(seen, remaining);   // returns at once if a job arrived since `seen`
// Thread-safe. A generation change is a hint, not a promise: claim again and expect to lose races.
// When the listening connection breaks, the generation also advances once it is re-established
// (notifications may have been missed meanwhile).
class JobNotifier {
 public:
  virtual ~JobNotifier() = default;
  // Increases by at least one for every notification received.
  virtual uint64_t Generation() const = 0;
  // Blocks until Generation() > seen or `timeout` passes. True when the generation advanced.
  virtual bool WaitForJob(uint64_t seen, std::chrono::milliseconds timeout) = 0;
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
  // long-polls. spec.max_attempts == 0 is stored as kDefaultMaxAttempts.
  virtual StatusOr<v1::Job> EnqueueJob(const v1::JobSpec& spec, int64_t points_total,
                                       const std::string& submitted_by) = 0;
  // NOT_FOUND for an unknown id.
  virtual StatusOr<v1::Job> GetJob(int64_t id) = 0;
  // Keyset paging on id, newest first. INVALID_ARGUMENT for a malformed page token.
  virtual StatusOr<JobPage> ListJobs(const JobFilter& filter) = 0;
  // QUEUED -> CANCELLED now (error = reason); RUNNING -> cancel_requested = true (its worker ends
  // it CANCELLED later); a finished job -> FAILED_PRECONDITION; NOT_FOUND for an unknown id.
  // Cancelling a RUNNING job twice is fine. Returns the job after the change.
  virtual StatusOr<v1::Job> CancelJob(int64_t id, const std::string& reason) = 0;
  // Number of jobs in each state; states without a job are absent. Feeds warpwatch_jobs{state}.
  virtual StatusOr<std::map<v1::JobState, int64_t>> CountJobsByState() = 0;

  // ---- Workers ----

  // Upserts the worker and its devices (device rows keyed by uuid now belong to this worker).
  // Reuses registration.worker_id when it is non-empty, otherwise creates a fresh id.
  // INVALID_ARGUMENT for a device without a uuid.
  virtual StatusOr<std::string> RegisterWorker(const v1::RegisterRequest& registration) = 0;
  // Records a heartbeat (last_seen = now). NOT_FOUND for an unknown worker.
  virtual Status TouchWorker(const std::string& worker_id) = 0;
  // Every registered worker with its devices (by CUDA ordinal) and its RUNNING jobs, sorted by
  // hostname then id. state is ONLINE when last_seen >= now() - online_window, else OFFLINE
  // (the database clock decides). `states` filters (empty = all).
  virtual StatusOr<std::vector<v1::WorkerInfo>> ListWorkers(
      std::chrono::milliseconds online_window, const std::vector<v1::WorkerState>& states) = 0;

  // ---- Queue (WorkerService) ----

  // Claims the best QUEUED job (priority desc, then oldest id) whose selector matches device
  // `device_uuid` of this worker: model exact or glob (* and ?), uuid exact, every worker_labels
  // pair on the worker. Sets it RUNNING, leased to the worker until now + lease_duration, attempts
  // + 1, and creates the run row for (job, device). nullopt when no job matches. Concurrent claims
  // never hand out one job twice (FOR UPDATE SKIP LOCKED). NOT_FOUND for an unknown worker, or a
  // device not registered to this worker.
  virtual StatusOr<std::optional<Lease>> ClaimJob(const std::string& worker_id,
                                                  const std::string& device_uuid,
                                                  std::chrono::milliseconds lease_duration) = 0;
  // Extends to now + lease_duration the leases of those `job_ids` the worker still holds, and
  // reports the others as lost and the held ones with a cancel request.
  virtual StatusOr<LeaseRenewal> ExtendLeases(const std::string& worker_id,
                                              const std::vector<int64_t>& job_ids,
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
  // Ends a job the worker holds (RUNNING with lease_owner == worker_id; FAILED_PRECONDITION
  // otherwise, NOT_FOUND for an unknown job): SUCCEEDED; FAILED with `error`; CANCELLED (only
  // after a cancel request, else FAILED_PRECONDITION); RELEASED puts it back to QUEUED without
  // counting the attempt. Closes the job's open run. INVALID_ARGUMENT for UNSPECIFIED.
  virtual StatusOr<v1::Job> FinishJob(const std::string& worker_id, int64_t job_id,
                                      v1::JobOutcome outcome, const std::string& error) = 0;
  // Records progress of a job the worker holds (FAILED_PRECONDITION otherwise, NOT_FOUND for an
  // unknown job). Returns cancel_requested.
  virtual StatusOr<bool> UpdateProgress(const std::string& worker_id, int64_t job_id,
                                        int64_t points_done, int64_t points_total,
                                        const std::string& current_case) = 0;

  // ---- Measurements ----

  // Stores measurements of a run that belongs to the worker (NOT_FOUND for an unknown run,
  // PERMISSION_DENIED for another worker's run). `environment`, when it has a device or a hostname,
  // is recorded on the run. Idempotent on (run, case canonical): a measurement already stored is
  // counted as a duplicate and left unchanged. series_id is set to "<canonical>@<device model>".
  // INVALID_ARGUMENT for a measurement without case.canonical.
  virtual StatusOr<UploadCounts> UploadMeasurements(
      int64_t run_id, const std::string& worker_id, const v1::RunEnvironment& environment,
      const std::vector<v1::Measurement>& measurements) = 0;

  // ---- Notifications ----

  // New-job notifications for the AcquireJob long-poll. Owned by the store; lives as long as it.
  virtual JobNotifier& job_notifier() = 0;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_STORE_H_
