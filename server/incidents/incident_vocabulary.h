// File: server/incidents/incident_vocabulary.h
// The incident table's words (migration 0015) and their proto enums.
#ifndef WARPWATCH_SERVER_INCIDENTS_INCIDENT_VOCABULARY_H_
#define WARPWATCH_SERVER_INCIDENTS_INCIDENT_VOCABULARY_H_

#include <string>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/incident.pb.h"

namespace warpwatch::server::incidents {

inline constexpr const char* kIncidentOpen = "OPEN";
inline constexpr const char* kIncidentAcknowledged = "ACKNOWLEDGED";
inline constexpr const char* kIncidentAccepted = "ACCEPTED";
inline constexpr const char* kIncidentFixed = "FIXED";
inline constexpr const char* kIncidentDismissed = "DISMISSED";
inline constexpr const char* kIncidentReopened = "REOPENED";
inline constexpr const char* kSlowdown = "SLOWDOWN";
inline constexpr const char* kSpeedup = "SPEEDUP";
// incident_event.actor of the server's own moves (as regression_event's).
inline constexpr const char* kDetector = "detector";

// "OPEN", ...; "" for UNSPECIFIED or unknown. Inverse: UNSPECIFIED for an unknown name.
std::string IncidentStateName(v1::IncidentState state);
v1::IncidentState IncidentStateFromName(const std::string& name);
// "SOFTWARE", "ONE_GPU", "ENVIRONMENT", "UNKNOWN"; "" for UNSPECIFIED. Inverse likewise.
std::string CauseClassName(v1::CauseClass cause_class);
v1::CauseClass CauseClassFromName(const std::string& name);
// "SLOWDOWN" / "SPEEDUP" <-> IncidentKind.
v1::IncidentKind IncidentKindFromName(const std::string& name);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_INCIDENT_VOCABULARY_H_
