// File: server/incidents/incident_store.h
// What incidents need from the database: the sweep that explains and groups new findings (one
// transaction at a time, one replica at a time), and the reads and triage of IncidentService.
// PostgreSQL implements it (server/store/pg_incident_store.h); tests run it on a real one.
#ifndef WARPWATCH_SERVER_INCIDENTS_INCIDENT_STORE_H_
#define WARPWATCH_SERVER_INCIDENTS_INCIDENT_STORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/incidents/explain/explainer.h"
#include "server/incidents/incident_key.h"
#include "warpwatch/v1/incident.pb.h"

namespace warpwatch::server::incidents {

// A finding the sweep has not seen yet.
struct UnsweptFinding {
  v1::Regression finding;  // explanation and incident_id unset
  FindingOrigin origin;
  int64_t incident_id = 0;  // the incident it is in (a finding swept again); 0 when none
};

// An incident as the sweep refreshes it: its key and state, and its findings.
struct IncidentMembers {
  int64_t id = 0;
  IncidentKey key;
  FindingOrigin origin;  // the incident's window as a finding's origin (schedule run, night)
  std::string state;
  bool triaged = false;  // a person has changed it (an event by any actor but the detector)
  // Its findings with id, kind, state, updated_by, device, case (canonical, family) and change;
  // only the representative one (incident_classifier.h) carries its explanation.
  std::vector<v1::Regression> findings;
};

// What the sweep derives for an incident from its members.
struct IncidentDerived {
  v1::CauseClass cause_class = v1::CAUSE_CLASS_UNKNOWN;
  std::string cause;
  std::vector<std::string> ruled_out;
  int findings = 0, confirmed = 0, suspected = 0, cases = 0, peers = 0;
  std::vector<std::string> device_uuids, families;
  double min_change = 0, median_change = 0, max_change = 0;
};

// A device and a family it has a standing finding of (IncidentSweepTx::WindowMoves).
struct MovedFamily {
  std::string device_uuid;
  std::string family;
};

// One sweep's reads and writes, inside one transaction. Valid only during IncidentStore::Sweep's
// callback, on its thread. Errors: as IncidentStore.
class IncidentSweepTx {
 public:
  virtual ~IncidentSweepTx() = default;

  // Findings not swept yet (regression.swept false), oldest first, at most `limit`, locked.
  virtual StatusOr<std::vector<UnsweptFinding>> LoadUnswept(int limit) = 0;
  // The stored data a finding's explanation is computed from.
  virtual StatusOr<FindingEvidence> LoadEvidence(const v1::Regression& finding) = 0;
  // Stores the explanation (computed_at set) and marks the finding swept.
  virtual Status SaveExplanation(int64_t regression_id, const v1::Explanation& explanation) = 0;
  // Puts the finding in the incident of `key` (created OPEN with an opening event when none
  // exists); a closed incident it joins is REOPENED by the detector with a note naming it.
  // Returns the incident's id.
  virtual StatusOr<int64_t> JoinIncident(int64_t regression_id, const IncidentKey& key,
                                         const FindingOrigin& origin) = 0;
  // Ids of the incidents to refresh: every active one (OPEN, ACKNOWLEDGED, REOPENED) and
  // `touched`.
  virtual StatusOr<std::vector<int64_t>> IncidentsToRefresh(
      const std::vector<int64_t>& touched) = 0;
  virtual StatusOr<IncidentMembers> LoadMembers(int64_t incident_id) = 0;
  // Devices of `gpu_model` with a SUCCEEDED non-confirmation run in the window.
  virtual StatusOr<int> CountPeers(const std::string& window_key, const std::string& gpu_model) = 0;
  // What moved the same way with nothing recorded differing, as (device, family) pairs, each
  // once: the standing findings (not NOISE, not dismissed by a person; read from the findings,
  // so incidents opened in this sweep count) of this window's, model's and kind's "gpu:"
  // incidents and of its fleet incidents (IsFleetKey: so findings merged or joined into them in
  // this sweep count: a merge moves findings, not the set of GPUs that moved). The sweep counts
  // the movers of a subsystem from them.
  virtual StatusOr<std::vector<MovedFamily>> WindowMoves(const IncidentKey& key) = 0;
  // The environment (labels and device included) of each device's latest SUCCEEDED
  // non-confirmation run of `gpu_model` in the window: the devices CountPeers counts.
  virtual StatusOr<std::vector<v1::RunEnvironment>> WindowEnvironments(
      const std::string& window_key, const std::string& gpu_model) = 0;
  // The id of the active (OPEN, ACKNOWLEDGED, REOPENED) incident of `key`; 0 when none.
  virtual StatusOr<int64_t> ActiveIncident(const IncidentKey& key) = 0;
  // Moves every finding of incident `from` into the incident of `into` (created OPEN with an
  // opening event when none exists, REOPENED when closed), records `note` as an event of it,
  // and deletes `from` with its events. Returns the id of `into`'s incident.
  virtual StatusOr<int64_t> MergeIncident(int64_t from, const IncidentKey& into,
                                          const FindingOrigin& origin, const std::string& note) = 0;
  virtual Status SaveDerived(int64_t incident_id, const IncidentDerived& derived) = 0;
  // A detector move: the state and an event (actor "detector").
  virtual Status MoveIncident(int64_t incident_id, const std::string& from, const std::string& to,
                              const std::string& note) = 0;
};

struct IncidentFilter {
  std::vector<v1::IncidentState> states;
  std::string gpu_model;
  std::vector<v1::CauseClass> cause_classes;
  int page_size = 0;  // 0 = default 50; clamped to 500
  std::string page_token;
};

struct IncidentPage {
  std::vector<v1::Incident> incidents;
  std::string next_page_token;
};

// Incidents counted for the metrics: open (OPEN or REOPENED with a confirmed finding) ones one
// by one, and every incident by state, kind, cause class and model.
struct OpenIncident {
  int64_t id = 0;
  std::string kind, cause_class, gpu_model;
  int confirmed = 0;
};
struct IncidentCount {
  std::string state, kind, cause_class, gpu_model;
  int64_t count = 0;
};

// Thread-safe. Errors: UNAVAILABLE (database unreachable), ABORTED (serialization), INTERNAL.
class IncidentStore {
 public:
  using SweepFn = std::function<Status(IncidentSweepTx&)>;
  virtual ~IncidentStore() = default;

  // Runs `fn` in one transaction holding the sweep's advisory lock; when another replica holds it,
  // returns OK without calling `fn` (that replica sweeps). Commits when `fn` returns OK.
  virtual Status Sweep(const SweepFn& fn) = 0;

  // Newest first; INVALID_ARGUMENT for a bad page token or unknown enum value.
  virtual StatusOr<IncidentPage> ListIncidents(const IncidentFilter& filter) = 0;
  // With history, findings (explanations computed now for those without one) and the
  // representative explanation. NOT_FOUND for an unknown id.
  virtual StatusOr<v1::Incident> GetIncident(int64_t id) = 0;
  // A person's move (incident_lifecycle.h), cascaded to its OPEN and ACKNOWLEDGED findings with a
  // regression_event each; NOT_FOUND, FAILED_PRECONDITION naming both states.
  virtual StatusOr<v1::Incident> UpdateIncident(int64_t id, v1::IncidentState to,
                                                const std::string& note,
                                                const std::string& actor) = 0;
  // One finding with its explanation (computed now when not stored). NOT_FOUND.
  virtual StatusOr<v1::Regression> ExplainFinding(int64_t regression_id) = 0;

  virtual StatusOr<std::vector<OpenIncident>> ListOpenIncidents() = 0;
  virtual StatusOr<std::vector<IncidentCount>> CountIncidents() = 0;
};

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_INCIDENT_STORE_H_
