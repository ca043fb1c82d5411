// File: server/incidents/incident_key.cc
#include "server/incidents/incident_key.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "server/gpu_health/subsystem_map.h"
#include "server/incidents/explain/cause_ranking.h"
#include "server/incidents/incident_vocabulary.h"

namespace warpwatch::server::incidents {

namespace {

constexpr std::string_view kSubsystemPrefix = "GPU_SUBSYSTEM_";

}  // namespace

bool IsFleetKey(std::string_view cause_key) {
  const std::string_view prefix = kFleetCauseKey;
  return cause_key.substr(0, prefix.size()) == prefix &&
         (cause_key.size() == prefix.size() || cause_key[prefix.size()] == ':');
}

IncidentKey FleetKeyOf(const IncidentKey& key, v1::GpuSubsystem subsystem) {
  std::string slug = v1::GpuSubsystem_Name(subsystem).substr(kSubsystemPrefix.size());
  std::transform(slug.begin(), slug.end(), slug.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  IncidentKey fleet = key;
  fleet.cause_key = std::string(kFleetCauseKey) + ":" + slug;
  return fleet;
}

v1::GpuSubsystem FleetSubsystem(std::string_view cause_key) {
  const std::string_view prefix = kFleetCauseKey;
  if (!IsFleetKey(cause_key) || cause_key.size() == prefix.size()) {
    return v1::GPU_SUBSYSTEM_UNSPECIFIED;
  }
  std::string name(kSubsystemPrefix);
  for (char c : cause_key.substr(prefix.size() + 1)) {
    name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  v1::GpuSubsystem subsystem = v1::GPU_SUBSYSTEM_UNSPECIFIED;
  return v1::GpuSubsystem_Parse(name, &subsystem) ? subsystem : v1::GPU_SUBSYSTEM_UNSPECIFIED;
}

std::string SubsystemCases(v1::GpuSubsystem subsystem) {
  if (subsystem == v1::GPU_SUBSYSTEM_UNSPECIFIED) return "their cases of unmapped families";
  return "their " + std::string(gpu_health::SubsystemName(subsystem)) + " cases";
}

v1::GpuSubsystem MainSubsystem(const std::vector<v1::Regression>& findings) {
  std::map<int, int> count;
  for (const v1::Regression& f : findings) {
    const v1::GpuSubsystem s = gpu_health::SubsystemOfFamily(f.case_().family());
    if (s != v1::GPU_SUBSYSTEM_UNSPECIFIED) ++count[s];
  }
  int best = v1::GPU_SUBSYSTEM_UNSPECIFIED, most = 0;
  for (const auto& [subsystem, n] : count) {  // ascending: a tie keeps the lower value
    if (n > most) {
      best = subsystem;
      most = n;
    }
  }
  return static_cast<v1::GpuSubsystem>(best);
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
