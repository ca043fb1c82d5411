// File: server/incidents/incident_sweep.cc
#include "server/incidents/incident_sweep.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <set>

#include "server/incidents/incident_classifier.h"
#include "server/incidents/incident_lifecycle.h"

namespace warpwatch::server::incidents {
namespace {

double MedianOrZero(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

FindingCounts CountsOf(const std::vector<v1::Regression>& findings) {
  FindingCounts c;
  for (const v1::Regression& f : findings) {
    ++c.findings;
    if (f.state() == v1::REGRESSION_STATE_SUSPECTED) ++c.suspected;
    if (Confirmed(f)) ++c.confirmed;
    if (f.state() == v1::REGRESSION_STATE_FIXED) ++c.fixed;
  }
  return c;
}

// Whether a "gpu:" incident belongs to a fleet-wide move instead: enough GPUs of the model moved
// the same way in the window (the classifier's "not alone", and at least kFleetMinMovers), and no
// person has triaged it (their decision on it stands).
bool JoinsTheFleet(const IncidentMembers& members, int peers, int movers) {
  return members.key.cause_key.rfind("gpu:", 0) == 0 && members.state == kIncidentOpen &&
         !members.triaged && !members.findings.empty() && movers >= kFleetMinMovers &&
         movers * 2 >= peers;
}

std::string MergeNote(const IncidentMembers& members, int peers, int movers) {
  return "merged incident " + std::to_string(members.id) + " (GPU " +
         members.key.cause_key.substr(4) + ", " + std::to_string(members.findings.size()) +
         (members.findings.size() == 1 ? " finding" : " findings") + "): " +
         std::to_string(movers) + " of " + std::to_string(peers) +
         " GPUs of the model moved the same way with nothing recorded differing";
}

Status RefreshIncident(IncidentSweepTx& tx, int64_t id, SweepSummary& summary) {
  ASSIGN_OR_RETURN(IncidentMembers members, tx.LoadMembers(id));
  ASSIGN_OR_RETURN(const int peers, tx.CountPeers(members.key.window_key, members.key.gpu_model));
  int movers = 0;
  const bool fleet = members.key.cause_key == kFleetCauseKey;
  if (members.key.cause_key.rfind("gpu:", 0) == 0 || fleet) {
    ASSIGN_OR_RETURN(movers, tx.CountMovers(members.key));
  }
  RETURN_IF_ERROR(tx.SaveDerived(id, DeriveIncident(members, peers, movers)));
  ++summary.refreshed;
  if (auto move = DetectorMoveFor(members.state, CountsOf(members.findings))) {
    RETURN_IF_ERROR(tx.MoveIncident(id, members.state, move->to, move->note));
    ++summary.moved;
  }
  return OkStatus();
}

// One batch; sets *full when it read `batch` findings (more may be left).
Status SweepBatch(IncidentSweepTx& tx, int batch, SweepSummary& summary, bool* full) {
  ASSIGN_OR_RETURN(std::vector<UnsweptFinding> unswept, tx.LoadUnswept(batch));
  *full = static_cast<int>(unswept.size()) >= batch;
  std::set<int64_t> touched;
  for (UnsweptFinding& u : unswept) {
    ASSIGN_OR_RETURN(FindingEvidence evidence, tx.LoadEvidence(u.finding));
    v1::Explanation e = Explain(evidence);
    *e.mutable_computed_at() = google::protobuf::util::TimeUtil::GetCurrentTime();
    RETURN_IF_ERROR(tx.SaveExplanation(u.finding.id(), e));
    ++summary.explained;
    *u.finding.mutable_explanation() = std::move(e);
    std::optional<IncidentKey> key = KeyOf(u.finding, u.origin);
    if (!key) continue;
    // A GPU moving with nothing recorded differing where the fleet already did joins the fleet's.
    if (key->cause_key.rfind("gpu:", 0) == 0) {
      ASSIGN_OR_RETURN(const int64_t fleet, tx.ActiveIncident(FleetKeyOf(*key)));
      if (fleet != 0) key = FleetKeyOf(*key);
    }
    ASSIGN_OR_RETURN(const int64_t incident, tx.JoinIncident(u.finding.id(), *key, u.origin));
    touched.insert(incident);
    ++summary.grouped;
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                   tx.IncidentsToRefresh(std::vector<int64_t>(touched.begin(), touched.end())));
  // Per-GPU incidents of a fleet-wide move merge into the fleet's first, so the refresh below
  // counts the fleet once.
  std::vector<int64_t> kept;
  std::set<int64_t> fleets;
  for (int64_t id : ids) {
    ASSIGN_OR_RETURN(IncidentMembers members, tx.LoadMembers(id));
    if (members.key.cause_key.rfind("gpu:", 0) == 0) {
      ASSIGN_OR_RETURN(const int peers,
                       tx.CountPeers(members.key.window_key, members.key.gpu_model));
      ASSIGN_OR_RETURN(const int movers, tx.CountMovers(members.key));
      if (JoinsTheFleet(members, peers, movers)) {
        ASSIGN_OR_RETURN(const int64_t fleet,
                         tx.MergeIncident(id, FleetKeyOf(members.key), members.origin,
                                          MergeNote(members, peers, movers)));
        fleets.insert(fleet);
        ++summary.merged;
        continue;
      }
    }
    kept.push_back(id);
  }
  for (int64_t fleet : fleets) {
    if (std::find(kept.begin(), kept.end(), fleet) == kept.end()) kept.push_back(fleet);
  }
  for (int64_t id : kept) RETURN_IF_ERROR(RefreshIncident(tx, id, summary));
  return OkStatus();
}

}  // namespace

IncidentDerived DeriveIncident(const IncidentMembers& members, int peers, int movers) {
  IncidentDerived d;
  const FindingCounts counts = CountsOf(members.findings);
  d.findings = counts.findings;
  d.confirmed = counts.confirmed;
  d.suspected = counts.suspected;
  d.peers = peers;
  std::set<std::string> devices, families, cases;
  std::vector<double> changes;
  for (const v1::Regression& f : members.findings) {
    devices.insert(f.device_uuid());
    families.insert(f.case_().family());
    cases.insert(f.case_().canonical());
    changes.push_back(f.change());
  }
  d.cases = static_cast<int>(cases.size());
  d.device_uuids.assign(devices.begin(), devices.end());
  d.families.assign(families.begin(), families.end());
  if (!changes.empty()) {
    d.min_change = *std::min_element(changes.begin(), changes.end());
    d.max_change = *std::max_element(changes.begin(), changes.end());
    d.median_change = MedianOrZero(changes);
  }
  IncidentView view;
  view.cause_key = members.key.cause_key;
  view.findings = members.findings;
  view.peers = peers;
  view.movers = movers;
  Classification c = Classify(view);
  d.cause_class = c.cause_class;
  d.cause = std::move(c.cause);
  d.ruled_out = std::move(c.ruled_out);
  return d;
}

StatusOr<SweepSummary> SweepIncidents(IncidentStore& store, int batch, int max_batches) {
  SweepSummary summary;
  for (int i = 0; i < max_batches; ++i) {
    bool full = false;
    RETURN_IF_ERROR(store.Sweep([&](IncidentSweepTx& tx) {
      SweepSummary part;
      RETURN_IF_ERROR(SweepBatch(tx, batch, part, &full));
      summary.explained += part.explained;
      summary.grouped += part.grouped;
      summary.refreshed += part.refreshed;
      summary.moved += part.moved;
      summary.merged += part.merged;
      return OkStatus();
    }));
    if (!full) break;
  }
  return summary;
}

}  // namespace warpwatch::server::incidents
