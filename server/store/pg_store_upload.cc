// File: server/store/pg_store_upload.cc
// UploadRun's store side: a RunResult measured offline becomes a finished run (no job) with its
// measurements, once per content digest.
#include <map>
#include <pqxx/pqxx>

#include "common/series/comparable_series.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/run_row.h"

namespace warpwatch::server::detail {
namespace {

Status CheckUploadable(const v1::RunResult& result) {
  const v1::Device& device = result.environment().device();
  if (device.uuid().empty()) return InvalidArgumentError("environment.device.uuid: empty");
  if (device.name().empty()) return InvalidArgumentError("environment.device.name: empty");
  for (int i = 0; i < result.measurements_size(); ++i) {
    if (result.measurements(i).case_().canonical().empty()) {
      return InvalidArgumentError("measurements[" + std::to_string(i) + "].case.canonical: empty");
    }
  }
  return OkStatus();
}

// A timestamp as epoch microseconds, or `fallback` when unset.
int64_t MicrosOr(const google::protobuf::Timestamp& ts, bool set, int64_t fallback) {
  return set ? MicrosFromTimestamp(ts) : fallback;
}

std::optional<v1::Run> FindByDigest(pqxx::work& tx, const std::string& uploader,
                                    const std::string& digest, Status* error) {
  pqxx::result r = tx.exec_params(
      "SELECT " + RunColumns() + " FROM run r WHERE r.uploaded_by = $1 AND r.content_sha256 = $2",
      uploader, digest);
  if (r.empty()) return std::nullopt;
  StatusOr<v1::Run> run = RunFromRow(r[0]);
  if (!run.ok()) {
    *error = run.status();
    return std::nullopt;
  }
  return *run;
}

}  // namespace

StatusOr<UploadedRun> PgStore::StoreUploadedRun(const v1::RunResult& result,
                                                const std::string& content_sha256,
                                                const Uploader& uploader) {
  if (content_sha256.empty()) return InvalidArgumentError("content_sha256: empty");
  if (uploader.principal.empty()) return InvalidArgumentError("uploader: empty");
  const std::string history_owner = uploader.fleet_history ? "" : uploader.principal;
  RETURN_IF_ERROR(CheckUploadable(result));
  const v1::RunEnvironment& env = result.environment();
  ASSIGN_OR_RETURN(const std::string env_json, MessageToJson(env));
  const auto& label_source = env.labels().empty() ? result.spec().labels() : env.labels();
  const std::string labels =
      StringMapToJson(std::map<std::string, std::string>(label_source.begin(), label_source.end()));
  const std::vector<v1::Measurement> measurements(result.measurements().begin(),
                                                  result.measurements().end());
  const int64_t started_us = MicrosOr(result.started_at(), result.has_started_at(), 0);
  const int64_t finished_us = MicrosOr(result.finished_at(), result.has_finished_at(), 0);
  return Run<UploadedRun>("StoreUploadedRun", [&](pqxx::work& tx) -> StatusOr<UploadedRun> {
    Status error = OkStatus();
    if (std::optional<v1::Run> earlier = FindByDigest(tx, uploader.principal, content_sha256, &error)) {
      return UploadedRun{*earlier, false, earlier->measurement_count()};
    }
    RETURN_IF_ERROR(error);
    // A concurrent upload of the same content inserts nothing here (the unique digest) and finds
    // the other's run once it committed.
    pqxx::result inserted = tx.exec_params(
        "INSERT INTO run (job_id, worker_id, device_uuid, device_name, state, environment,"
        "  hostname, driver_version, cuda_driver_version, cuda_runtime_version, worker_version,"
        "  suite_version, sm_clock_mhz_start, memory_clock_mhz_start, temperature_c_start,"
        "  power_w_start, temperature_c_end, power_w_end, clock_source, labels, started_at,"
        "  finished_at, content_sha256, uploaded_by, history_owner)"
        " VALUES (NULL, '', $1, $2, 'SUCCEEDED', $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11,"
        "  $12, $13, $14, $15, $16, $17::jsonb,"
        "  CASE WHEN $18::bigint = 0 THEN now()"
        "       ELSE 'epoch'::timestamptz + $18::bigint * interval '1 microsecond' END,"
        "  CASE WHEN $19::bigint = 0 THEN now()"
        "       ELSE 'epoch'::timestamptz + $19::bigint * interval '1 microsecond' END,"
        "  $20, $21, $22)"
        " ON CONFLICT (uploaded_by, content_sha256) DO NOTHING RETURNING id",
        env.device().uuid(), env.device().name(), env_json, env.hostname(), env.driver_version(),
        env.cuda_driver_version(), env.cuda_runtime_version(), env.worker_version(),
        env.suite_version(), env.sm_clock_mhz_start(), env.memory_clock_mhz_start(),
        env.temperature_c_start(), env.power_w_start(), env.temperature_c_end(), env.power_w_end(),
        env.clock_source(), labels, started_us, finished_us, content_sha256, uploader.principal,
        history_owner);
    if (inserted.empty()) {
      std::optional<v1::Run> other =
          FindByDigest(tx, uploader.principal, content_sha256, &error);
      RETURN_IF_ERROR(error);
      if (!other) return AbortedError("StoreUploadedRun: concurrent upload; retry");
      return UploadedRun{*other, false, other->measurement_count()};
    }
    const int64_t run_id = inserted[0][0].as<int64_t>();
    ASSIGN_OR_RETURN(
        const int stored,
        StoreBatch(tx, run_id, env.device().name(),
                   series::SettingsKey(result.spec().measurement()), measurements));
    pqxx::result run =
        tx.exec_params("SELECT " + RunColumns() + " FROM run r WHERE r.id = $1", run_id);
    ASSIGN_OR_RETURN(v1::Run stored_run, RunFromRow(run.at(0)));
    return UploadedRun{std::move(stored_run), true, stored};
  });
}

}  // namespace warpwatch::server::detail
