// File: server/store/detail/counter_evidence.cc
#include "server/store/detail/counter_evidence.h"

#include <string>

#include "server/store/detail/measurement_row.h"

namespace warpwatch::server::detail {
namespace {

StatusOr<std::optional<incidents::CounterRun>> FirstCounterRun(const pqxx::result& rows) {
  if (rows.empty()) return std::optional<incidents::CounterRun>();
  incidents::CounterRun c;
  ASSIGN_OR_RETURN(c.measurement, MeasurementFromRow(rows[0], false));
  c.run_id = c.measurement.run_id();
  return std::optional<incidents::CounterRun>(std::move(c));
}

}  // namespace

Status SelectCounterRuns(pqxx::work& tx, int64_t regression_id, incidents::FindingEvidence* e) {
  // The finding's case, GPU, run start and level start, in one row.
  const pqxx::result f = tx.exec_params(
      "SELECT g.case_canonical, g.device_uuid, r.started_at, coalesce(g.confirmation_run_id, 0),"
      "  coalesce((SELECT max(CASE WHEN p.state = 'FIXED' THEN p.updated_at ELSE pr.started_at END)"
      "            FROM regression p JOIN run pr ON pr.id = p.run_id"
      "            WHERE p.series_id = g.series_id AND p.device_uuid = g.device_uuid"
      "              AND p.id <> g.id AND p.kind IN ('REGRESSION', 'IMPROVEMENT')"
      "              AND p.state <> 'NOISE' AND pr.started_at < r.started_at),"
      "           '-infinity'::timestamptz), r.history_owner"
      " FROM regression g JOIN run r ON r.id = g.run_id WHERE g.id = $1",
      regression_id);
  if (f.empty() || f[0][1].as<std::string>().empty()) return OkStatus();
  const std::string case_canonical = f[0][0].as<std::string>();
  const std::string device = f[0][1].as<std::string>();
  const std::string started = f[0][2].as<std::string>();
  const int64_t confirmation_run = f[0][3].as<int64_t>();
  const std::string level_start = f[0][4].as<std::string>();
  const std::string history = f[0][5].as<std::string>();  // counters of the same history only
  // The device's runs in a time range come from run_device_uuid_idx; (run_id, case_canonical)
  // is the measurement table's unique key.
  const pqxx::result base = tx.exec_params(
      "SELECT " + MeasurementColumns(false) +
          " FROM run r JOIN measurement m ON m.run_id = r.id AND m.case_canonical = $2"
          " WHERE r.device_uuid = $1 AND r.started_at < $3::timestamptz"
          "   AND r.started_at > $4::timestamptz AND m.counters <> '{}'::jsonb"
          "   AND r.history_owner = $5"
          " ORDER BY r.started_at DESC LIMIT 1",
      device, case_canonical, started, level_start, history);
  ASSIGN_OR_RETURN(e->baseline_counters, FirstCounterRun(base));
  if (confirmation_run != 0) {
    const pqxx::result confirmation = tx.exec_params(
        "SELECT " + MeasurementColumns(false) +
            " FROM measurement m WHERE m.run_id = $1 AND m.case_canonical = $2"
            "   AND m.counters <> '{}'::jsonb",
        confirmation_run, case_canonical);
    ASSIGN_OR_RETURN(e->new_counters, FirstCounterRun(confirmation));
    if (e->new_counters) return OkStatus();
  }
  const pqxx::result later = tx.exec_params(
      "SELECT " + MeasurementColumns(false) +
          " FROM run r JOIN measurement m ON m.run_id = r.id AND m.case_canonical = $2"
          " WHERE r.device_uuid = $1 AND r.started_at >= $3::timestamptz"
          "   AND m.counters <> '{}'::jsonb AND r.history_owner = $4"
          " ORDER BY r.started_at LIMIT 1",
      device, case_canonical, started, history);
  ASSIGN_OR_RETURN(e->new_counters, FirstCounterRun(later));
  return OkStatus();
}

}  // namespace warpwatch::server::detail
