// File: server/incidents/incident_lifecycle.h
// Which state moves people and the detector may make on an incident (docs/incidents.md
// "Lifecycle"), and what a person's move does to its findings.
#ifndef WARPWATCH_SERVER_INCIDENTS_INCIDENT_LIFECYCLE_H_
#define WARPWATCH_SERVER_INCIDENTS_INCIDENT_LIFECYCLE_H_

#include <optional>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::incidents {

// OK when a person may move incident `id` from `from` to `to` (state names): OPEN, ACKNOWLEDGED
// or REOPENED -> ACCEPTED, FIXED or DISMISSED; OPEN or REOPENED -> ACKNOWLEDGED; ACCEPTED, FIXED
// or DISMISSED -> REOPENED. Else FAILED_PRECONDITION naming both states ("incident 7 is FIXED:
// cannot go FIXED -> ACKNOWLEDGED ..."); INVALID_ARGUMENT when `to` is not a state.
Status CheckPersonMove(int64_t id, const std::string& from, const std::string& to);

// The state a person's move gives the incident's OPEN or ACKNOWLEDGED findings (regression
// states): ACKNOWLEDGED, ACCEPTED, FIXED or DISMISSED; nullopt for REOPENED (findings keep
// theirs).
std::optional<v1::RegressionState> FindingStateFor(const std::string& incident_state);

// An incident's findings, counted for the detector's moves.
struct FindingCounts {
  int findings = 0;
  int confirmed = 0;  // OPEN, ACKNOWLEDGED, ACCEPTED, FIXED, or DISMISSED by the detector
  int suspected = 0;  // SUSPECTED
  int fixed = 0;      // FIXED (level returned, or a person said so)
};

// Whether a finding counts as confirmed (see FindingCounts).
bool Confirmed(const v1::Regression& finding);

struct DetectorMove {
  std::string to;
  std::string note;
};

// The detector's move on an active incident (OPEN, ACKNOWLEDGED, REOPENED), if any: DISMISSED
// when nothing is confirmed or suspected any more (noise, or dismissed one by one); FIXED when
// nothing is suspected and every confirmed finding is FIXED. Closed incidents: nullopt.
std::optional<DetectorMove> DetectorMoveFor(const std::string& state, const FindingCounts& counts);

// Whether `state` is closed (ACCEPTED, FIXED, DISMISSED): a finding joining it reopens it.
bool Closed(const std::string& state);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_INCIDENT_LIFECYCLE_H_
