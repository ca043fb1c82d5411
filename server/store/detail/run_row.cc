// File: server/store/detail/run_row.cc
#include "server/store/detail/run_row.h"

#include "server/store/detail/conversions.h"

namespace warpwatch::server::detail {

const std::string& RunColumns() {
  static const std::string columns =
      "r.id, coalesce(r.job_id, 0), r.worker_id, r.device_uuid, r.device_name, r.state,"
      " coalesce(r.environment::text, ''), r.labels::text, " +
      MicrosSql("r.started_at") + ", " + MicrosSql("r.finished_at") +
      ", (SELECT count(*) FROM measurement m WHERE m.run_id = r.id)";
  return columns;
}

StatusOr<v1::Run> RunFromRow(const pqxx::row& row) {
  v1::Run run;
  run.set_id(row[0].as<int64_t>());
  run.set_job_id(row[1].as<int64_t>());
  run.set_worker_id(row[2].as<std::string>());
  const std::string env = row[6].as<std::string>();
  if (!env.empty()) RETURN_IF_ERROR(MessageFromJson(env, run.mutable_environment()));
  v1::RunEnvironment* environment = run.mutable_environment();
  if (environment->device().uuid().empty()) {
    environment->mutable_device()->set_uuid(row[3].as<std::string>());
  }
  if (environment->device().name().empty()) {
    environment->mutable_device()->set_name(row[4].as<std::string>());
  }
  if (environment->labels().empty()) {
    ASSIGN_OR_RETURN(auto labels, StringMapFromJson(row[7].as<std::string>()));
    environment->mutable_labels()->insert(labels.begin(), labels.end());
  }
  run.set_state(JobStateFromName(row[5].as<std::string>()));
  *run.mutable_started_at() = TimestampFromMicros(row[8].as<int64_t>());
  const int64_t finished = row[9].as<int64_t>();
  if (finished != 0) *run.mutable_finished_at() = TimestampFromMicros(finished);
  run.set_measurement_count(row[10].as<int64_t>());
  return run;
}

}  // namespace warpwatch::server::detail
