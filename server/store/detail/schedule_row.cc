// File: server/store/detail/schedule_row.cc
#include "server/store/detail/schedule_row.h"

#include <map>

#include "server/store/detail/conversions.h"

namespace warpwatch::server::detail {

const std::string& ScheduleColumns() {
  static const std::string columns =
      "s.id, s.name, s.cron, s.time_zone, s.job_template::text, s.selector::text,"
      " s.missed_fire_policy, s.allow_overlap, s.enabled, " +
      MicrosSql("s.next_fire_at") + ", " + MicrosSql("s.last_fire_at") +
      ", s.created_by, s.updated_by, " + MicrosSql("s.created_at") + ", " +
      MicrosSql("s.updated_at");
  return columns;
}

namespace {

// Every column but the two jsonb ones (4: job_template, 5: selector).
v1::Schedule PlainColumns(const pqxx::row& whole, int first) {
  auto row = [&](int i) { return whole[first + i]; };
  v1::Schedule s;
  s.set_id(row(0).as<int64_t>());
  s.set_name(row(1).as<std::string>());
  s.set_cron(row(2).as<std::string>());
  s.set_time_zone(row(3).as<std::string>());
  s.set_missed_fire_policy(PolicyFromName(row(6).as<std::string>()));
  s.set_allow_overlap(row(7).as<bool>());
  s.set_enabled(row(8).as<bool>());
  if (int64_t us = row(9).as<int64_t>(); us != 0) *s.mutable_next_fire_at() = TimestampFromMicros(us);
  if (int64_t us = row(10).as<int64_t>(); us != 0) *s.mutable_last_fire_at() = TimestampFromMicros(us);
  s.set_created_by(row(11).as<std::string>());
  s.set_updated_by(row(12).as<std::string>());
  *s.mutable_created_at() = TimestampFromMicros(row(13).as<int64_t>());
  *s.mutable_updated_at() = TimestampFromMicros(row(14).as<int64_t>());
  return s;
}

Status DecodeJsonColumns(const pqxx::row& whole, int first, v1::Schedule* s) {
  RETURN_IF_ERROR(MessageFromJson(whole[first + 4].as<std::string>(), s->mutable_job_template()));
  return MessageFromJson(whole[first + 5].as<std::string>(), s->mutable_selector());
}

}  // namespace

StatusOr<v1::Schedule> ScheduleFromRow(const pqxx::row& whole, int first) {
  v1::Schedule s = PlainColumns(whole, first);
  RETURN_IF_ERROR(DecodeJsonColumns(whole, first, &s));
  return s;
}

v1::Schedule ScheduleForReading(const pqxx::row& whole, int first) {
  v1::Schedule s = PlainColumns(whole, first);
  if (Status decoded = DecodeJsonColumns(whole, first, &s); !decoded.ok()) {
    s.clear_job_template();
    s.clear_selector();
    s.set_stored_error(decoded.message());
  }
  return s;
}

const std::string& ScheduleRunColumns() {
  static const std::string columns = "r.id, s.name, " + MicrosSql("r.due_at") +
                                     ", r.trigger, r.state, r.skipped_reason, r.created_by, " +
                                     MicrosSql("r.created_at");
  return columns;
}

v1::ScheduleRun ScheduleRunFromRow(const pqxx::row& whole, int first) {
  auto row = [&](int i) { return whole[first + i]; };
  v1::ScheduleRun run;
  run.set_id(row(0).as<int64_t>());
  run.set_schedule_name(row(1).as<std::string>());
  *run.mutable_due_at() = TimestampFromMicros(row(2).as<int64_t>());
  run.set_trigger(row(3).as<std::string>() == "MANUAL" ? v1::SCHEDULE_TRIGGER_MANUAL
                                                       : v1::SCHEDULE_TRIGGER_CRON);
  run.set_state(row(4).as<std::string>() == "SKIPPED" ? v1::SCHEDULE_RUN_STATE_SKIPPED
                                                      : v1::SCHEDULE_RUN_STATE_FIRED);
  run.set_skipped_reason(row(5).as<std::string>());
  run.set_created_by(row(6).as<std::string>());
  *run.mutable_created_at() = TimestampFromMicros(row(7).as<int64_t>());
  return run;
}

void ReadScheduleRunJobs(pqxx::work& tx, const std::vector<v1::ScheduleRun*>& runs) {
  if (runs.empty()) return;
  std::map<int64_t, v1::ScheduleRun*> by_id;
  std::vector<int64_t> ids;
  for (v1::ScheduleRun* run : runs) {
    by_id[run->id()] = run;
    ids.push_back(run->id());
  }
  // The GPU a job is pinned to is its selector's uuid; its worker and hostname come from the run
  // when it started, else from the device's current owner.
  pqxx::result r = tx.exec_params(
      "SELECT j.id, j.state, j.selector_gpu_uuid, coalesce(d.name, ru.device_name, ''),"
      "  coalesce(ru.worker_id, d.worker_id, ''), coalesce(nullif(ru.hostname, ''), w.hostname, ''),"
      "  coalesce(ru.id, 0), j.points_done, j.points_total,"
      "  (SELECT count(*) FROM regression g WHERE g.run_id = ru.id AND g.kind = 'REGRESSION'"
      "     AND g.state NOT IN ('SUSPECTED', 'NOISE')),"
      "  (SELECT count(*) FROM regression g WHERE g.run_id = ru.id AND g.kind = 'OUTLIER'"
      "     AND g.state NOT IN ('SUSPECTED', 'NOISE')),"
      "  j.error, j.schedule_run_id"
      " FROM job j"
      " LEFT JOIN run ru ON ru.id = j.current_run_id"
      " LEFT JOIN device d ON d.uuid = j.selector_gpu_uuid"
      " LEFT JOIN worker w ON w.id = coalesce(ru.worker_id, d.worker_id)"
      " WHERE j.schedule_run_id = ANY($1::bigint[])"
      " ORDER BY 6, 3, j.id",
      BigintArrayLiteral(ids));
  for (const pqxx::row& row : r) {
    v1::ScheduleRunJob* job = by_id.at(row[12].as<int64_t>())->add_jobs();
    job->set_job_id(row[0].as<int64_t>());
    job->set_job_state(JobStateFromName(row[1].as<std::string>()));
    job->set_device_uuid(row[2].as<std::string>());
    job->set_gpu_model(row[3].as<std::string>());
    job->set_worker_id(row[4].as<std::string>());
    job->set_hostname(row[5].as<std::string>());
    job->set_run_id(row[6].as<int64_t>());
    job->set_points_done(row[7].as<int64_t>());
    job->set_points_total(row[8].as<int64_t>());
    job->set_regressions(row[9].as<int>());
    job->set_outliers(row[10].as<int>());
    job->set_fleet_outlier(job->outliers() > 0);
    job->set_error(row[11].as<std::string>());
  }
}

std::string PolicyName(v1::MissedFirePolicy policy) {
  return policy == v1::MISSED_FIRE_POLICY_RUN_ONCE ? "RUN_ONCE" : "SKIP";
}

v1::MissedFirePolicy PolicyFromName(const std::string& name) {
  return name == "RUN_ONCE" ? v1::MISSED_FIRE_POLICY_RUN_ONCE : v1::MISSED_FIRE_POLICY_SKIP;
}

int64_t ToMicros(absl::Time t) { return absl::ToUnixMicros(t); }
absl::Time FromMicros(int64_t micros) { return absl::FromUnixMicros(micros); }

}  // namespace warpwatch::server::detail
