// File: server/incidents/incident_classifier.h
// An incident's cause class and cause in plain words, from its findings (with their explanations)
// and the fleet around it (docs/incidents.md "Cause classes").
#ifndef WARPWATCH_SERVER_INCIDENTS_INCIDENT_CLASSIFIER_H_
#define WARPWATCH_SERVER_INCIDENTS_INCIDENT_CLASSIFIER_H_

#include <string>
#include <vector>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::incidents {

// What the classifier reads of one incident.
struct IncidentView {
  std::string cause_key;                 // IncidentKey::cause_key
  std::vector<v1::Regression> findings;  // its findings, with explanations
  int peers = 0;  // devices of the model with a run in the incident's window (its own included)
  // Devices of the model that moved the same way in the window with nothing recorded differing
  // (IncidentSweepTx::CountMovers: "gpu:" incidents and the fleet's, its own included).
  int movers = 0;
  // For a "software:" key: devices of the window whose run has the same software as the
  // representative finding's new run (no SOFTWARE difference between them; its own included);
  // -1 when not known.
  int same_software = -1;
};

struct Classification {
  v1::CauseClass cause_class = v1::CAUSE_CLASS_UNKNOWN;
  std::string cause;
  std::vector<std::string> ruled_out;
};

// - "software:..." -> SOFTWARE, the cause naming each differing field and how many GPUs moved;
//   but ONE_GPU when the same software ran on more than twice as many GPUs of the window as moved
//   (most devices with the change did not move: the change is not what the movers share);
// - "environment:<gpu>" -> ENVIRONMENT naming the GPU and its clock or throttling evidence;
// - a fleet key (IsFleetKey) -> UNKNOWN: how many GPUs of how many moved, on which subsystem's
//   cases (none named for a key of the bare prefix), the cases and their families, and the
//   representative finding's ruled-out lines (software, attributes, clocks) plus one GPU;
// - "gpu:<gpu>" -> ONE_GPU naming it when it has same-window peers and fewer than half of them
//   moved the same way with nothing recorded differing (or it moved alone); else UNKNOWN, with
//   what was ruled out (software, kernel attributes, clocks) and why one GPU was not. When every
//   finding is of a node-scoped family (a node run's: collectives, GPU pairs), the subject is "the
//   node of GPU <gpu>" ("the GPU1-GPU2 pair of the node of GPU <gpu>" when every case is of that
//   one pair) and its peers the other nodes (the class stays ONE_GPU: the proto has no node class;
//   GPU health names the GPUs).
// The representative finding is the confirmed one with the largest |change| (any when none is).
Classification Classify(const IncidentView& incident);

// The finding an incident's explanation is taken from (index into findings; -1 when empty):
// the largest |change| among findings not SUSPECTED or NOISE, else among all.
int RepresentativeFinding(const std::vector<v1::Regression>& findings);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_INCIDENT_CLASSIFIER_H_
