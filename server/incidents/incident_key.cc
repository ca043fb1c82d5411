// File: server/incidents/incident_key.cc
#include "server/incidents/incident_key.h"

#include "server/incidents/explain/cause_ranking.h"
#include "server/incidents/incident_vocabulary.h"

namespace warpwatch::server::incidents {

IncidentKey FleetKeyOf(const IncidentKey& key) {
  IncidentKey fleet = key;
  fleet.cause_key = kFleetCauseKey;
  return fleet;
}

std::optional<IncidentKey> KeyOf(const v1::Regression& finding, const FindingOrigin& origin) {
  IncidentKey key;
  if (finding.kind() == v1::REGRESSION_KIND_REGRESSION) {
    key.kind = kSlowdown;
  } else if (finding.kind() == v1::REGRESSION_KIND_IMPROVEMENT) {
    key.kind = kSpeedup;
  } else {
    return std::nullopt;
  }
  key.window_key = origin.schedule_run_id != 0
                       ? "schedule_run:" + std::to_string(origin.schedule_run_id)
                       : "night:" + origin.night;
  key.gpu_model = finding.gpu_model();
  const std::string software = SoftwareChange(finding.explanation());
  const v1::Explanation& e = finding.explanation();
  const std::string& clock = e.clocks().verdict();
  const bool environment_ranks_first =
      e.causes_size() > 0 && e.causes(0).cause_class() == v1::CAUSE_CLASS_ENVIRONMENT;
  if (!software.empty()) {
    key.cause_key = "software:" + software;
  } else if (finding.blame() == v1::BLAME_ENVIRONMENT || clock == "clock" || clock == "throttled" ||
             environment_ranks_first) {
    key.cause_key = "environment:" + finding.device_uuid();
  } else {
    key.cause_key = "gpu:" + finding.device_uuid();
  }
  return key;
}

}  // namespace warpwatch::server::incidents
