// File: server/store/pg_schedule_fire.cc
// Fires: the scheduler's claim of due schedules (FOR UPDATE SKIP LOCKED, one schedule per
// transaction), TriggerSchedule, and the fan-out both share (one job per matching GPU, pinned to
// it by uuid, in one INSERT ... SELECT).
#include <algorithm>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_job_notifier.h"
#include "server/store/detail/pg_schedule_store_impl.h"
#include "server/store/detail/schedule_row.h"
#include "server/store/store.h"

namespace warpwatch::server::detail {
namespace {

// GPUs a fire of `selector` fans out to, by hostname then CUDA ordinal. `one_per_worker` (a node
// job template): each matching worker's first matching GPU only, the node job's one run there.
std::vector<std::string> MatchingDevices(pqxx::work& tx, const v1::DeviceSelector& selector,
                                         std::chrono::milliseconds online_window,
                                         bool one_per_worker) {
  const std::string labels = StringMapToJson(
      std::map<std::string, std::string>(selector.worker_labels().begin(),
                                         selector.worker_labels().end()));
  pqxx::result r = tx.exec_params(
      "SELECT uuid FROM (SELECT d.uuid, w.hostname, d.device_index,"
      "   row_number() OVER (PARTITION BY w.id ORDER BY d.device_index, d.uuid) AS nth"
      " FROM device d JOIN worker w ON w.id = d.worker_id"
      " WHERE w.last_seen >= now() - $1::bigint * interval '1 millisecond'"
      "   AND ($2::text = '' OR d.name LIKE ww_glob_to_like($2::text))"
      "   AND ($3::text = '' OR d.uuid = $3::text)"
      "   AND w.labels @> $4::jsonb) m"
      " WHERE NOT $5::boolean OR m.nth = 1"
      " ORDER BY hostname, device_index, uuid",
      static_cast<int64_t>(online_window.count()), selector.gpu_model(), selector.gpu_uuid(),
      labels, one_per_worker);
  std::vector<std::string> uuids;
  for (const pqxx::row& row : r) uuids.push_back(row[0].as<std::string>());
  return uuids;
}

StatusOr<v1::ScheduleRun> SelectRun(pqxx::work& tx, int64_t run_id) {
  pqxx::result r = tx.exec_params("SELECT " + ScheduleRunColumns() +
                                      " FROM schedule_run r JOIN schedule s ON s.id = r.schedule_id"
                                      " WHERE r.id = $1",
                                  run_id);
  if (r.empty()) return NotFoundError("schedule run " + std::to_string(run_id) + " not found");
  v1::ScheduleRun run = ScheduleRunFromRow(r[0]);
  ReadScheduleRunJobs(tx, {&run});
  return run;
}

// A claimed schedule whose row does not decode (a job template or selector this server's protos
// cannot read, e.g. written by a newer version): recorded as a SKIPPED run naming the error and
// retried an hour later, so one bad row never holds back the schedules due after it.
schedule::FireOutcome SkipUndecodable(pqxx::work& tx, const pqxx::row& row, absl::Time now,
                                      const Status& error) {
  const int64_t id = row[0].as<int64_t>();
  const int64_t due_micros = row[9].as<int64_t>();
  schedule::FireOutcome outcome;
  outcome.schedule_name = row[1].as<std::string>();
  outcome.due_at = FromMicros(due_micros);
  outcome.skipped_reason = "undecodable schedule: " + error.message();
  const absl::Time retry = std::max(now, outcome.due_at) + absl::Hours(1);
  pqxx::result inserted = tx.exec_params(
      "INSERT INTO schedule_run (schedule_id, due_at, trigger, state, skipped_reason, created_by)"
      " VALUES ($1, 'epoch'::timestamptz + $2::bigint * interval '1 microsecond', 'CRON',"
      "         'SKIPPED', $3, $4)"
      " ON CONFLICT (schedule_id, due_at) WHERE trigger = 'CRON' DO NOTHING RETURNING id",
      id, due_micros, outcome.skipped_reason, std::string(schedule::kSchedulerActor));
  if (!inserted.empty()) outcome.schedule_run_id = inserted[0][0].as<int64_t>();
  tx.exec_params(
      "UPDATE schedule SET next_fire_at = 'epoch'::timestamptz + $2::bigint * interval "
      "'1 microsecond' WHERE id = $1",
      id, ToMicros(retry));
  return outcome;
}

}  // namespace

// Cancels the jobs of the schedule's latest fire that are still QUEUED for a GPU whose worker is
// offline (not seen within `online_window`, or its GPU no longer registered): the fire about to
// happen supersedes them (it fans out to online GPUs only). Without this, one node that died after
// a fire kept its pinned job QUEUED for ever, and with allow_overlap off every later fire of the
// schedule was SKIPPED ("overlap"): one dead node stopped the whole fleet's nightly suite. Jobs of
// online GPUs, queued or running, are left alone (a slow night still overlaps). Returns how many.
int SupersedeOfflineJobs(pqxx::work& tx, int64_t schedule_id,
                         std::chrono::milliseconds online_window) {
  return static_cast<int>(
      tx.exec_params(
            "UPDATE job j SET state = 'CANCELLED', cancel_requested = true,"
            "  cancel_reason = $3, error = $3, finished_at = now()"
            " WHERE j.state = 'QUEUED' AND j.schedule_run_id = (SELECT r.id FROM schedule_run r"
            "   WHERE r.schedule_id = $1 AND r.state = 'FIRED' ORDER BY r.id DESC LIMIT 1)"
            "  AND NOT EXISTS (SELECT 1 FROM device d JOIN worker w ON w.id = d.worker_id"
            "   WHERE d.uuid = j.selector_gpu_uuid"
            "    AND w.last_seen >= now() - $2::bigint * interval '1 millisecond')"
            " RETURNING j.id",
            schedule_id, static_cast<int64_t>(online_window.count()),
            std::string("superseded by the schedule's next fire: its GPU's worker was offline"))
          .size());
}

bool PreviousRunActive(pqxx::work& tx, int64_t schedule_id) {
  return tx
      .exec_params(
          "SELECT EXISTS (SELECT 1 FROM job j WHERE j.state IN ('QUEUED', 'RUNNING')"
          "  AND j.schedule_run_id = (SELECT r.id FROM schedule_run r"
          "    WHERE r.schedule_id = $1 AND r.state = 'FIRED' ORDER BY r.id DESC LIMIT 1))",
          schedule_id)
      .at(0)
      .at(0)
      .as<bool>();
}

StatusOr<FireRows> InsertFire(pqxx::work& tx, const v1::Schedule& schedule, int64_t points_total,
                              int64_t due_micros, bool manual, const std::string& actor,
                              const std::string& skipped_reason,
                              std::chrono::milliseconds online_window) {
  FireRows rows;
  rows.skipped_reason = skipped_reason;
  std::vector<std::string> devices;
  if (rows.skipped_reason.empty()) {
    devices = MatchingDevices(tx, schedule.selector(), online_window,
                              schedule.job_template().node_scoped());
    if (devices.empty()) rows.skipped_reason = schedule::kSkippedNoDevice;
  }
  pqxx::result inserted = tx.exec_params(
      "INSERT INTO schedule_run (schedule_id, due_at, trigger, state, skipped_reason, created_by)"
      " VALUES ($1, 'epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3,"
      "         CASE WHEN $4::text = '' THEN 'FIRED' ELSE 'SKIPPED' END, $4, $5)"
      " ON CONFLICT (schedule_id, due_at) WHERE trigger = 'CRON' DO NOTHING RETURNING id",
      schedule.id(), due_micros, std::string(manual ? "MANUAL" : "CRON"), rows.skipped_reason,
      actor);
  if (inserted.empty()) return rows;  // another replica fired this due time
  rows.run_id = inserted[0][0].as<int64_t>();
  if (devices.empty()) return rows;

  v1::JobSpec spec = schedule.job_template();
  spec.clear_selector();
  if (spec.max_attempts() <= 0) spec.set_max_attempts(kDefaultMaxAttempts);
  ASSIGN_OR_RETURN(std::string spec_json, MessageToJson(spec));
  const std::string labels = StringMapToJson(
      std::map<std::string, std::string>(spec.labels().begin(), spec.labels().end()));
  const std::string submitted_by =
      manual ? actor : std::string(schedule::kSchedulerActor) + ":" + schedule.name();
  pqxx::result jobs = tx.exec_params(
      "INSERT INTO job (spec, state, priority, max_attempts, points_total, submitted_by, labels,"
      "  selector_gpu_model, selector_gpu_uuid, selector_worker_labels, schedule_run_id)"
      " SELECT jsonb_set($1::jsonb, '{selector}', jsonb_build_object('gpu_uuid', u.uuid)),"
      "   'QUEUED', $2, $3, $4, $5, $6::jsonb, '', u.uuid, '{}'::jsonb, $7"
      " FROM unnest($8::text[]) WITH ORDINALITY AS u (uuid, n) ORDER BY u.n"
      " RETURNING id",
      spec_json, spec.priority(), spec.max_attempts(), points_total, submitted_by, labels,
      rows.run_id, TextArrayLiteral(devices));
  rows.jobs = static_cast<int>(jobs.size());
  std::vector<int64_t> job_ids;
  for (const pqxx::row& row : jobs) job_ids.push_back(row[0].as<int64_t>());
  NotifyJobsQueued(tx, job_ids);  // one per job: each wakes only its GPU's poll
  return rows;
}

StatusOr<std::optional<schedule::FireOutcome>> PgScheduleStore::FireNextDue(
    absl::Time now, const Decide& decide) {
  using Result = std::optional<schedule::FireOutcome>;
  return Run<Result>("FireNextDue", [&](pqxx::work& tx) -> StatusOr<Result> {
    pqxx::result r = tx.exec_params(
        "SELECT " + ScheduleColumns() +
            ", s.points_total FROM schedule s"
            " WHERE s.enabled"
            "   AND s.next_fire_at <= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
            " ORDER BY s.next_fire_at LIMIT 1 FOR UPDATE SKIP LOCKED",
        ToMicros(now));
    if (r.empty()) return Result();
    schedule::DueSchedule due;
    StatusOr<v1::Schedule> decoded = ScheduleFromRow(r[0]);
    if (!decoded.ok()) return Result(SkipUndecodable(tx, r[0], now, decoded.status()));
    due.schedule = std::move(decoded).value();
    const int64_t points_total = r[0][15].as<int64_t>();
    due.next_fire_at = FromMicros(MicrosFromTimestamp(due.schedule.next_fire_at()));
    SupersedeOfflineJobs(tx, due.schedule.id(), online_window_);
    due.previous_run_active = PreviousRunActive(tx, due.schedule.id());
    const schedule::FireDecision decision = decide(due);
    if (decision.next_fire_at <= due.next_fire_at) {
      return InternalError("FireNextDue: schedule \"" + due.schedule.name() +
                           "\": the next due time must move forward");
    }
    ASSIGN_OR_RETURN(FireRows rows,
                     InsertFire(tx, due.schedule, points_total, ToMicros(decision.due_at),
                                false, schedule::kSchedulerActor, decision.skipped_reason,
                                online_window_));
    tx.exec_params(
        "UPDATE schedule SET next_fire_at = 'epoch'::timestamptz + $2::bigint * interval "
        "'1 microsecond',"
        " last_fire_at = CASE WHEN $4 THEN 'epoch'::timestamptz + $3::bigint * interval "
        "'1 microsecond' ELSE last_fire_at END"
        " WHERE id = $1",
        due.schedule.id(), ToMicros(decision.next_fire_at), ToMicros(decision.due_at),
        rows.run_id != 0);
    schedule::FireOutcome outcome;
    outcome.schedule_name = due.schedule.name();
    outcome.due_at = decision.due_at;
    outcome.schedule_run_id = rows.run_id;
    outcome.jobs = rows.jobs;
    outcome.skipped_reason = rows.skipped_reason;
    return Result(std::move(outcome));
  });
}

StatusOr<v1::ScheduleRun> PgScheduleStore::TriggerSchedule(const std::string& name,
                                                           const std::string& actor,
                                                           const Guard& guard) {
  return Run<v1::ScheduleRun>("TriggerSchedule", [&](pqxx::work& tx) -> StatusOr<v1::ScheduleRun> {
    // The row lock orders this fire with the scheduler's claim and with other triggers, so the
    // overlap check below sees every earlier fire.
    pqxx::result r = tx.exec_params("SELECT " + ScheduleColumns() + ", s.points_total, " +
                                        MicrosSql("now()") +
                                        " FROM schedule s WHERE s.name = $1 FOR UPDATE",
                                    name);
    if (r.empty()) return NotFoundError("schedule \"" + name + "\" not found");
    StatusOr<v1::Schedule> decoded = ScheduleFromRow(r[0]);
    if (!decoded.ok()) {
      return FailedPreconditionError("schedule \"" + name + "\" cannot be read by this server (" +
                                     decoded.status().message() +
                                     "); replace its job_template and selector with "
                                     "UpdateSchedule, or delete it");
    }
    const v1::Schedule& schedule = *decoded;
    RETURN_IF_ERROR(guard(schedule));
    const int64_t points_total = r[0][15].as<int64_t>();
    const int64_t now_micros = r[0][16].as<int64_t>();
    SupersedeOfflineJobs(tx, schedule.id(), online_window_);
    if (!schedule.allow_overlap() && PreviousRunActive(tx, schedule.id())) {
      return FailedPreconditionError("schedule \"" + name +
                                     "\": its previous run still has unfinished jobs and "
                                     "allow_overlap is off");
    }
    ASSIGN_OR_RETURN(FireRows rows, InsertFire(tx, schedule, points_total, now_micros, true, actor,
                                               "", online_window_));
    tx.exec_params("UPDATE schedule SET last_fire_at = now() WHERE id = $1", schedule.id());
    return SelectRun(tx, rows.run_id);
  });
}

}  // namespace warpwatch::server::detail
