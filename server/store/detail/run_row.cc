// File: server/store/detail/run_row.cc
#include "server/store/detail/run_row.h"

#include <nlohmann/json.hpp>

#include "server/store/detail/conversions.h"

namespace warpwatch::server::detail {

const std::string& RunColumns() {
  static const std::string columns =
      "r.id, coalesce(r.job_id, 0), r.worker_id, r.device_uuid, r.device_name, r.state,"
      " coalesce(r.environment::text, ''), r.labels::text, " +
      MicrosSql("r.started_at") + ", " + MicrosSql("r.finished_at") +
      ", (SELECT count(*) FROM measurement m WHERE m.run_id = r.id), r.analysis_state,"
      " coalesce(r.analysis_coverage::text, ''), r.uploaded_by, r.history_owner = ''";
  return columns;
}

Status CoverageFromJson(const std::string& state, const std::string& json,
                        v1::AnalysisCoverage* coverage) {
  coverage->set_state(state);
  if (json.empty()) return OkStatus();
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return InternalError("run.analysis_coverage is not a JSON object");
  coverage->set_cases(doc.value("cases", 0));
  coverage->set_judged(doc.value("judged", 0));
  coverage->set_attached(doc.value("attached", 0));
  if (doc.contains("unsure") && doc["unsure"].is_object()) {
    for (const auto& [reason, count] : doc["unsure"].items()) {
      if (count.is_number_integer()) (*coverage->mutable_unsure())[reason] = count.get<int32_t>();
    }
  }
  return OkStatus();
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
  RETURN_IF_ERROR(CoverageFromJson(row[11].as<std::string>(), row[12].as<std::string>(),
                                   run.mutable_analysis()));
  run.set_uploaded_by(row[13].as<std::string>());
  run.set_fleet_history(row[14].as<bool>());
  return run;
}

}  // namespace warpwatch::server::detail
