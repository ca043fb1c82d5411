// File: server/store/pg_incident_store.cc
// Opening the PostgreSQL IncidentStore; the sweep's lock; IncidentService's reads and triage
// (keyset paging on id, newest first); the counts the metrics export.
#include "server/store/pg_incident_store.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>

#include "server/incidents/explain/explainer.h"
#include "server/incidents/incident_classifier.h"
#include "server/incidents/incident_lifecycle.h"
#include "server/incidents/incident_vocabulary.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_incident_store_impl.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/regression_row.h"
#include "server/store/paging.h"

namespace warpwatch::server::detail {
namespace {

// pg_try_advisory_xact_lock key of the incident sweep ("wwincdnt" in ASCII).
constexpr int64_t kSweepLockKey = 0x7777696e63646e74;
constexpr PageSizeLimits kIncidentPageSizes{50, 500};

// The explanation of `g`, computed now when none is stored (findings from before migration 0015).
Status EnsureExplained(pqxx::work& tx, v1::Regression& g) {
  if (g.has_explanation()) return OkStatus();
  ASSIGN_OR_RETURN(incidents::FindingEvidence evidence, SelectEvidence(tx, g));
  *g.mutable_explanation() = incidents::Explain(evidence);
  *g.mutable_explanation()->mutable_computed_at() =
      google::protobuf::util::TimeUtil::GetCurrentTime();
  return OkStatus();
}

StatusOr<v1::Incident> SelectIncident(pqxx::work& tx, int64_t id, bool lock) {
  pqxx::result r =
      tx.exec_params("SELECT " + IncidentColumns() + " FROM incident i WHERE i.id = $1" +
                         (lock ? " FOR UPDATE" : ""),
                     id);
  if (r.empty()) return NotFoundError("incident " + std::to_string(id) + " not found");
  return IncidentFromRow(r[0]);
}

// History, findings (explained) and the representative explanation of `incident`.
Status AddDetails(pqxx::work& tx, v1::Incident& incident) {
  for (const pqxx::row& row :
       tx.exec_params("SELECT from_state, to_state, actor, note, " + MicrosSql("at") +
                          " FROM incident_event WHERE incident_id = $1 ORDER BY id",
                      incident.id())) {
    v1::IncidentEvent* e = incident.add_history();
    e->set_from_state(incidents::IncidentStateFromName(row[0].as<std::string>()));
    e->set_to_state(incidents::IncidentStateFromName(row[1].as<std::string>()));
    e->set_actor(row[2].as<std::string>());
    e->set_note(row[3].as<std::string>());
    *e->mutable_at() = TimestampFromMicros(row[4].as<int64_t>());
  }
  std::vector<v1::Regression> findings;
  for (const pqxx::row& row : tx.exec_params("SELECT " + RegressionColumns() +
                                                 " FROM regression g WHERE g.incident_id = $1"
                                                 " ORDER BY g.id",
                                             incident.id())) {
    ASSIGN_OR_RETURN(v1::Regression g, RegressionFromRow(row));
    RETURN_IF_ERROR(EnsureExplained(tx, g));
    findings.push_back(std::move(g));
  }
  const int rep = incidents::RepresentativeFinding(findings);
  if (rep >= 0) *incident.mutable_explanation() = findings[rep].explanation();
  for (v1::Regression& g : findings) *incident.add_regressions() = std::move(g);
  return OkStatus();
}

template <typename Enum, typename NameFn>
StatusOr<std::vector<std::string>> IncidentNames(const std::vector<Enum>& values, NameFn name,
                                                 const char* field) {
  std::vector<std::string> names;
  for (Enum v : values) {
    std::string n = name(v);
    if (n.empty()) {
      return InvalidArgumentError(std::string(field) + ": unknown value " +
                                  std::to_string(static_cast<int>(v)));
    }
    names.push_back(std::move(n));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

PgIncidentStore::PgIncidentStore(const PgStoreOptions& options) : pool_(PoolOptionsFor(options)) {}

Status PgIncidentStore::Sweep(const SweepFn& fn) {
  return Run<bool>("SweepIncidents",
                   [&](pqxx::work& tx) -> StatusOr<bool> {
                     if (!tx.exec_params1("SELECT pg_try_advisory_xact_lock($1)", kSweepLockKey)[0]
                              .as<bool>()) {
                       return false;  // another replica sweeps
                     }
                     PgIncidentSweepTx sweep(tx);
                     RETURN_IF_ERROR(fn(sweep));
                     return true;
                   })
      .status();
}

StatusOr<incidents::IncidentPage> PgIncidentStore::ListIncidents(
    const incidents::IncidentFilter& filter) {
  const int page_size = EffectivePageSize(filter.page_size, kIncidentPageSizes);
  ASSIGN_OR_RETURN(std::vector<std::string> states,
                   IncidentNames(filter.states, incidents::IncidentStateName, "states"));
  ASSIGN_OR_RETURN(std::vector<std::string> classes,
                   IncidentNames(filter.cause_classes, incidents::CauseClassName, "cause_classes"));
  FilterFingerprint fingerprint;
  fingerprint.Add("incidents").Add(static_cast<int64_t>(states.size()));
  for (const std::string& s : states) fingerprint.Add(s);
  fingerprint.Add(static_cast<int64_t>(classes.size()));
  for (const std::string& c : classes) fingerprint.Add(c);
  fingerprint.Add(filter.gpu_model);
  int64_t before_id = 0;
  if (!filter.page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(filter.page_token, fingerprint, 1));
    ASSIGN_OR_RETURN(before_id, PositiveIdFromPart(position[0]));
  }
  using Page = incidents::IncidentPage;
  return Run<Page>("ListIncidents", [&](pqxx::work& tx) -> StatusOr<Page> {
    pqxx::result r =
        tx.exec_params("SELECT " + IncidentColumns() +
                           " FROM incident i"
                           " WHERE (cardinality($1::text[]) = 0 OR i.state = ANY($1::text[]))"
                           "   AND (cardinality($2::text[]) = 0 OR i.cause_class = ANY($2::text[]))"
                           "   AND ($3::text = '' OR i.gpu_model = $3)"
                           "   AND ($4::bigint = 0 OR i.id < $4)"
                           " ORDER BY i.id DESC LIMIT $5",
                       TextArrayLiteral(states), TextArrayLiteral(classes), filter.gpu_model,
                       before_id, page_size + 1);
    Page page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < page_size; ++i) {
      ASSIGN_OR_RETURN(v1::Incident incident, IncidentFromRow(r[i]));
      page.incidents.push_back(std::move(incident));
    }
    if (static_cast<int>(r.size()) > page_size) {
      page.next_page_token =
          EncodePageToken({std::to_string(page.incidents.back().id())}, fingerprint);
    }
    return page;
  });
}

StatusOr<v1::Incident> PgIncidentStore::GetIncident(int64_t id) {
  return Run<v1::Incident>("GetIncident", [&](pqxx::work& tx) -> StatusOr<v1::Incident> {
    ASSIGN_OR_RETURN(v1::Incident incident, SelectIncident(tx, id, false));
    RETURN_IF_ERROR(AddDetails(tx, incident));
    return incident;
  });
}

StatusOr<v1::Incident> PgIncidentStore::UpdateIncident(int64_t id, v1::IncidentState to,
                                                       const std::string& note,
                                                       const std::string& actor) {
  const std::string to_name = incidents::IncidentStateName(to);
  return Run<v1::Incident>("UpdateIncident", [&](pqxx::work& tx) -> StatusOr<v1::Incident> {
    ASSIGN_OR_RETURN(v1::Incident current, SelectIncident(tx, id, true));
    const std::string from = incidents::IncidentStateName(current.state());
    RETURN_IF_ERROR(incidents::CheckPersonMove(id, from, to_name));
    tx.exec_params(
        "UPDATE incident SET state = $2, updated_at = now(), updated_by = $3 WHERE id = $1", id,
        to_name, actor);
    tx.exec_params(
        "INSERT INTO incident_event (incident_id, from_state, to_state, actor, note)"
        " VALUES ($1, $2, $3, $4, $5)",
        id, from, to_name, actor, note);
    if (std::optional<v1::RegressionState> finding_state = incidents::FindingStateFor(to_name)) {
      // Its OPEN findings (and ACKNOWLEDGED ones, unless acknowledging) follow, each with an event.
      const std::string state = RegressionStateName(*finding_state);
      const std::string finding_note = "incident " + std::to_string(id) + ": " + to_name +
                                       (note.empty() ? "" : " (" + note + ")");
      tx.exec_params(
          "WITH moving AS ("
          "  SELECT id, state AS old FROM regression"
          "  WHERE incident_id = $1 AND kind IN ('REGRESSION', 'IMPROVEMENT')"
          "    AND (state = 'OPEN' OR (state = 'ACKNOWLEDGED' AND $2 <> 'ACKNOWLEDGED'))"
          "  FOR UPDATE),"
          " moved AS ("
          "  UPDATE regression g SET state = $2, note = $3, updated_by = $4, updated_at = now()"
          "  FROM moving WHERE g.id = moving.id RETURNING g.id, moving.old)"
          " INSERT INTO regression_event (regression_id, from_state, to_state, actor, note)"
          " SELECT id, old, $2, $4, $3 FROM moved",
          id, state, finding_note, actor);
    }
    ASSIGN_OR_RETURN(v1::Incident incident, SelectIncident(tx, id, false));
    RETURN_IF_ERROR(AddDetails(tx, incident));
    return incident;
  });
}

StatusOr<v1::Regression> PgIncidentStore::ExplainFinding(int64_t regression_id) {
  return Run<v1::Regression>("ExplainFinding", [&](pqxx::work& tx) -> StatusOr<v1::Regression> {
    pqxx::result r = tx.exec_params(
        "SELECT " + RegressionColumns() + " FROM regression g WHERE g.id = $1", regression_id);
    if (r.empty())
      return NotFoundError("regression " + std::to_string(regression_id) + " not found");
    ASSIGN_OR_RETURN(v1::Regression g, RegressionFromRow(r[0]));
    RETURN_IF_ERROR(EnsureExplained(tx, g));
    return g;
  });
}

StatusOr<std::vector<incidents::OpenIncident>> PgIncidentStore::ListOpenIncidents() {
  using Out = std::vector<incidents::OpenIncident>;
  return Run<Out>("ListOpenIncidents", [&](pqxx::work& tx) -> StatusOr<Out> {
    Out out;
    for (const pqxx::row& row :
         tx.exec("SELECT id, kind, cause_class, gpu_model, confirmed FROM incident"
                 " WHERE state IN ('OPEN', 'REOPENED') AND confirmed > 0 ORDER BY id")) {
      incidents::OpenIncident o;
      o.id = row[0].as<int64_t>();
      o.kind = row[1].as<std::string>();
      o.cause_class = row[2].as<std::string>();
      o.gpu_model = row[3].as<std::string>();
      o.confirmed = row[4].as<int>();
      out.push_back(std::move(o));
    }
    return out;
  });
}

StatusOr<std::vector<incidents::IncidentCount>> PgIncidentStore::CountIncidents() {
  using Out = std::vector<incidents::IncidentCount>;
  return Run<Out>("CountIncidents", [&](pqxx::work& tx) -> StatusOr<Out> {
    Out out;
    for (const pqxx::row& row :
         tx.exec("SELECT state, kind, cause_class, gpu_model, count(*) FROM incident"
                 " GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4")) {
      incidents::IncidentCount c;
      c.state = row[0].as<std::string>();
      c.kind = row[1].as<std::string>();
      c.cause_class = row[2].as<std::string>();
      c.gpu_model = row[3].as<std::string>();
      c.count = row[4].as<int64_t>();
      out.push_back(std::move(c));
    }
    return out;
  });
}

}  // namespace warpwatch::server::detail

namespace warpwatch::server {

StatusOr<std::unique_ptr<incidents::IncidentStore>> OpenPgIncidentStore(
    const PgStoreOptions& options) {
  if (options.url.empty()) return InvalidArgumentError("database url is empty");
  if (options.pool_size < 1) return InvalidArgumentError("pool size must be at least 1");
  return std::unique_ptr<incidents::IncidentStore>(new detail::PgIncidentStore(options));
}

}  // namespace warpwatch::server
