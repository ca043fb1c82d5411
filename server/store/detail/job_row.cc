// File: server/store/detail/job_row.cc
#include "server/store/detail/job_row.h"

#include "server/store/detail/conversions.h"
#include "server/store/detail/run_row.h"

namespace warpwatch::server::detail {

const std::string& JobColumns() {
  static const std::string columns =
      "j.id, j.spec::text, j.state, j.attempts, coalesce(j.lease_owner, ''), " +
      MicrosSql("j.lease_expiry") + ", j.points_done, j.points_total, " +
      MicrosSql("j.created_at") + ", " + MicrosSql("j.started_at") + ", " +
      MicrosSql("j.finished_at") +
      ", j.error, j.submitted_by, j.device_uuid, j.current_case, j.cancel_requested,"
      " coalesce((SELECT cr.analysis_state FROM run cr WHERE cr.id = j.current_run_id), ''),"
      " coalesce((SELECT cr.analysis_coverage::text FROM run cr WHERE cr.id = j.current_run_id),"
      " '')";
  return columns;
}

StatusOr<v1::Job> JobFromRow(const pqxx::row& whole, int first) {
  // Columns of JobColumns(), numbered from 0.
  auto row = [&](int i) { return whole[first + i]; };
  v1::Job job;
  job.set_id(row(0).as<int64_t>());
  RETURN_IF_ERROR(MessageFromJson(row(1).as<std::string>(), job.mutable_spec()));
  job.set_state(JobStateFromName(row(2).as<std::string>()));
  job.set_attempts(row(3).as<int>());
  job.set_lease_owner(row(4).as<std::string>());
  *job.mutable_lease_expiry() = TimestampFromMicros(row(5).as<int64_t>());
  job.set_points_done(row(6).as<int64_t>());
  job.set_points_total(row(7).as<int64_t>());
  *job.mutable_created_at() = TimestampFromMicros(row(8).as<int64_t>());
  *job.mutable_started_at() = TimestampFromMicros(row(9).as<int64_t>());
  *job.mutable_finished_at() = TimestampFromMicros(row(10).as<int64_t>());
  job.set_error(row(11).as<std::string>());
  job.set_submitted_by(row(12).as<std::string>());
  job.set_device_uuid(row(13).as<std::string>());
  job.set_current_case(row(14).as<std::string>());
  job.set_cancel_requested(row(15).as<bool>());
  const std::string analysis_state = row(16).as<std::string>();
  if (!analysis_state.empty()) {
    RETURN_IF_ERROR(
        CoverageFromJson(analysis_state, row(17).as<std::string>(), job.mutable_analysis()));
  }
  if (job.lease_expiry().seconds() == 0 && job.lease_expiry().nanos() == 0)
    job.clear_lease_expiry();
  if (job.started_at().seconds() == 0 && job.started_at().nanos() == 0) job.clear_started_at();
  if (job.finished_at().seconds() == 0 && job.finished_at().nanos() == 0) job.clear_finished_at();
  return job;
}

}  // namespace warpwatch::server::detail
