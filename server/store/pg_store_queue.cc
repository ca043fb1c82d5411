// File: server/store/pg_store_queue.cc
// The job queue: claim with FOR UPDATE SKIP LOCKED, lease extension, expiry, finishing, progress.
#include <pqxx/pqxx>
#include <set>

#include "server/store/detail/conversions.h"
#include "server/store/detail/job_row.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {
namespace {

// "<now() + d>" in SQL for a lease of `d` milliseconds passed as parameter $n.
std::string LeaseEndSql(int n) {
  return "now() + $" + std::to_string(n) + "::bigint * interval '1 millisecond'";
}

// Why a worker may not touch job `id` through run `run_id`: NOT_FOUND, or FAILED_PRECONDITION
// naming the state and whether the run is no longer the job's current one.
Status NotHeldError(pqxx::work& tx, int64_t id, int64_t run_id, const std::string& worker_id) {
  pqxx::result r = tx.exec_params(
      "SELECT state, coalesce(lease_owner, ''), coalesce(current_run_id, 0) FROM job WHERE id = $1",
      id);
  if (r.empty()) return NotFoundError("job " + std::to_string(id) + " not found");
  const int64_t current = r[0][2].as<int64_t>();
  std::string why = "state " + r[0][0].as<std::string>();
  if (current != run_id) why += ", current run " + std::to_string(current);
  return FailedPreconditionError("run " + std::to_string(run_id) + " of job " + std::to_string(id) +
                                 " is not held by worker " + worker_id + " (" + why +
                                 "): its lease was lost");
}

// True for a node job (JobSpec.node_scoped, stored in the spec's JSON under its proto name).
constexpr const char* kNodeScopedSql = "coalesce((j.spec->>'node_scoped')::boolean, false)";

// The WHERE clause of a job held through a run: $1 job id, $2 worker id, $3 run id.
constexpr const char* kHeldByRun =
    "id = $1 AND state = 'RUNNING' AND lease_owner = $2 AND current_run_id = $3";

}  // namespace

StatusOr<std::optional<Lease>> PgStore::ClaimJob(const std::string& worker_id,
                                                 const std::string& device_uuid,
                                                 std::chrono::milliseconds lease_duration,
                                                 Claimant* claimant) {
  using Result = std::optional<Lease>;
  return Run<Result>("ClaimJob", [&](pqxx::work& tx) -> StatusOr<Result> {
    pqxx::result owner = tx.exec_params(
        "SELECT w.labels::text, d.name FROM worker w JOIN device d ON d.worker_id = w.id"
        " WHERE w.id = $1 AND d.uuid = $2",
        worker_id, device_uuid);
    if (owner.empty()) {
      if (tx.exec_params("SELECT 1 FROM worker WHERE id = $1", worker_id).empty()) {
        return NotFoundError("worker " + worker_id + " not registered");
      }
      return NotFoundError("device " + device_uuid + " is not registered to worker " + worker_id);
    }
    const std::string worker_labels = owner[0][0].as<std::string>();
    const std::string device_name = owner[0][1].as<std::string>();
    if (claimant != nullptr) {
      claimant->device_uuid = device_uuid;
      claimant->device_name = device_name;
      ASSIGN_OR_RETURN(claimant->worker_labels, StringMapFromJson(worker_labels));
    }
    // Node jobs (JobSpec.node_scoped) lease every GPU of one worker: its GPUs' claims are
    // serialised (a transaction-scoped advisory lock per worker, which heartbeats' row updates
    // never wait for), so that two GPUs of one worker never see the same "idle" and lease half a
    // node to a node job and half to GPU jobs.
    tx.exec_params("SELECT pg_advisory_xact_lock(hashtextextended('warpwatch claim ' || $1, 0))",
                   worker_id);
    pqxx::result held = tx.exec_params(
        "SELECT count(*), coalesce(bool_or(" + std::string(kNodeScopedSql) + "), false)"
        " FROM job j WHERE j.state = 'RUNNING' AND j.lease_owner = $1",
        worker_id);
    const bool worker_idle = held.at(0).at(0).as<int64_t>() == 0;
    // A running node job holds every GPU of the worker: none of them claims anything else.
    if (held.at(0).at(1).as<bool>()) return Result();
    pqxx::result candidate = tx.exec_params(
        "SELECT j.id, " + std::string(kNodeScopedSql) + " FROM job j WHERE j.state = 'QUEUED'"
        // A GPU job's selector matches this GPU; a node job's matches any GPU of this worker
        // (a schedule pins it to the node's first GPU), so that every GPU of the worker sees it
        // at the head of the queue and drains for it, whichever GPU it names.
        "   AND (CASE WHEN " + std::string(kNodeScopedSql) +
            " THEN EXISTS (SELECT 1 FROM device d WHERE d.worker_id = $4::text"
            "   AND (j.selector_gpu_model = '' OR d.name LIKE ww_glob_to_like(j.selector_gpu_model))"
            "   AND (j.selector_gpu_uuid = '' OR j.selector_gpu_uuid = d.uuid))"
            " ELSE (j.selector_gpu_model = '' OR $1::text LIKE ww_glob_to_like(j.selector_gpu_model))"
            "   AND (j.selector_gpu_uuid = '' OR j.selector_gpu_uuid = $2::text) END)"
        "   AND $3::jsonb @> j.selector_worker_labels"
        "   AND NOT (j.released_by IS NOT DISTINCT FROM $4::text"
        "            AND j.released_at > now() - $5::bigint * interval '1 millisecond')"
        " ORDER BY j.priority DESC, j.id LIMIT 1 FOR UPDATE SKIP LOCKED",
        device_name, device_uuid, worker_labels, worker_id,
        static_cast<int64_t>(kReleaseBackoff.count()));
    if (candidate.empty()) return Result();
    const int64_t job_id = candidate[0][0].as<int64_t>();
    const bool node_job = candidate[0][1].as<bool>();
    // The queue's order holds for both kinds: a node job at the head of what this worker may take
    // drains the worker (its GPUs start nothing queued after it; jobs already running finish), so
    // GPU jobs arriving behind it cannot starve it; GPU jobs queued before it (by priority, then
    // age) run first, so it cannot starve them.
    if (node_job && !worker_idle) return Result();
    // A node job runs as its node's GPU: the one its selector names, else the worker's first GPU
    // (CUDA ordinal, then UUID) of its selector's model, which is the GPU a schedule's fan-out
    // pins. Only that GPU's claim leases it, so the run, its series and its environment belong
    // to the same GPU every night, whichever GPU went idle last. The others stay drained; the
    // node's GPU, parked in its long poll, takes it at its next poll (AcquireJob's wait at the
    // most: waking it here would wake every parked GPU of the worker, and would keep waking them
    // while the node's GPU does not poll).
    if (node_job) {
      pqxx::result own = tx.exec_params(
          "SELECT d.uuid FROM job j JOIN device d ON d.worker_id = $2"
          " WHERE j.id = $1"
          "   AND (j.selector_gpu_model = '' OR d.name LIKE ww_glob_to_like(j.selector_gpu_model))"
          "   AND (j.selector_gpu_uuid = '' OR j.selector_gpu_uuid = d.uuid)"
          " ORDER BY d.device_index, d.uuid LIMIT 1",
          job_id, worker_id);
      if (own.empty() || own[0][0].as<std::string>() != device_uuid) return Result();
    }
    const int64_t run_id =
        tx.exec_params(
              "INSERT INTO run (job_id, worker_id, device_uuid, device_name, state, labels)"
              " SELECT id, $2, $3, $4, 'RUNNING', labels FROM job WHERE id = $1 RETURNING id",
              job_id, worker_id, device_uuid, device_name)
            .at(0)
            .at(0)
            .as<int64_t>();
    // started_at is the lease's moment (clock_timestamp()), not the claim transaction's start
    // (now()): the claim may have waited for the worker's advisory lock, and a node job's start
    // must not read earlier than the end of the GPU jobs whose finish made the worker idle.
    pqxx::result updated = tx.exec_params(
        "UPDATE job j SET state = 'RUNNING', lease_owner = $2, lease_expiry = " + LeaseEndSql(3) +
            ", attempts = j.attempts + 1, current_run_id = $4, device_uuid = $5,"
            " started_at = coalesce(j.started_at, clock_timestamp()), points_done = 0,"
            " current_case = ''"
            " WHERE j.id = $1 RETURNING " +
            JobColumns(),
        job_id, worker_id, static_cast<int64_t>(lease_duration.count()), run_id, device_uuid);
    Lease lease;
    ASSIGN_OR_RETURN(lease.job, JobFromRow(updated.at(0)));
    lease.run_id = run_id;
    lease.expiry = lease.job.lease_expiry();
    // Workers that drained for this node job may take GPU jobs again: wake every parked poll.
    if (node_job) NotifyJobQueued(tx, 0);
    return Result(std::move(lease));
  });
}

namespace {

// The lease part of RecordHeartbeat, in `tx`.
LeaseRenewal ExtendLeasesIn(pqxx::work& tx, const std::string& worker_id,
                            const std::vector<int64_t>& run_ids, int64_t duration_ms) {
  LeaseRenewal renewal;
  // now() is fixed for the transaction, so both statements compute the same expiry.
  renewal.expiry =
      TimestampFromMicros(tx.exec_params("SELECT " + MicrosSql(LeaseEndSql(1)), duration_ms)
                              .at(0)
                              .at(0)
                              .as<int64_t>());
  if (run_ids.empty()) return renewal;  // an idle worker: nothing to extend
  // Only a job's current run holds its lease.
  pqxx::result held = tx.exec_params(
      "UPDATE job SET lease_expiry = " + LeaseEndSql(3) +
          " WHERE current_run_id = ANY($2::bigint[]) AND state = 'RUNNING' AND lease_owner = $1"
          " RETURNING current_run_id, cancel_requested",
      worker_id, BigintArrayLiteral(run_ids), duration_ms);
  std::set<int64_t> held_runs;
  for (const pqxx::row& row : held) {
    held_runs.insert(row[0].as<int64_t>());
    if (row[1].as<bool>()) renewal.cancel_requested_run_ids.push_back(row[0].as<int64_t>());
  }
  for (int64_t id : run_ids) {
    if (held_runs.count(id) == 0) renewal.lost_run_ids.push_back(id);
  }
  return renewal;
}

}  // namespace

StatusOr<LeaseRenewal> PgStore::RecordHeartbeat(const std::string& worker_id,
                                                const std::vector<int64_t>& run_ids,
                                                std::chrono::milliseconds lease_duration) {
  return Run<LeaseRenewal>("RecordHeartbeat", [&](pqxx::work& tx) -> StatusOr<LeaseRenewal> {
    pqxx::result touched = tx.exec_params(
        "UPDATE worker SET last_seen = now(), state = 'ONLINE' WHERE id = $1", worker_id);
    if (touched.affected_rows() == 0) return NotFoundError("worker " + worker_id + " not registered");
    return ExtendLeasesIn(tx, worker_id, run_ids, lease_duration.count());
  });
}

StatusOr<int> PgStore::RequeueExpiredLeases() {
  return Run<int>("RequeueExpiredLeases", [&](pqxx::work& tx) -> StatusOr<int> {
    // A job whose cancel was requested ends CANCELLED rather than running again.
    pqxx::result r = tx.exec(
        "WITH expired AS ("
        "  SELECT id FROM job WHERE state = 'RUNNING' AND lease_expiry < now()"
        "  FOR UPDATE SKIP LOCKED)"
        " UPDATE job j SET"
        "   state = CASE WHEN j.cancel_requested THEN 'CANCELLED'"
        "                WHEN j.attempts >= j.max_attempts THEN 'FAILED' ELSE 'QUEUED' END,"
        "   error = CASE WHEN j.cancel_requested THEN j.cancel_reason"
        "                WHEN j.attempts >= j.max_attempts THEN 'lease expired ' || j.attempts ||"
        "                  ' times; max_attempts ' || j.max_attempts"
        "                ELSE j.error END,"
        "   finished_at = CASE WHEN j.cancel_requested OR j.attempts >= j.max_attempts"
        "                      THEN now() END,"
        "   lease_owner = NULL, lease_expiry = NULL, current_case = ''"
        " FROM expired WHERE j.id = expired.id"
        " RETURNING j.id, j.state, j.current_run_id");
    std::vector<int64_t> requeued, runs;
    for (const pqxx::row& row : r) {
      if (row[1].as<std::string>() == "QUEUED") requeued.push_back(row[0].as<int64_t>());
      if (!row[2].is_null()) runs.push_back(row[2].as<int64_t>());
    }
    tx.exec_params(
        "UPDATE run SET state = 'FAILED', error = 'lease expired', finished_at = now()"
        " WHERE id = ANY($1::bigint[]) AND finished_at IS NULL",
        BigintArrayLiteral(runs));
    NotifyJobsQueued(tx, requeued);
    return static_cast<int>(r.size());
  });
}

StatusOr<v1::Job> PgStore::FinishJob(const std::string& worker_id, int64_t job_id, int64_t run_id,
                                     v1::JobOutcome outcome, const std::string& error) {
  if (outcome == v1::JOB_OUTCOME_UNSPECIFIED || !v1::JobOutcome_IsValid(outcome)) {
    return InvalidArgumentError("outcome: unspecified");
  }
  return Run<v1::Job>("FinishJob", [&](pqxx::work& tx) -> StatusOr<v1::Job> {
    pqxx::result r = tx.exec_params(
        "SELECT cancel_requested, " + std::string(kNodeScopedSql) + " FROM job j WHERE " +
            kHeldByRun + " FOR UPDATE",
        job_id, worker_id, run_id);
    if (r.empty()) return NotHeldError(tx, job_id, run_id, worker_id);
    const bool cancel_requested = r[0][0].as<bool>();
    const bool node_job = r[0][1].as<bool>();
    std::string job_update;
    std::string run_state;
    std::string run_error = error;
    bool requeued = false;
    switch (outcome) {
      case v1::JOB_OUTCOME_SUCCEEDED:
        job_update = "state = 'SUCCEEDED', finished_at = now()";
        run_state = "SUCCEEDED";
        break;
      case v1::JOB_OUTCOME_FAILED:
        if (run_error.empty()) run_error = "failed on worker " + worker_id;
        job_update = "state = 'FAILED', finished_at = now()";
        run_state = "FAILED";
        break;
      case v1::JOB_OUTCOME_CANCELLED:
        if (!cancel_requested) {
          return FailedPreconditionError("job " + std::to_string(job_id) +
                                         " cannot end CANCELLED: no cancel was requested");
        }
        job_update = "state = 'CANCELLED', finished_at = now()";
        run_state = "CANCELLED";
        break;
      default:  // RELEASED
        if (cancel_requested) {
          // A user cancelled it while it ran: handing it back must not run it again.
          if (run_error.empty()) run_error = "cancelled; released by worker " + worker_id;
          job_update = "state = 'CANCELLED', finished_at = now()";
          run_state = "CANCELLED";
          break;
        }
        // Back to the queue; this lease does not count as an attempt.
        if (run_error.empty()) run_error = "released by worker " + worker_id;
        job_update = "state = 'QUEUED', attempts = greatest(attempts - 1, 0)";
        run_state = "FAILED";
        requeued = true;
        break;
    }
    // Job.error: the worker's reason when FAILED, the user's when CANCELLED, else unchanged.
    // A job that ends says as done the points its run stored: progress reports are throttled and
    // the last ones never arrive (the worker drops a pending report when the run finishes), so
    // without this a SUCCEEDED job showed 1/11 while its run held all 11 measurements.
    tx.exec_params("UPDATE job j SET " + job_update +
                       ", error = CASE WHEN $2::boolean THEN $3::text"
                       "               WHEN $4::boolean THEN j.cancel_reason ELSE j.error END,"
                       " points_done = CASE WHEN $5::boolean"
                       "   THEN (SELECT count(*) FROM measurement m WHERE m.run_id = $6)"
                       "   ELSE j.points_done END,"
                       " lease_owner = NULL, lease_expiry = NULL, current_case = '',"
                       // Who handed it back, for ClaimJob's kReleaseBackoff (migration 0017).
                       " released_by = CASE WHEN $5::boolean THEN j.released_by ELSE $7 END,"
                       " released_at = CASE WHEN $5::boolean THEN j.released_at ELSE now() END"
                       " WHERE j.id = $1",
                   job_id, outcome == v1::JOB_OUTCOME_FAILED, run_error, run_state == "CANCELLED",
                   !requeued, run_id, worker_id);
    tx.exec_params("UPDATE run SET state = $2, error = $3, finished_at = now() WHERE id = $1",
                   run_id, run_state, run_error);
    if (requeued) NotifyJobQueued(tx, job_id);
    // The worker's other GPUs parked while the node job held them: wake every parked poll.
    if (node_job && !requeued) NotifyJobQueued(tx, 0);
    pqxx::result job =
        tx.exec_params("SELECT " + JobColumns() + " FROM job j WHERE j.id = $1", job_id);
    return JobFromRow(job.at(0));
  });
}

StatusOr<bool> PgStore::UpdateProgress(const std::string& worker_id, int64_t job_id, int64_t run_id,
                                       int64_t points_done, int64_t points_total,
                                       const std::string& current_case) {
  return Run<bool>("UpdateProgress", [&](pqxx::work& tx) -> StatusOr<bool> {
    pqxx::result r = tx.exec_params(
        "UPDATE job SET points_done = $4,"
        " points_total = CASE WHEN $5::bigint > 0 THEN $5::bigint ELSE points_total END,"
        " current_case = $6"
        " WHERE " +
            std::string(kHeldByRun) + " RETURNING cancel_requested",
        job_id, worker_id, run_id, points_done, points_total, current_case);
    if (r.empty()) return NotHeldError(tx, job_id, run_id, worker_id);
    return r[0][0].as<bool>();
  });
}

}  // namespace warpwatch::server::detail
