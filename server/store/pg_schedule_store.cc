// File: server/store/pg_schedule_store.cc
// Opening the PostgreSQL ScheduleStore, and schedule rows: create, get, list, update, delete.
#include "server/store/pg_schedule_store.h"

#include "server/store/detail/conversions.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_schedule_store_impl.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/schedule_row.h"

namespace warpwatch::server::detail {
namespace {

// An undecodable job_template or selector is shown as stored_error (ScheduleForReading).
StatusOr<v1::Schedule> SelectSchedule(pqxx::work& tx, const std::string& name, bool lock) {
  pqxx::result r = tx.exec_params("SELECT " + ScheduleColumns() +
                                      " FROM schedule s WHERE s.name = $1" +
                                      (lock ? " FOR UPDATE" : ""),
                                  name);
  if (r.empty()) return NotFoundError("schedule \"" + name + "\" not found");
  return ScheduleForReading(r[0]);
}

// The jsonb parameters of a write: job template and selector.
struct WriteJson {
  std::string job_template;
  std::string selector;
};

StatusOr<WriteJson> ToJson(const schedule::ScheduleWrite& write) {
  WriteJson json;
  ASSIGN_OR_RETURN(json.job_template, MessageToJson(write.schedule.job_template()));
  ASSIGN_OR_RETURN(json.selector, MessageToJson(write.schedule.selector()));
  return json;
}

}  // namespace

PgScheduleStore::PgScheduleStore(const PgScheduleStoreOptions& options)
    : online_window_(options.online_window), pool_(PoolOptionsFor(options.pg)) {}

StatusOr<v1::Schedule> PgScheduleStore::CreateSchedule(const schedule::ScheduleWrite& write,
                                                       const std::string& actor,
                                                       int max_per_actor) {
  ASSIGN_OR_RETURN(WriteJson json, ToJson(write));
  const v1::Schedule& s = write.schedule;
  return Run<v1::Schedule>("CreateSchedule", [&](pqxx::work& tx) -> StatusOr<v1::Schedule> {
    // One creator's creates in turn: the count below then stays true until this one commits.
    tx.exec_params("SELECT pg_advisory_xact_lock(hashtextextended('schedule creator ' || $1, 0))",
                   actor);
    const int64_t created =
        tx.exec_params("SELECT count(*) FROM schedule WHERE created_by = $1", actor)[0][0]
            .as<int64_t>();
    if (created >= max_per_actor) {
      return ResourceExhaustedError("\"" + actor + "\" created " + std::to_string(created) +
                                    " schedules, the limit per principal is " +
                                    std::to_string(max_per_actor) +
                                    "; delete one first");
    }
    pqxx::result r = tx.exec_params(
        "INSERT INTO schedule AS s (name, cron, time_zone, job_template, selector, enabled,"
        "  next_fire_at, missed_fire_policy, allow_overlap, points_total, created_by, updated_by)"
        " VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6,"
        "  'epoch'::timestamptz + $7::bigint * interval '1 microsecond', $8, $9, $10, $11, $11)"
        " ON CONFLICT (name) DO NOTHING RETURNING " +
            ScheduleColumns(),
        s.name(), s.cron(), s.time_zone(), json.job_template, json.selector, s.enabled(),
        ToMicros(write.next_fire_at), PolicyName(s.missed_fire_policy()), s.allow_overlap(),
        write.points_total, actor);
    if (r.empty()) return AlreadyExistsError("schedule \"" + s.name() + "\" already exists");
    return ScheduleFromRow(r[0]);
  });
}

StatusOr<v1::Schedule> PgScheduleStore::GetSchedule(const std::string& name) {
  return Run<v1::Schedule>("GetSchedule",
                           [&](pqxx::work& tx) { return SelectSchedule(tx, name, false); });
}

StatusOr<schedule::SchedulePage> PgScheduleStore::ListSchedules(int page_size,
                                                                const std::string& page_token) {
  FilterFingerprint fingerprint;
  fingerprint.Add("schedules");
  std::string after;  // names sort after this one; "" = first page
  if (!page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(page_token, fingerprint, 1));
    after = position[0];
  }
  using Page = schedule::SchedulePage;
  return Run<Page>("ListSchedules", [&](pqxx::work& tx) -> StatusOr<Page> {
    pqxx::result r = tx.exec_params("SELECT " + ScheduleColumns() +
                                        " FROM schedule s WHERE s.name COLLATE \"C\" > $1"
                                        " ORDER BY s.name COLLATE \"C\" LIMIT $2",
                                    after, page_size + 1);
    Page page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < page_size; ++i) {
      page.schedules.push_back(ScheduleForReading(r[i]));  // one bad row does not hide the rest
    }
    if (static_cast<int>(r.size()) > page_size) {
      page.next_page_token = EncodePageToken({page.schedules.back().name()}, fingerprint);
    }
    return page;
  });
}

StatusOr<v1::Schedule> PgScheduleStore::UpdateSchedule(const std::string& name, const Edit& edit,
                                                       const std::string& actor) {
  return Run<v1::Schedule>("UpdateSchedule", [&](pqxx::work& tx) -> StatusOr<v1::Schedule> {
    ASSIGN_OR_RETURN(v1::Schedule current, SelectSchedule(tx, name, true));
    ASSIGN_OR_RETURN(schedule::ScheduleWrite write, edit(current));
    if (write.schedule.name() != name) return InvalidArgumentError("schedule.name cannot change");
    ASSIGN_OR_RETURN(WriteJson json, ToJson(write));
    const v1::Schedule& s = write.schedule;
    pqxx::result r = tx.exec_params(
        "UPDATE schedule s SET cron = $2, time_zone = $3, job_template = $4::jsonb,"
        "  selector = $5::jsonb, enabled = $6,"
        "  next_fire_at = 'epoch'::timestamptz + $7::bigint * interval '1 microsecond',"
        "  missed_fire_policy = $8, allow_overlap = $9, points_total = $10, updated_by = $11,"
        "  updated_at = now()"
        " WHERE s.name = $1 RETURNING " +
            ScheduleColumns(),
        name, s.cron(), s.time_zone(), json.job_template, json.selector, s.enabled(),
        ToMicros(write.next_fire_at), PolicyName(s.missed_fire_policy()), s.allow_overlap(),
        write.points_total, actor);
    return ScheduleFromRow(r.at(0));
  });
}

Status PgScheduleStore::DeleteSchedule(const std::string& name, const Guard& guard) {
  return Run<bool>("DeleteSchedule", [&](pqxx::work& tx) -> StatusOr<bool> {
           pqxx::result r = tx.exec_params(
               "SELECT " + ScheduleColumns() + " FROM schedule s WHERE s.name = $1 FOR UPDATE",
               name);
           if (r.empty()) return NotFoundError("schedule \"" + name + "\" not found");
           // A schedule this server cannot decode is judged on its name and creator alone.
           v1::Schedule current;
           StatusOr<v1::Schedule> decoded = ScheduleFromRow(r[0]);
           if (decoded.ok()) current = *decoded;
           current.set_name(name);
           current.set_created_by(r[0]["created_by"].as<std::string>());
           RETURN_IF_ERROR(guard(current));
           tx.exec_params("DELETE FROM schedule WHERE name = $1", name);
           return true;
         })
      .status();
}

}  // namespace warpwatch::server::detail

namespace warpwatch::server {

StatusOr<std::unique_ptr<schedule::ScheduleStore>> OpenPgScheduleStore(
    const PgScheduleStoreOptions& options) {
  if (options.pg.url.empty()) return InvalidArgumentError("database url is empty");
  if (options.pg.pool_size < 1) return InvalidArgumentError("pool size must be at least 1");
  return std::unique_ptr<schedule::ScheduleStore>(new detail::PgScheduleStore(options));
}

}  // namespace warpwatch::server
