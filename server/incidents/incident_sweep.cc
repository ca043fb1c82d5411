// File: server/incidents/incident_sweep.cc
#include "server/incidents/incident_sweep.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "server/gpu_health/subsystem_map.h"
#include "server/incidents/explain/environment_diff.h"
#include "server/incidents/incident_classifier.h"
#include "server/incidents/incident_key.h"
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

std::string MergeNote(const IncidentMembers& members, int peers, int movers,
                      v1::GpuSubsystem subsystem) {
  return "merged incident " + std::to_string(members.id) + " (GPU " +
         members.key.cause_key.substr(4) + ", " + std::to_string(members.findings.size()) +
         (members.findings.size() == 1 ? " finding" : " findings") +
         "): " + std::to_string(movers) + " of " + std::to_string(peers) +
         " GPUs of the model moved the same way on " + SubsystemCases(subsystem) +
         " with nothing recorded differing";
}

// Devices whose findings in `findings` stand (confirmed or suspected).
int StandingDevices(const std::vector<v1::Regression>& findings) {
  std::set<std::string> devices;
  for (const v1::Regression& f : findings) {
    const bool stands = Confirmed(f) || f.state() == v1::REGRESSION_STATE_SUSPECTED;
    if (stands) devices.insert(f.device_uuid());
  }
  return static_cast<int>(devices.size());
}

// Devices of the window that ran the software of the representative finding's new run (its
// device's run in the window); -1 when that run is not among them, or when the window has too
// few GPUs for the answer to matter (IncidentView::same_software: only more than twice the
// movers changes the class), which spares reading a fleet's runs for a fleet-wide change.
StatusOr<int> SameSoftware(IncidentSweepTx& tx, const IncidentMembers& members, int peers) {
  std::set<std::string> moved_devices;
  for (const v1::Regression& f : members.findings) moved_devices.insert(f.device_uuid());
  const int rep = RepresentativeFinding(members.findings);
  if (rep < 0 || peers <= 2 * static_cast<int>(moved_devices.size())) return -1;
  ASSIGN_OR_RETURN(std::vector<v1::RunEnvironment> runs,
                   tx.WindowEnvironments(members.key.window_key, members.key.gpu_model));
  const std::string& device = members.findings[rep].device_uuid();
  const v1::RunEnvironment* moved = nullptr;
  for (const v1::RunEnvironment& e : runs) {
    if (e.device().uuid() == device) moved = &e;
  }
  if (moved == nullptr) return -1;
  int same = 0;
  for (const v1::RunEnvironment& e : runs) {
    bool differs = false;
    for (const v1::EnvironmentDifference& d : DiffEnvironments({e}, *moved)) {
      differs = differs || d.area() == v1::DIFFERENCE_AREA_SOFTWARE;
    }
    if (!differs) ++same;
  }
  return same;
}

// Peers per window and model, movers per window, model, kind and subsystem, each read once a
// batch: the merges of a batch move findings between incidents of one window but change neither
// count, so every incident of the window reads the same figures, at one query per window, not
// per incident.
class WindowCounts {
 public:
  explicit WindowCounts(IncidentSweepTx& tx) : tx_(tx) {}

  StatusOr<int> Peers(const IncidentKey& key) {
    const std::string group = key.window_key + "|" + key.gpu_model;
    if (auto it = peers_.find(group); it != peers_.end()) return it->second;
    ASSIGN_OR_RETURN(const int n, tx_.CountPeers(key.window_key, key.gpu_model));
    return peers_[group] = n;
  }
  // The GPUs with a standing finding, of a "gpu:" or fleet incident of the key's window, model
  // and kind, in a family of `subsystem`.
  StatusOr<int> Movers(const IncidentKey& key, v1::GpuSubsystem subsystem) {
    const std::string group = key.window_key + "|" + key.gpu_model + "|" + key.kind;
    auto it = movers_.find(group);
    if (it == movers_.end()) {
      ASSIGN_OR_RETURN(std::vector<MovedFamily> moves, tx_.WindowMoves(key));
      std::map<v1::GpuSubsystem, std::set<std::string>> devices;
      for (const MovedFamily& m : moves) {
        devices[gpu_health::SubsystemOfFamily(m.family)].insert(m.device_uuid);
      }
      std::map<v1::GpuSubsystem, int> counts;
      for (const auto& [s, uuids] : devices) counts[s] = static_cast<int>(uuids.size());
      it = movers_.emplace(group, std::move(counts)).first;
    }
    const auto n = it->second.find(subsystem);
    return n == it->second.end() ? 0 : n->second;
  }

 private:
  IncidentSweepTx& tx_;
  std::map<std::string, int> peers_;
  std::map<std::string, std::map<v1::GpuSubsystem, int>> movers_;  // per subsystem
};

Status RefreshIncident(IncidentSweepTx& tx, WindowCounts& counts, const IncidentMembers& members,
                       SweepSummary& summary) {
  const int64_t id = members.id;
  ASSIGN_OR_RETURN(const int peers, counts.Peers(members.key));
  int movers = 0;
  if (IsFleetKey(members.key.cause_key)) {
    movers = StandingDevices(members.findings);  // its own list may predate this sweep's joins
  } else if (members.key.cause_key.rfind("gpu:", 0) == 0) {
    ASSIGN_OR_RETURN(movers, counts.Movers(members.key, MainSubsystem(members.findings)));
  }
  int same_software = -1;
  if (members.key.cause_key.rfind("software:", 0) == 0) {
    ASSIGN_OR_RETURN(same_software, SameSoftware(tx, members, peers));
  }
  RETURN_IF_ERROR(tx.SaveDerived(id, DeriveIncident(members, peers, movers, same_software)));
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
    // A GPU moving with nothing recorded differing where the fleet already did joins the fleet's,
    // unless the finding is in an incident of its own already (swept again after its
    // confirmation: a person may have triaged that one).
    if (key->cause_key.rfind("gpu:", 0) == 0) {
      const IncidentKey fleet_key =
          FleetKeyOf(*key, gpu_health::SubsystemOfFamily(u.finding.case_().family()));
      ASSIGN_OR_RETURN(const int64_t fleet, tx.ActiveIncident(fleet_key));
      if (fleet != 0 && (u.incident_id == 0 || u.incident_id == fleet)) key = fleet_key;
    }
    ASSIGN_OR_RETURN(const int64_t incident, tx.JoinIncident(u.finding.id(), *key, u.origin));
    touched.insert(incident);
    ++summary.grouped;
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                   tx.IncidentsToRefresh(std::vector<int64_t>(touched.begin(), touched.end())));
  // Per-GPU incidents of a fleet-wide move merge into the fleet's first, so the refresh below
  // counts the fleet once. Movers and peers are counted once per window, model and kind, before
  // any merge: a merge moves findings but not the set of GPUs that moved, and the fleet incident's
  // own device list is refreshed only after the loop.
  std::vector<IncidentMembers> kept;
  std::set<int64_t> fleets;
  WindowCounts counts(tx);
  for (int64_t id : ids) {
    ASSIGN_OR_RETURN(IncidentMembers members, tx.LoadMembers(id));
    if (members.key.cause_key.rfind("gpu:", 0) == 0) {
      const v1::GpuSubsystem subsystem = MainSubsystem(members.findings);
      ASSIGN_OR_RETURN(const int peers, counts.Peers(members.key));
      ASSIGN_OR_RETURN(const int movers, counts.Movers(members.key, subsystem));
      if (JoinsTheFleet(members, peers, movers)) {
        ASSIGN_OR_RETURN(const int64_t fleet,
                         tx.MergeIncident(id, FleetKeyOf(members.key, subsystem), members.origin,
                                          MergeNote(members, peers, movers, subsystem)));
        fleets.insert(fleet);
        ++summary.merged;
        continue;
      }
    }
    kept.push_back(std::move(members));
  }
  // A fleet incident that took findings is read again (it may also be new).
  for (IncidentMembers& members : kept) {
    if (fleets.erase(members.id) > 0) {
      ASSIGN_OR_RETURN(members, tx.LoadMembers(members.id));
    }
  }
  for (int64_t fleet : fleets) {
    ASSIGN_OR_RETURN(IncidentMembers members, tx.LoadMembers(fleet));
    kept.push_back(std::move(members));
  }
  for (const IncidentMembers& members : kept) {
    RETURN_IF_ERROR(RefreshIncident(tx, counts, members, summary));
  }
  return OkStatus();
}

}  // namespace

IncidentDerived DeriveIncident(const IncidentMembers& members, int peers, int movers,
                               int same_software) {
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
  view.same_software = same_software;
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
