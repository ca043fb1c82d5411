// File: server/incidents/incident_sweep.h
// The pass that follows the analysis of runs: explain every finding not seen yet and put each
// REGRESSION or IMPROVEMENT into its incident, then refresh every active incident (and those just
// joined): counts, cause class and cause, and the detector's moves (FIXED when every level
// returned, DISMISSED when nothing stands). Before the refresh, an OPEN "gpu:" incident no person
// has triaged merges into its window's fleet incident of its main subsystem (incident_key.h:
// FleetKeyOf, MainSubsystem) once at least kFleetMinMovers GPUs and half of the window's GPUs of
// the model moved the same way on that subsystem's families with nothing recorded differing (one
// incident, one alert, for a change the store does not record; two such changes on different
// subsystems, two); later findings of such GPUs in that window join the fleet incident of their
// family's subsystem directly. The server runs it after each analysed run (server/runtime); it is
// idempotent and safe on several replicas (one sweeps at a time).
#ifndef WARPWATCH_SERVER_INCIDENTS_INCIDENT_SWEEP_H_
#define WARPWATCH_SERVER_INCIDENTS_INCIDENT_SWEEP_H_

#include "common/status/status.h"
#include "server/incidents/incident_store.h"

namespace warpwatch::server::incidents {

// Fewest GPUs moving together for a fleet incident: two could be chance (two independent faults
// in one night), and early in a night the window's peers are only the GPUs that ran so far.
inline constexpr int kFleetMinMovers = 3;

struct SweepSummary {
  int explained = 0;  // findings explained (every kind)
  int grouped = 0;    // of them: put into an incident
  int refreshed = 0;  // incidents refreshed
  int moved = 0;      // detector moves (FIXED, DISMISSED)
  int merged = 0;     // per-GPU incidents merged into a fleet incident
};

// Sweeps in batches of `batch` findings (one transaction each) until none is left, at most
// `max_batches`. Errors: the store's (a failed batch rolls back whole; the next sweep redoes it).
StatusOr<SweepSummary> SweepIncidents(IncidentStore& store, int batch = 200, int max_batches = 50);

// What an incident's members give (counts, devices, families, changes, class): pure. `peers`,
// `movers` and `same_software` as IncidentView.
IncidentDerived DeriveIncident(const IncidentMembers& members, int peers, int movers,
                               int same_software = -1);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_INCIDENT_SWEEP_H_
