// File: server/store/pg_analysis_findings.cc
// The analysis' reads and writes for one report per change and the noise model: active findings,
// runs attaching to them, findings whose level returned, the model-wide noise estimates (cached in
// series_noise), each GPU's sensitivity, and what a run's analysis judged (migration 0014).
#include <set>
#include <utility>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "server/detect/noise_model.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_analysis_tx.h"

namespace warpwatch::server::detail {

StatusOr<std::map<std::string, analysis::ActiveFinding>> PgAnalysisTx::LoadActiveFindings(
    const std::vector<std::string>& series_ids) {
  using Result = std::map<std::string, analysis::ActiveFinding>;
  return GuardPg<StatusOr<Result>>("LoadActiveFindings", [&]() -> StatusOr<Result> {
    pqxx::result rows = tx_.exec_params(
        "SELECT DISTINCT ON (g.series_id) g.series_id, g.id, g.kind, g.state,"
        " g.baseline_run_ids::text, starts_with(g.method, $3), g.change, g.noise_sigma"
        " FROM regression g JOIN run fr ON fr.id = g.run_id"
        " WHERE g.series_id = ANY($1::text[]) AND g.device_uuid = $2"
        " AND g.kind IN ('REGRESSION', 'IMPROVEMENT')"
        " AND g.state IN ('SUSPECTED', 'OPEN', 'ACKNOWLEDGED')"
        // Only findings of runs that started before this one: a run analysed late (two replicas,
        // or a requeued run) is judged on its own history, never attached to a later change.
        " AND (fr.started_at, fr.id) < (SELECT c.started_at, c.id FROM run c WHERE c.id = $4)"
        // A finding of another history (the fleet's, or another uploader's) is not this run's.
        " AND fr.history_owner = $5::text"
        " ORDER BY g.series_id, g.id DESC",
        TextArrayLiteral(series_ids), run_.device_uuid, std::string(analysis::kMethodPinnedPrefix),
        run_.run_id, run_.history_owner);
    Result out;
    for (const pqxx::row& row : rows) {
      analysis::ActiveFinding f;
      f.series_id = row[0].as<std::string>();
      f.regression_id = row[1].as<int64_t>();
      f.kind = row[2].as<std::string>();
      f.state = row[3].as<std::string>();
      f.baseline_run_ids = ParseBigintArray(row[4].as<std::string>());
      f.pinned = row[5].as<bool>();
      f.change = row[6].as<double>();
      if (!row[7].is_null()) f.noise_sigma = row[7].as<double>();
      out[f.series_id] = std::move(f);
    }
    return out;
  });
}

Status PgAnalysisTx::AttachToFinding(int64_t regression_id, int64_t measurement_id, double change,
                                     std::optional<double> z) {
  return GuardPg<Status>("AttachToFinding", [&]() -> Status {
    pqxx::result inserted = tx_.exec_params(
        "INSERT INTO regression_run (regression_id, run_id, measurement_id, change, z)"
        " VALUES ($1, $2, nullif($3::bigint, 0), $4, nullif($5::text, '')::float8)"
        " ON CONFLICT (regression_id, run_id) DO NOTHING RETURNING run_id",
        regression_id, run_.run_id, measurement_id, change, OptionalDouble(z));
    if (inserted.empty()) return OkStatus();  // analysed before
    tx_.exec_params(
        "UPDATE regression SET runs_at_level = runs_at_level + 1, last_run_id = $2,"
        " updated_at = now() WHERE id = $1",
        regression_id, run_.run_id);
    return OkStatus();
  });
}

Status PgAnalysisTx::CloseFinding(int64_t regression_id, const std::string& note) {
  return GuardPg<Status>("CloseFinding", [&]() -> Status {
    pqxx::result closed = tx_.exec_params(
        "WITH old AS (SELECT id, state FROM regression WHERE id = $1"
        "   AND state IN ('OPEN', 'ACKNOWLEDGED') FOR UPDATE)"
        " UPDATE regression g SET state = 'FIXED', closed_run_id = $2, updated_by = $3,"
        " updated_at = now() FROM old WHERE g.id = old.id RETURNING old.state",
        regression_id, run_.run_id, std::string(analysis::kDetectorActor));
    if (closed.empty()) return OkStatus();
    tx_.exec_params(
        "INSERT INTO regression_event (regression_id, from_state, to_state, actor, note)"
        " VALUES ($1, $2, 'FIXED', $3, $4)",
        regression_id, closed[0][0].as<std::string>(), std::string(analysis::kDetectorActor), note);
    return OkStatus();
  });
}

StatusOr<std::map<std::string, detect::NoiseEstimate>> PgAnalysisTx::LoadModelNoise(
    const std::vector<std::string>& series_ids, size_t points, std::chrono::seconds max_age,
    double max_throttled_fraction) {
  using Result = std::map<std::string, detect::NoiseEstimate>;
  return GuardPg<StatusOr<Result>>("LoadModelNoise", [&]() -> StatusOr<Result> {
    Result out;
    pqxx::result cached = tx_.exec_params(
        "SELECT series_id, sigma_relative, pairs, devices FROM series_noise"
        " WHERE series_id = ANY($1::text[]) AND device_uuid = ''"
        " AND computed_at > now() - $2::bigint * interval '1 second'",
        TextArrayLiteral(series_ids), static_cast<int64_t>(max_age.count()));
    for (const pqxx::row& row : cached) {
      detect::NoiseEstimate& e = out[row[0].as<std::string>()];
      if (!row[1].is_null()) e.sigma_relative = row[1].as<double>();
      e.pairs = row[2].as<size_t>();
      e.devices = row[3].as<size_t>();
    }
    std::vector<std::string> stale;
    for (const std::string& id : series_ids) {
      if (out.find(id) == out.end()) stale.push_back(id);
    }
    if (stale.empty()) return out;
    // The newest `points` good points of every device, by the series index (series_id, run_id),
    // oldest first so each device's runs come in order. A run still waiting for analysis (the
    // claimed one among them) is left out, or a change would widen the noise that judges it; the
    // first run of an ACCEPTED finding starts a new level, never paired with the run before it.
    // Points at a standing finding's level stay in: a finding's return is judged with its own
    // sigma (ActiveFinding::noise_sigma), and leaving out what was flagged would shrink a noisy
    // case's noise with every false alarm.
    pqxx::result rows = tx_.exec_params(
        std::string("SELECT s.series_id, x.device_uuid, x.median_seconds, x.new_level"
                    " FROM unnest($1::text[]) AS s(series_id) CROSS JOIN LATERAL ("
                    "  SELECT r.device_uuid, m.median_seconds, r.started_at, r.id,"
                    "   EXISTS (SELECT 1 FROM regression g WHERE g.run_id = r.id"
                    "    AND g.series_id = m.series_id AND g.device_uuid = r.device_uuid"
                    "    AND g.state = 'ACCEPTED') AS new_level"
                    "  FROM measurement m JOIN run r ON r.id = m.run_id"
                    "  WHERE m.series_id = s.series_id AND r.analysis_state <> 'PENDING' AND") +
            HistoryRun(4) + " AND" + GoodPoint(2) +
            "  ORDER BY m.run_id DESC LIMIT $3) x"
            " ORDER BY s.series_id, x.started_at, x.id",
        TextArrayLiteral(stale), max_throttled_fraction, static_cast<int64_t>(points),
        std::string());  // the fleet's history, whatever the claimed run's
    std::map<std::string, std::vector<detect::RunPoint>> history;
    // Pairs are taken per device_uuid: each accepted level of a device gets a key of its own.
    struct Level {
      int index = 0;
      bool has_point = false;  // a point at this level came before
    };
    std::map<std::pair<std::string, std::string>, Level> levels;  // (series, device)
    std::map<std::string, std::set<std::string>> paired;          // series -> devices with a pair
    for (const pqxx::row& row : rows) {
      const std::string series = row[0].as<std::string>();
      const std::string device = row[1].as<std::string>();
      Level& level = levels[{series, device}];
      if (row[3].as<bool>() && level.has_point) {
        ++level.index;
        level.has_point = false;
      }
      if (level.has_point) paired[series].insert(device);
      level.has_point = true;
      detect::RunPoint p;
      p.device_uuid = device + "#" + std::to_string(level.index);
      p.median_seconds = row[2].as<double>();
      p.ok = true;
      p.verified = true;
      history[series].push_back(std::move(p));
    }
    detect::DetectionConfig goodness;
    goodness.max_throttled_fraction = 1;  // the query already kept good points only
    for (const std::string& id : stale) {
      detect::NoiseEstimate e = detect::SuccessiveDifferenceNoise(history[id], goodness);
      e.devices = paired[id].size();
      out[id] = e;
      tx_.exec_params(
          "INSERT INTO series_noise (series_id, device_uuid, sigma_relative, pairs, devices,"
          " computed_at) VALUES ($1, '', nullif($2::text, '')::float8, $3, $4, now())"
          " ON CONFLICT (series_id, device_uuid) DO UPDATE SET sigma_relative ="
          " excluded.sigma_relative, pairs = excluded.pairs, devices = excluded.devices,"
          " computed_at = excluded.computed_at",
          id, OptionalDouble(e.known() ? std::optional<double>(e.sigma_relative) : std::nullopt),
          static_cast<int64_t>(e.pairs), static_cast<int64_t>(e.devices));
    }
    return out;
  });
}

Status PgAnalysisTx::RecordSensitivity(const std::vector<analysis::SeriesSensitivity>& rows) {
  if (rows.empty()) return OkStatus();
  nlohmann::json array = nlohmann::json::array();
  for (const analysis::SeriesSensitivity& s : rows) {
    nlohmann::json row = {{"series_id", s.series_id},
                          {"sigma", s.sigma_relative},
                          {"mdc", s.min_detectable_change},
                          {"k", s.baseline_runs},
                          {"model_k", s.model_baseline_runs}};
    if (s.model_min_detectable_change) row["model_mdc"] = *s.model_min_detectable_change;
    array.push_back(std::move(row));
  }
  return GuardPg<Status>("RecordSensitivity", [&]() -> Status {
    tx_.exec_params(
        "INSERT INTO series_noise (series_id, device_uuid, sigma_relative, min_detectable_change,"
        " baseline_runs, run_id, computed_at)"
        " SELECT x.series_id, $2, x.sigma, x.mdc, x.k, $3, now()"
        " FROM json_to_recordset($1::json) AS x(series_id text, sigma double precision,"
        "   mdc double precision, k integer)"
        " ON CONFLICT (series_id, device_uuid) DO UPDATE SET sigma_relative = "
        "excluded.sigma_relative,"
        " min_detectable_change = excluded.min_detectable_change,"
        " baseline_runs = excluded.baseline_runs, run_id = excluded.run_id,"
        " computed_at = excluded.computed_at",
        array.dump(), run_.device_uuid, run_.run_id);
    tx_.exec_params(
        "UPDATE series_noise n SET min_detectable_change = x.model_mdc,"
        " baseline_runs = x.model_k FROM json_to_recordset($1::json) AS x(series_id text,"
        "   model_mdc double precision, model_k integer)"
        " WHERE n.series_id = x.series_id AND n.device_uuid = '' AND x.model_mdc IS NOT NULL",
        array.dump());
    return OkStatus();
  });
}

Status PgAnalysisTx::RecordCoverage(const analysis::RunCoverage& coverage) {
  nlohmann::json doc = {{"cases", coverage.cases},
                        {"judged", coverage.judged},
                        {"attached", coverage.attached},
                        {"unsure", coverage.unsure}};
  return GuardPg<Status>("RecordCoverage", [&]() -> Status {
    tx_.exec_params("UPDATE run SET analysis_coverage = $2::jsonb WHERE id = $1", run_.run_id,
                    doc.dump());
    return OkStatus();
  });
}

Status PgAnalysisTx::RecordFleetJudged(const std::map<int64_t, analysis::FleetJudged>& by_run) {
  if (by_run.empty()) return OkStatus();
  nlohmann::json array = nlohmann::json::array();
  for (const auto& [run_id, judged] : by_run) {  // by run id: replicas lock rows in one order
    array.push_back({{"run_id", run_id}, {"cases", judged.cases}, {"families", judged.families}});
  }
  return GuardPg<Status>("RecordFleetJudged", [&]() -> Status {
    tx_.exec_params(
        "INSERT INTO fleet_judged_run (run_id, cases, families)"
        " SELECT x.run_id, x.cases, x.families"
        " FROM json_to_recordset($1::json) AS x(run_id bigint, cases integer, families text[])"
        " WHERE EXISTS (SELECT 1 FROM run r WHERE r.id = x.run_id) ORDER BY x.run_id"
        " ON CONFLICT (run_id) DO UPDATE SET"
        " cases = greatest(fleet_judged_run.cases, excluded.cases),"
        " families = ARRAY(SELECT DISTINCT f FROM"
        "   unnest(fleet_judged_run.families || excluded.families) AS f ORDER BY f)"
        // Another replica's loop does not know what this one wrote and sends those runs once:
        // rows that would not grow are left unwritten (no new row version, no WAL).
        " WHERE excluded.cases > fleet_judged_run.cases"
        "  OR NOT excluded.families <@ fleet_judged_run.families",
        array.dump());
    return OkStatus();
  });
}

}  // namespace warpwatch::server::detail
