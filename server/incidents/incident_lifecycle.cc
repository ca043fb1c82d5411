// File: server/incidents/incident_lifecycle.cc
#include "server/incidents/incident_lifecycle.h"

#include "server/incidents/incident_vocabulary.h"

namespace warpwatch::server::incidents {
namespace {

bool Active(const std::string& s) {
  return s == kIncidentOpen || s == kIncidentAcknowledged || s == kIncidentReopened;
}

}  // namespace

bool Closed(const std::string& state) {
  return state == kIncidentAccepted || state == kIncidentFixed || state == kIncidentDismissed;
}

Status CheckPersonMove(int64_t id, const std::string& from, const std::string& to) {
  if (IncidentStateFromName(to) == v1::INCIDENT_STATE_UNSPECIFIED || to == kIncidentOpen) {
    return InvalidArgumentError(
        "state: " + (to.empty() ? std::string("UNSPECIFIED") : to) +
        " is not a triage state (ACKNOWLEDGED, ACCEPTED, FIXED, DISMISSED or REOPENED)");
  }
  bool allowed = false;
  if (to == kIncidentAcknowledged) {
    allowed = from == kIncidentOpen || from == kIncidentReopened;
  } else if (to == kIncidentReopened) {
    allowed = Closed(from);
  } else {
    allowed = Active(from);
  }
  if (allowed) return OkStatus();
  return FailedPreconditionError(
      "incident " + std::to_string(id) + " is " + from + ": cannot go " + from + " -> " + to +
      " (OPEN or REOPENED -> ACKNOWLEDGED; OPEN, ACKNOWLEDGED or REOPENED -> ACCEPTED, FIXED or "
      "DISMISSED; ACCEPTED, FIXED or DISMISSED -> REOPENED)");
}

std::optional<v1::RegressionState> FindingStateFor(const std::string& state) {
  if (state == kIncidentAcknowledged) return v1::REGRESSION_STATE_ACKNOWLEDGED;
  if (state == kIncidentAccepted) return v1::REGRESSION_STATE_ACCEPTED;
  if (state == kIncidentFixed) return v1::REGRESSION_STATE_FIXED;
  if (state == kIncidentDismissed) return v1::REGRESSION_STATE_DISMISSED;
  return std::nullopt;
}

bool Confirmed(const v1::Regression& f) {
  switch (f.state()) {
    case v1::REGRESSION_STATE_OPEN:
    case v1::REGRESSION_STATE_ACKNOWLEDGED:
    case v1::REGRESSION_STATE_ACCEPTED:
    case v1::REGRESSION_STATE_FIXED:
      return true;
    case v1::REGRESSION_STATE_DISMISSED:
      return f.updated_by().empty() || f.updated_by() == kDetector;
    default:
      return false;
  }
}

std::optional<DetectorMove> DetectorMoveFor(const std::string& state, const FindingCounts& counts) {
  if (!Active(state) || counts.findings == 0 || counts.suspected > 0) return std::nullopt;
  if (counts.confirmed == 0) {
    return DetectorMove{kIncidentDismissed,
                        "no finding is left standing: the confirmation runs disagreed (NOISE) "
                        "or each finding was dismissed"};
  }
  if (counts.fixed == counts.confirmed) {
    return DetectorMove{kIncidentFixed, "every finding's level returned (FIXED)"};
  }
  return std::nullopt;
}

}  // namespace warpwatch::server::incidents
