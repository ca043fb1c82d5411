// File: server/store/pg_analysis_writes.cc
// What the analysis of a claimed run writes: regression rows and their first events, the
// confirmation job, change points, and the resolution of suspects.
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_analysis_tx.h"
#include "server/store/detail/pg_job_notifier.h"
#include "server/store/store.h"

namespace warpwatch::server::detail {
namespace {

template <typename Map>
std::map<std::string, std::string> ToStdMap(const Map& m) {
  return std::map<std::string, std::string>(m.begin(), m.end());
}

}  // namespace

std::string OptionalDouble(const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return "";
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.17g", *v);
  return buffer;
}

StatusOr<std::vector<int64_t>> PgAnalysisTx::InsertFindings(
    const std::vector<analysis::Finding>& findings) {
  using Result = std::vector<int64_t>;
  return GuardPg<StatusOr<Result>>("InsertFindings", [&]() -> StatusOr<Result> {
    Result ids;
    ids.reserve(findings.size());
    for (const analysis::Finding& f : findings) {
      pqxx::result r = tx_.exec_params(
          "INSERT INTO regression (run_id, series_id, case_canonical, family, variant, gpu_model,"
          " device_uuid, measurement_id, kind, state, baseline_run_ids, baseline_median_seconds,"
          " new_median_seconds, change, p_value, z, cycles_change, baseline_sm_clock_mhz,"
          " new_sm_clock_mhz, blame, clock_explained, method, last_run_id, min_detectable_change,"
          " noise_sigma)"
          " VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce(nullif($8::bigint, 0), (SELECT m.id FROM"
          " measurement m WHERE m.run_id = $1 AND m.case_canonical = $3)), $9, $10, $11::bigint[],"
          " $12, $13, $14, nullif($15::text, '')::float8, nullif($16::text, '')::float8,"
          " nullif($17::text, '')::float8, $18, $19, $20, $20 = 'ENVIRONMENT', $21, $1,"
          " nullif($22::text, '')::float8, nullif($23::text, '')::float8)"
          " ON CONFLICT (run_id, case_canonical, kind) DO NOTHING RETURNING id",
          f.run_id != 0 ? f.run_id : run_.run_id, f.series_id, f.case_canonical, f.family,
          f.variant, f.gpu_model, f.device_uuid, f.measurement_id, f.kind, f.state,
          BigintArrayLiteral(f.baseline_run_ids), f.baseline_median_seconds, f.new_median_seconds,
          f.change, OptionalDouble(f.p_value), OptionalDouble(f.z), OptionalDouble(f.cycles_change),
          f.baseline_sm_clock_mhz, f.new_sm_clock_mhz, f.blame, f.method,
          OptionalDouble(f.min_detectable_change), OptionalDouble(f.noise_sigma));
      if (r.empty()) {
        ids.push_back(0);
        continue;
      }
      const int64_t id = r[0][0].as<int64_t>();
      tx_.exec_params(
          "INSERT INTO regression_event (regression_id, from_state, to_state, actor, note)"
          " VALUES ($1, '', $2, $3, $4)",
          id, f.state, std::string(analysis::kDetectorActor), f.note);
      if (f.kind != analysis::kKindOutlier) {
        // The finding's first run at its level (later runs attach: AttachToFinding).
        tx_.exec_params(
            "INSERT INTO regression_run (regression_id, run_id, measurement_id, change, z)"
            " VALUES ($1, $2, nullif($3::bigint, 0), $4, nullif($5::text, '')::float8)",
            id, run_.run_id, f.measurement_id, f.change, OptionalDouble(f.z));
      }
      ids.push_back(id);
    }
    return ids;
  });
}

StatusOr<int64_t> PgAnalysisTx::EnqueueConfirmationJob(const v1::JobSpec& spec,
                                                       int64_t points_total,
                                                       const std::vector<int64_t>& regression_ids) {
  v1::JobSpec stored = spec;
  if (stored.max_attempts() <= 0) stored.set_max_attempts(kDefaultMaxAttempts);
  ASSIGN_OR_RETURN(std::string spec_json, MessageToJson(stored));
  const std::string labels = StringMapToJson(ToStdMap(stored.labels()));
  return GuardPg<StatusOr<int64_t>>("EnqueueConfirmationJob", [&]() -> StatusOr<int64_t> {
    pqxx::result existing = tx_.exec_params(
        "SELECT id FROM job WHERE confirms_run_id = $1 ORDER BY id LIMIT 1", run_.run_id);
    int64_t job_id = 0;
    if (!existing.empty()) {
      job_id = existing[0][0].as<int64_t>();
    } else {
      job_id = tx_.exec_params(
                      "INSERT INTO job (spec, state, priority, max_attempts, points_total,"
                      " submitted_by, labels, selector_gpu_model, selector_gpu_uuid,"
                      " selector_worker_labels, confirms_run_id)"
                      " VALUES ($1::jsonb, 'QUEUED', $2, $3, $4, $5, $6::jsonb, '', $7, '{}', $8)"
                      " RETURNING id",
                      spec_json, stored.priority(), stored.max_attempts(), points_total,
                      std::string(analysis::kDetectorActor), labels, stored.selector().gpu_uuid(),
                      run_.run_id)
                   .at(0)
                   .at(0)
                   .as<int64_t>();
      NotifyJobQueued(tx_, job_id);
    }
    tx_.exec_params(
        "UPDATE regression SET confirmation_job_id = $1, updated_at = now()"
        " WHERE id = ANY($2::bigint[])",
        job_id, BigintArrayLiteral(regression_ids));
    return job_id;
  });
}

Status PgAnalysisTx::ReplaceChangePoints(
    const std::map<analysis::SeriesKey, std::vector<analysis::StoredChangePoint>>& by_series) {
  if (by_series.empty()) return OkStatus();
  std::vector<std::string> series_ids, devices, model_series;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [key, points] : by_series) {
    series_ids.push_back(key.series_id);
    devices.push_back(key.device_uuid);
    if (key.device_uuid.empty()) model_series.push_back(key.series_id);
    for (const analysis::StoredChangePoint& p : points) {
      rows.push_back({{"series_id", key.series_id},
                      {"device_uuid", key.device_uuid},
                      {"run_id", p.run_id},
                      {"at", p.at_micros},
                      {"before", p.median_before},
                      {"after", p.median_after},
                      {"change", p.relative_change},
                      {"p", p.p_value},
                      {"q", p.q_hat}});
    }
  }
  return GuardPg<Status>("ReplaceChangePoints", [&]() -> Status {
    // One statement for every series' rows (a run touches ~2 x its cases' series).
    tx_.exec_params(
        "DELETE FROM change_point c USING unnest($1::text[], $2::text[]) AS k(series_id, device)"
        " WHERE c.series_id = k.series_id AND c.device_uuid = k.device",
        TextArrayLiteral(series_ids), TextArrayLiteral(devices));
    if (!rows.empty()) {
      tx_.exec_params(
          "INSERT INTO change_point (series_id, device_uuid, run_id, at, median_before,"
          " median_after, relative_change, p_value, q_hat)"
          " SELECT x.series_id, x.device_uuid, x.run_id,"
          " 'epoch'::timestamptz + x.at * interval '1 microsecond', x.before, x.after, x.change,"
          " x.p, x.q FROM json_to_recordset($1::json) AS x(series_id text, device_uuid text,"
          " run_id bigint, at bigint, before double precision, after double precision,"
          " change double precision, p double precision, q double precision)",
          rows.dump());
    }
    if (!model_series.empty()) {
      tx_.exec_params(
          "UPDATE series_noise n SET change_points_through = greatest(n.change_points_through,"
          " r.started_at) FROM run r WHERE r.id = $2 AND n.device_uuid = ''"
          " AND n.series_id = ANY($1::text[])",
          TextArrayLiteral(model_series), run_.run_id);
    }
    return OkStatus();
  });
}

StatusOr<std::set<std::string>> PgAnalysisTx::ModelChangePointsDue(
    const std::vector<std::string>& series_ids, std::chrono::seconds interval) {
  using Result = std::set<std::string>;
  return GuardPg<StatusOr<Result>>("ModelChangePointsDue", [&]() -> StatusOr<Result> {
    Result due(series_ids.begin(), series_ids.end());
    if (interval.count() <= 0) return due;
    pqxx::result fresh = tx_.exec_params(
        "SELECT n.series_id FROM series_noise n, run r WHERE r.id = $2"
        " AND n.series_id = ANY($1::text[]) AND n.device_uuid = ''"
        " AND n.change_points_through > r.started_at - $3::bigint * interval '1 second'",
        TextArrayLiteral(series_ids), run_.run_id, static_cast<int64_t>(interval.count()));
    for (const pqxx::row& row : fresh) due.erase(row[0].as<std::string>());
    return due;
  });
}

Status PgAnalysisTx::ResolveSuspect(int64_t regression_id, const std::string& to_state,
                                    const std::string& note) {
  return GuardPg<Status>("ResolveSuspect", [&]() -> Status {
    tx_.exec_params(
        "WITH resolved AS ("
        "  UPDATE regression SET state = $2, confirmation_run_id = $3, updated_at = now(),"
        "    swept = false"  // explained again: the confirmation run brings the new counters
        "  WHERE id = $1 AND state = 'SUSPECTED' RETURNING id)"
        " INSERT INTO regression_event (regression_id, from_state, to_state, actor, note)"
        " SELECT id, 'SUSPECTED', $2, $4, $5 FROM resolved",
        regression_id, to_state, run_.run_id, std::string(analysis::kDetectorActor), note);
    return OkStatus();
  });
}

}  // namespace warpwatch::server::detail
