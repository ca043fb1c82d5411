// File: server/incidents/incident_vocabulary.cc
#include "server/incidents/incident_vocabulary.h"

namespace warpwatch::server::incidents {

std::string IncidentStateName(v1::IncidentState state) {
  switch (state) {
    case v1::INCIDENT_STATE_OPEN:
      return kIncidentOpen;
    case v1::INCIDENT_STATE_ACKNOWLEDGED:
      return kIncidentAcknowledged;
    case v1::INCIDENT_STATE_ACCEPTED:
      return kIncidentAccepted;
    case v1::INCIDENT_STATE_FIXED:
      return kIncidentFixed;
    case v1::INCIDENT_STATE_DISMISSED:
      return kIncidentDismissed;
    case v1::INCIDENT_STATE_REOPENED:
      return kIncidentReopened;
    default:
      return "";
  }
}

v1::IncidentState IncidentStateFromName(const std::string& name) {
  for (int s = v1::IncidentState_MIN; s <= v1::IncidentState_MAX; ++s) {
    const auto state = static_cast<v1::IncidentState>(s);
    if (!name.empty() && IncidentStateName(state) == name) return state;
  }
  return v1::INCIDENT_STATE_UNSPECIFIED;
}

std::string CauseClassName(v1::CauseClass cause_class) {
  switch (cause_class) {
    case v1::CAUSE_CLASS_SOFTWARE:
      return "SOFTWARE";
    case v1::CAUSE_CLASS_ONE_GPU:
      return "ONE_GPU";
    case v1::CAUSE_CLASS_ENVIRONMENT:
      return "ENVIRONMENT";
    case v1::CAUSE_CLASS_UNKNOWN:
      return "UNKNOWN";
    default:
      return "";
  }
}

v1::CauseClass CauseClassFromName(const std::string& name) {
  for (int c = v1::CauseClass_MIN; c <= v1::CauseClass_MAX; ++c) {
    const auto cause_class = static_cast<v1::CauseClass>(c);
    if (!name.empty() && CauseClassName(cause_class) == name) return cause_class;
  }
  return v1::CAUSE_CLASS_UNSPECIFIED;
}

v1::IncidentKind IncidentKindFromName(const std::string& name) {
  if (name == kSlowdown) return v1::INCIDENT_KIND_SLOWDOWN;
  if (name == kSpeedup) return v1::INCIDENT_KIND_SPEEDUP;
  return v1::INCIDENT_KIND_UNSPECIFIED;
}

}  // namespace warpwatch::server::incidents
