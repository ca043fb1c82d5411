// File: server/store/detail/schedule_row.h
// schedule and schedule_run rows <-> protos, shared by the pg_schedule_*.cc files.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_SCHEDULE_ROW_H_
#define WARPWATCH_SERVER_STORE_DETAIL_SCHEDULE_ROW_H_

#include <absl/time/time.h>

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/schedule.pb.h"

namespace warpwatch::server::detail {

// Columns of a schedule row aliased `s`, for "SELECT " + ScheduleColumns() + " FROM schedule s".
const std::string& ScheduleColumns();
// Decodes a row selected with ScheduleColumns() (from column `first`). Fails (INTERNAL, naming
// the message) when the stored job_template or selector cannot be decoded: for the paths that
// act on a schedule (fire, trigger).
StatusOr<v1::Schedule> ScheduleFromRow(const pqxx::row& row, int first = 0);
// The same for the paths that show or repair a schedule (get, list, update): an undecodable
// job_template or selector is left unset and the error put in `stored_error`.
v1::Schedule ScheduleForReading(const pqxx::row& row, int first = 0);

// Columns of a schedule_run aliased `r` joined to its schedule `s`.
const std::string& ScheduleRunColumns();
// Decodes a row selected with ScheduleRunColumns() (jobs are not filled).
v1::ScheduleRun ScheduleRunFromRow(const pqxx::row& row, int first = 0);

// Fills each run's jobs (one row per job of the run, with its latest run's findings) in `tx`,
// with one query for all of `runs` (a page of ListScheduleRuns). Runs must be distinct.
void ReadScheduleRunJobs(pqxx::work& tx, const std::vector<v1::ScheduleRun*>& runs);

// "SKIP" / "RUN_ONCE"; UNSPECIFIED is "SKIP".
std::string PolicyName(v1::MissedFirePolicy policy);
v1::MissedFirePolicy PolicyFromName(const std::string& name);

int64_t ToMicros(absl::Time t);
absl::Time FromMicros(int64_t micros);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_SCHEDULE_ROW_H_
