// File: server/incidents/incident_key.cc
#include "server/incidents/incident_key.h"

#include "server/incidents/explain/cause_ranking.h"
#include "server/incidents/incident_vocabulary.h"

namespace warpwatch::server::incidents {
namespace {

// Whether the explanation records the GPU running under other clock settings or beside other work
// (a label its worker marks as a condition: the test-only contention generator's). Temperatures
// and power readings do not count: they swing between runs of a healthy GPU (power at the start
// 81 to 219 W over one H100's nightly runs, tests/fixtures/h100_codegen) and follow from the work
// as much as they cause it, so they stay evidence in the explanation without deciding the class.
bool SettingsOrLoadDiffer(const v1::Explanation& e) {
  for (const v1::EnvironmentDifference& d : e.environment()) {
    if (d.area() == v1::DIFFERENCE_AREA_CLOCKS) return true;
    if (d.area() == v1::DIFFERENCE_AREA_CONDITIONS && d.field().rfind("labels.", 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

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
  const bool environment_ranks_first = e.causes_size() > 0 &&
                                       e.causes(0).cause_class() == v1::CAUSE_CLASS_ENVIRONMENT &&
                                       SettingsOrLoadDiffer(e);
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
