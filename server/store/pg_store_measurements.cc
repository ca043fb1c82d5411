// File: server/store/pg_store_measurements.cc
// Measurement ingest (a batch in one statement, idempotent on (run, case canonical); records the
// run's environment) and reading a run's measurements back.
#include <map>
#include <pqxx/pqxx>

#include "common/series/comparable_series.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {
namespace {

bool HasEnvironment(const v1::RunEnvironment& env) {
  return env.has_device() || !env.hostname().empty();
}

void RecordEnvironment(pqxx::work& tx, int64_t run_id, const v1::RunEnvironment& env,
                       const std::string& env_json) {
  const std::string labels =
      StringMapToJson(std::map<std::string, std::string>(env.labels().begin(), env.labels().end()));
  tx.exec_params(
      "UPDATE run SET environment = $2::jsonb, hostname = $3, driver_version = $4,"
      " cuda_driver_version = $5, cuda_runtime_version = $6, worker_version = $7,"
      " suite_version = $8, sm_clock_mhz_start = $9, memory_clock_mhz_start = $10,"
      " temperature_c_start = $11, power_w_start = $12, temperature_c_end = $13,"
      " power_w_end = $14, clock_source = $15,"
      " labels = CASE WHEN $16::jsonb = '{}'::jsonb THEN labels ELSE $16::jsonb END"
      " WHERE id = $1",
      run_id, env_json, env.hostname(), env.driver_version(), env.cuda_driver_version(),
      env.cuda_runtime_version(), env.worker_version(), env.suite_version(),
      env.sm_clock_mhz_start(), env.memory_clock_mhz_start(), env.temperature_c_start(),
      env.power_w_start(), env.temperature_c_end(), env.power_w_end(), env.clock_source(), labels);
}

}  // namespace

StatusOr<UploadCounts> PgStore::UploadMeasurements(
    int64_t run_id, const std::string& worker_id, const v1::RunEnvironment& environment,
    const std::vector<v1::Measurement>& measurements) {
  for (size_t i = 0; i < measurements.size(); ++i) {
    if (measurements[i].case_().canonical().empty()) {
      return InvalidArgumentError("measurements[" + std::to_string(i) + "].case.canonical: empty");
    }
  }
  std::string env_json;
  if (HasEnvironment(environment)) {
    ASSIGN_OR_RETURN(env_json, MessageToJson(environment));
  }
  return Run<UploadCounts>("UploadMeasurements", [&](pqxx::work& tx) -> StatusOr<UploadCounts> {
    // FOR NO KEY UPDATE: a concurrent FinishJob or reaper closing the run waits for this upload,
    // an upload after the close sees the run finished, and uploads of one run take turns (the
    // copy ingest's check for stored cases holds until this one commits).
    pqxx::result run = tx.exec_params(
        "SELECT worker_id, device_name, finished_at IS NOT NULL, state,"
        " (SELECT j.spec->'measurement' FROM job j WHERE j.id = run.job_id)::text"
        " FROM run WHERE id = $1 FOR NO KEY UPDATE",
        run_id);
    if (run.empty()) return NotFoundError("run " + std::to_string(run_id) + " not found");
    if (run[0][0].as<std::string>() != worker_id) {
      return PermissionDeniedError("run " + std::to_string(run_id) + " belongs to another worker");
    }
    if (run[0][2].as<bool>()) {
      return FailedPreconditionError("run " + std::to_string(run_id) + " is finished (" +
                                     run[0][3].as<std::string>() +
                                     "): its lease was lost; stop the run");
    }
    const std::string device_model = run[0][1].as<std::string>();
    // The series the rows join: the run's job's measurement settings (comparable_series.h).
    v1::MeasurementSettings settings;
    if (!run[0][4].is_null()) {
      RETURN_IF_ERROR(MessageFromJson(run[0][4].as<std::string>(), &settings));
    }
    if (!env_json.empty()) RecordEnvironment(tx, run_id, environment, env_json);
    ASSIGN_OR_RETURN(int inserted, StoreBatch(tx, run_id, device_model,
                                              series::SettingsKey(settings), measurements));
    UploadCounts counts;
    counts.inserted = inserted;
    counts.duplicates = static_cast<int>(measurements.size()) - inserted;
    return counts;
  });
}

StatusOr<std::vector<v1::Measurement>> PgStore::ListRunMeasurements(int64_t run_id) {
  using Result = std::vector<v1::Measurement>;
  return Run<Result>("ListRunMeasurements", [&](pqxx::work& tx) -> StatusOr<Result> {
    if (tx.exec_params("SELECT 1 FROM run WHERE id = $1", run_id).empty()) {
      return NotFoundError("run " + std::to_string(run_id) + " not found");
    }
    return SelectMeasurements(tx, run_id);
  });
}

}  // namespace warpwatch::server::detail
