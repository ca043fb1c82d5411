// File: server/store/pg_incident_sweep.cc
// The incident sweep's transaction (server/incidents/incident_sweep.h) on PostgreSQL, and the
// evidence a finding is explained from.
#include <pqxx/pqxx>

#include "server/incidents/incident_classifier.h"
#include "server/incidents/incident_lifecycle.h"
#include "server/incidents/incident_vocabulary.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/counter_evidence.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_incident_store_impl.h"
#include "server/store/detail/regression_row.h"
#include "server/store/detail/run_row.h"

namespace warpwatch::server::detail {
namespace {

using incidents::kDetector;

// The runs and schedule runs a window key names: "schedule_run:<id>" or "night:<date>".
struct Window {
  int64_t schedule_run_id = 0;
  std::string night;
};

StatusOr<Window> ParseWindow(const std::string& key) {
  Window w;
  if (key.rfind("schedule_run:", 0) == 0) {
    ASSIGN_OR_RETURN(w.schedule_run_id, PositiveIdFromPart(key.substr(13)));
  } else if (key.rfind("night:", 0) == 0) {
    w.night = key.substr(6);
  } else {
    return InternalError("incident window key \"" + key +
                         "\" is neither a schedule run nor a night");
  }
  return w;
}

}  // namespace

StatusOr<incidents::FindingEvidence> SelectEvidence(pqxx::work& tx, const v1::Regression& f) {
  incidents::FindingEvidence e;
  e.finding = f;
  pqxx::result run =
      tx.exec_params("SELECT " + RunColumns() + " FROM run r WHERE r.id = $1", f.run_id());
  if (!run.empty()) {
    ASSIGN_OR_RETURN(e.run, RunFromRow(run[0]));
  }
  const std::vector<int64_t> ids(f.baseline_run_ids().begin(), f.baseline_run_ids().end());
  const std::string ids_literal = BigintArrayLiteral(ids);
  for (const pqxx::row& row : tx.exec_params("SELECT " + RunColumns() +
                                                 " FROM run r WHERE r.id = ANY($1::bigint[])"
                                                 " ORDER BY r.id",
                                             ids_literal)) {
    ASSIGN_OR_RETURN(v1::Run r, RunFromRow(row));
    e.baseline_runs.push_back(std::move(r));
  }
  pqxx::result now = tx.exec_params("SELECT " + MeasurementColumns(false) +
                                        " FROM measurement m WHERE m.run_id = $1"
                                        " AND m.case_canonical = $2",
                                    f.run_id(), f.case_().canonical());
  if (!now.empty()) {
    ASSIGN_OR_RETURN(e.measurement, MeasurementFromRow(now[0], false));
  }
  pqxx::result base = tx.exec_params("SELECT " + MeasurementColumns(false) +
                                         " FROM measurement m WHERE m.run_id = ANY($1::bigint[])"
                                         " AND m.case_canonical = $2 ORDER BY m.run_id",
                                     ids_literal, f.case_().canonical());
  ASSIGN_OR_RETURN(e.baseline_measurements, MeasurementsFromRows(base, base.size(), false));
  RETURN_IF_ERROR(SelectCounterRuns(tx, f.id(), &e));
  return e;
}

StatusOr<std::vector<incidents::UnsweptFinding>> PgIncidentSweepTx::LoadUnswept(int limit) {
  pqxx::result r = tx_.exec_params(
      "SELECT " + RegressionColumns() +
          ", coalesce(g.incident_id, 0), coalesce(j.schedule_run_id, 0),"
          " to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
          " FROM regression g JOIN run r ON r.id = g.run_id LEFT JOIN job j ON j.id = r.job_id"
          " WHERE NOT g.swept ORDER BY g.id LIMIT $1 FOR UPDATE OF g",
      limit);
  std::vector<incidents::UnsweptFinding> out;
  for (const pqxx::row& row : r) {
    incidents::UnsweptFinding u;
    ASSIGN_OR_RETURN(u.finding, RegressionFromRow(row));
    const int n = static_cast<int>(row.size());
    u.incident_id = row[n - 3].as<int64_t>();
    u.origin.schedule_run_id = row[n - 2].as<int64_t>();
    u.origin.night = row[n - 1].as<std::string>();
    out.push_back(std::move(u));
  }
  return out;
}

StatusOr<incidents::FindingEvidence> PgIncidentSweepTx::LoadEvidence(const v1::Regression& f) {
  return SelectEvidence(tx_, f);
}

Status PgIncidentSweepTx::SaveExplanation(int64_t regression_id, const v1::Explanation& e) {
  ASSIGN_OR_RETURN(std::string json, MessageToJson(e));
  tx_.exec_params("UPDATE regression SET explanation = $2::jsonb, swept = true WHERE id = $1",
                  regression_id, json);
  return OkStatus();
}

StatusOr<int64_t> PgIncidentSweepTx::JoinIncident(int64_t regression_id,
                                                  const incidents::IncidentKey& key,
                                                  const incidents::FindingOrigin& origin) {
  // A finding swept again (its confirmation came in) that stays in its incident is no event.
  const pqxx::result joined = tx_.exec_params(
      "SELECT coalesce(incident_id, 0) FROM regression WHERE id = $1", regression_id);
  const int64_t joined_before = joined.empty() ? 0 : joined[0][0].as<int64_t>();
  pqxx::result r = tx_.exec_params(
      "INSERT INTO incident (kind, gpu_model, window_key, schedule_run_id, night, cause_key)"
      " VALUES ($1, $2, $3, nullif($4::bigint, 0), $5::date, $6)"
      " ON CONFLICT (window_key, gpu_model, kind, cause_key)"
      " DO UPDATE SET night = least(incident.night, excluded.night)"
      " RETURNING id, state, (xmax = 0)",
      key.kind, key.gpu_model, key.window_key, origin.schedule_run_id, origin.night, key.cause_key);
  const int64_t id = r.at(0)[0].as<int64_t>();
  const std::string state = r.at(0)[1].as<std::string>();
  const std::string finding = "finding " + std::to_string(regression_id);
  if (r.at(0)[2].as<bool>()) {
    tx_.exec_params(
        "INSERT INTO incident_event (incident_id, from_state, to_state, actor, note)"
        " VALUES ($1, '', $2, $3, $4)",
        id, std::string(incidents::kIncidentOpen), std::string(kDetector), "opened by " + finding);
  } else if (incidents::Closed(state) && joined_before != id) {
    RETURN_IF_ERROR(MoveIncident(id, state, incidents::kIncidentReopened,
                                 finding + " joined after the incident was closed"));
  }
  tx_.exec_params("UPDATE regression SET incident_id = $2 WHERE id = $1", regression_id, id);
  return id;
}

StatusOr<std::vector<int64_t>> PgIncidentSweepTx::IncidentsToRefresh(
    const std::vector<int64_t>& touched) {
  std::vector<int64_t> ids;
  for (const pqxx::row& row :
       tx_.exec_params("SELECT id FROM incident WHERE state IN ('OPEN', 'ACKNOWLEDGED', 'REOPENED')"
                       " OR id = ANY($1::bigint[]) ORDER BY id",
                       BigintArrayLiteral(touched))) {
    ids.push_back(row[0].as<int64_t>());
  }
  return ids;
}

StatusOr<incidents::IncidentMembers> PgIncidentSweepTx::LoadMembers(int64_t incident_id) {
  pqxx::result i = tx_.exec_params(
      "SELECT window_key, gpu_model, kind, cause_key, state, coalesce(schedule_run_id, 0),"
      " night::text, EXISTS (SELECT 1 FROM incident_event e WHERE e.incident_id = incident.id"
      "                      AND e.actor <> $2)"
      " FROM incident WHERE id = $1 FOR UPDATE",
      incident_id, std::string(kDetector));
  if (i.empty()) return NotFoundError("incident " + std::to_string(incident_id) + " not found");
  incidents::IncidentMembers m;
  m.id = incident_id;
  m.key.window_key = i[0][0].as<std::string>();
  m.key.gpu_model = i[0][1].as<std::string>();
  m.key.kind = i[0][2].as<std::string>();
  m.key.cause_key = i[0][3].as<std::string>();
  m.state = i[0][4].as<std::string>();
  m.origin.schedule_run_id = i[0][5].as<int64_t>();
  m.origin.night = i[0][6].as<std::string>();
  m.triaged = i[0][7].as<bool>();
  // Only what the refresh reads of each finding (an incident of a fleet-wide change holds
  // thousands); the explanation of its representative finding alone is parsed.
  for (const pqxx::row& row :
       tx_.exec_params("SELECT g.id, g.kind, g.state, g.updated_by, g.device_uuid,"
                       " g.case_canonical, g.family, g.change FROM regression g"
                       " WHERE g.incident_id = $1 ORDER BY g.id",
                       incident_id)) {
    v1::Regression g;
    g.set_id(row[0].as<int64_t>());
    g.set_kind(RegressionKindFromName(row[1].as<std::string>()));
    g.set_state(RegressionStateFromName(row[2].as<std::string>()));
    g.set_updated_by(row[3].as<std::string>());
    g.set_device_uuid(row[4].as<std::string>());
    // With its params: the classifier reads a node run's pair from them.
    FillCaseKey(row[5].as<std::string>(), row[6].as<std::string>(), "", g.mutable_case_());
    g.set_change(row[7].as<double>());
    m.findings.push_back(std::move(g));
  }
  const int rep = incidents::RepresentativeFinding(m.findings);
  if (rep >= 0) {
    pqxx::result e =
        tx_.exec_params("SELECT coalesce(explanation::text, '') FROM regression WHERE id = $1",
                        m.findings[rep].id());
    const std::string json = e.empty() ? "" : e[0][0].as<std::string>();
    if (!json.empty()) {
      RETURN_IF_ERROR(MessageFromJson(json, m.findings[rep].mutable_explanation()));
    }
  }
  return m;
}

StatusOr<int> PgIncidentSweepTx::CountPeers(const std::string& window_key,
                                            const std::string& gpu_model) {
  ASSIGN_OR_RETURN(Window w, ParseWindow(window_key));
  pqxx::result r;
  if (w.schedule_run_id != 0) {
    r = tx_.exec_params(
        "SELECT count(DISTINCT r.device_uuid) FROM run r JOIN job j ON j.id = r.job_id"
        " WHERE j.schedule_run_id = $1 AND r.device_name = $2 AND r.state = 'SUCCEEDED'"
        "   AND j.confirms_run_id IS NULL",
        w.schedule_run_id, gpu_model);
  } else {
    r = tx_.exec_params(
        "SELECT count(DISTINCT r.device_uuid) FROM run r LEFT JOIN job j ON j.id = r.job_id"
        " WHERE r.device_name = $2 AND r.state = 'SUCCEEDED' AND j.confirms_run_id IS NULL"
        "   AND r.started_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'"
        "   AND r.started_at < ($1::date + 1)::timestamp AT TIME ZONE 'UTC'",
        w.night, gpu_model);
  }
  return r.at(0)[0].as<int>();
}

StatusOr<std::vector<v1::RunEnvironment>> PgIncidentSweepTx::WindowEnvironments(
    const std::string& window_key, const std::string& gpu_model) {
  ASSIGN_OR_RETURN(Window w, ParseWindow(window_key));
  // Only what the software comparison reads (a fleet's window holds a run per GPU).
  const std::string select =
      "SELECT DISTINCT ON (r.device_uuid) coalesce(r.environment::text, ''), r.labels::text,"
      " r.device_uuid, r.device_name FROM run r LEFT JOIN job j ON j.id = r.job_id"
      " WHERE r.device_name = $2 AND r.state = 'SUCCEEDED' AND j.confirms_run_id IS NULL AND ";
  const std::string order = " ORDER BY r.device_uuid, r.started_at DESC, r.id DESC";
  pqxx::result rows =
      w.schedule_run_id != 0
          ? tx_.exec_params(select + "j.schedule_run_id = $1" + order, w.schedule_run_id, gpu_model)
          : tx_.exec_params(select +
                                "r.started_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'"
                                " AND r.started_at < ($1::date + 1)::timestamp AT TIME ZONE 'UTC'" +
                                order,
                            w.night, gpu_model);
  std::vector<v1::RunEnvironment> environments;
  for (const pqxx::row& row : rows) {
    v1::RunEnvironment e;
    const std::string json = row[0].as<std::string>();
    if (!json.empty()) RETURN_IF_ERROR(MessageFromJson(json, &e));
    if (e.labels().empty()) {
      ASSIGN_OR_RETURN(auto labels, StringMapFromJson(row[1].as<std::string>()));
      e.mutable_labels()->insert(labels.begin(), labels.end());
    }
    if (e.device().uuid().empty()) e.mutable_device()->set_uuid(row[2].as<std::string>());
    if (e.device().name().empty()) e.mutable_device()->set_name(row[3].as<std::string>());
    environments.push_back(std::move(e));
  }
  return environments;
}

StatusOr<std::vector<incidents::MovedFamily>> PgIncidentSweepTx::WindowMoves(
    const incidents::IncidentKey& key) {
  const pqxx::result r = tx_.exec_params(
      // The standing findings of the window's "gpu:" incidents (each holds its GPU's findings
      // only) and of its fleet incidents: from the findings, not the fleet incidents' stored
      // device lists, which are refreshed after a sweep's merges and so lag the findings merged
      // or joined in this one.
      "SELECT DISTINCT g.device_uuid, g.family FROM incident i"
      " JOIN regression g ON g.incident_id = i.id"
      " WHERE i.window_key = $1 AND i.gpu_model = $2 AND i.kind = $3"
      "   AND (i.cause_key LIKE 'gpu:%' OR i.cause_key = $4 OR i.cause_key LIKE $4 || ':%')"
      "   AND (g.state IN ('OPEN', 'ACKNOWLEDGED', 'ACCEPTED', 'FIXED', 'SUSPECTED')"
      "        OR (g.state = 'DISMISSED' AND coalesce(g.updated_by, '') IN ('', $5)))",
      key.window_key, key.gpu_model, key.kind, std::string(incidents::kFleetCauseKey),
      std::string(kDetector));
  std::vector<incidents::MovedFamily> moves;
  moves.reserve(r.size());
  for (const pqxx::row& row : r) {
    moves.push_back({row[0].as<std::string>(), row[1].as<std::string>()});
  }
  return moves;
}

StatusOr<int64_t> PgIncidentSweepTx::ActiveIncident(const incidents::IncidentKey& key) {
  const pqxx::result r = tx_.exec_params(
      "SELECT id FROM incident WHERE window_key = $1 AND gpu_model = $2 AND kind = $3"
      " AND cause_key = $4 AND state IN ('OPEN', 'ACKNOWLEDGED', 'REOPENED')",
      key.window_key, key.gpu_model, key.kind, key.cause_key);
  return r.empty() ? int64_t{0} : r[0][0].as<int64_t>();
}

StatusOr<int64_t> PgIncidentSweepTx::MergeIncident(int64_t from, const incidents::IncidentKey& into,
                                                   const incidents::FindingOrigin& origin,
                                                   const std::string& note) {
  const pqxx::result first =
      tx_.exec_params("SELECT id FROM regression WHERE incident_id = $1 ORDER BY id LIMIT 1", from);
  if (first.empty()) {
    return FailedPreconditionError("incident " + std::to_string(from) + " has no finding to merge");
  }
  // Joining with its first finding creates or reopens the target as any finding would.
  ASSIGN_OR_RETURN(const int64_t id, JoinIncident(first[0][0].as<int64_t>(), into, origin));
  tx_.exec_params("UPDATE regression SET incident_id = $2 WHERE incident_id = $1", from, id);
  tx_.exec_params(
      "INSERT INTO incident_event (incident_id, from_state, to_state, actor, note)"
      " SELECT id, state, state, $2, $3 FROM incident WHERE id = $1",
      id, std::string(kDetector), note);
  tx_.exec_params("DELETE FROM incident_event WHERE incident_id = $1", from);
  tx_.exec_params("DELETE FROM incident WHERE id = $1", from);
  return id;
}

Status PgIncidentSweepTx::SaveDerived(int64_t id, const incidents::IncidentDerived& d) {
  tx_.exec_params(
      "UPDATE incident SET cause_class = $2, cause = $3, ruled_out = $4::text[], findings = $5,"
      " confirmed = $6, suspected = $7, cases = $8, device_uuids = $9::text[],"
      " families = $10::text[], min_change = $11, median_change = $12, max_change = $13,"
      " peers = $14 WHERE id = $1",
      id, incidents::CauseClassName(d.cause_class), d.cause, TextArrayLiteral(d.ruled_out),
      d.findings, d.confirmed, d.suspected, d.cases, TextArrayLiteral(d.device_uuids),
      TextArrayLiteral(d.families), d.min_change, d.median_change, d.max_change, d.peers);
  return OkStatus();
}

Status PgIncidentSweepTx::MoveIncident(int64_t id, const std::string& from, const std::string& to,
                                       const std::string& note) {
  tx_.exec_params(
      "UPDATE incident SET state = $2, updated_at = now(), updated_by = $3 WHERE id = $1", id, to,
      std::string(kDetector));
  tx_.exec_params(
      "INSERT INTO incident_event (incident_id, from_state, to_state, actor, note)"
      " VALUES ($1, $2, $3, $4, $5)",
      id, from, to, std::string(kDetector), note);
  return OkStatus();
}

}  // namespace warpwatch::server::detail
