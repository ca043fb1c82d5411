// File: server/incidents/incident_key.h
// Which incident a finding joins: findings that started together (the same schedule run, or the
// same UTC night without one), on the same GPU model, moving the same way, with the same cause
// candidate share one incident (docs/incidents.md "Grouping").
#ifndef WARPWATCH_SERVER_INCIDENTS_INCIDENT_KEY_H_
#define WARPWATCH_SERVER_INCIDENTS_INCIDENT_KEY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpwatch/v1/gpu_health.pb.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::incidents {

// Where a finding's run came from.
struct FindingOrigin {
  int64_t schedule_run_id = 0;  // its job's schedule run; 0 for ad-hoc and uploaded runs
  std::string night;            // UTC date of the run's start, "YYYY-MM-DD"
};

struct IncidentKey {
  std::string window_key;  // "schedule_run:<id>" or "night:<date>"
  std::string gpu_model;
  std::string kind;  // kSlowdown or kSpeedup
  // The cause candidate: "software:<the software differences>" when the finding's explanation
  // names any; else "environment:<device>" when the GPU's clock or conditions explain it (blame
  // ENVIRONMENT, its clock split says clock or throttled, or its explanation's first-ranked cause
  // is ENVIRONMENT: clock settings or a condition label such as a co-tenant's test_contention_*
  // differ, with no compiled-code change outranking them; temperature and power readings alone
  // rank below "nothing recorded differs", cause_ranking.h); else "gpu:<device>".
  std::string cause_key;
  bool operator==(const IncidentKey& o) const {
    return window_key == o.window_key && gpu_model == o.gpu_model && kind == o.kind &&
           cause_key == o.cause_key;
  }
};

// The cause candidate of a fleet-wide move that nothing recorded explains, one per subsystem the
// move is in: "fleet:unrecorded:<subsystem>" (e.g. "fleet:unrecorded:hbm_bandwidth"). Findings of
// "gpu:" keys merge into the fleet key of their incident's main subsystem once enough GPUs of the
// model moved the same way on that subsystem's families in the window (incident_sweep.h,
// docs/incidents.md "A fleet that moved with nothing recorded differing"). A key of the bare
// prefix (written before the split: one per window, model and kind) is still a fleet key.
inline constexpr const char* kFleetCauseKey = "fleet:unrecorded";

// Whether `cause_key` is a fleet key (with a subsystem or the bare prefix).
bool IsFleetKey(std::string_view cause_key);

// `key` with the fleet cause candidate of `subsystem`: same window, model and kind.
IncidentKey FleetKeyOf(const IncidentKey& key, v1::GpuSubsystem subsystem);

// The subsystem of a fleet key; GPU_SUBSYSTEM_UNSPECIFIED for the bare prefix or another key.
v1::GpuSubsystem FleetSubsystem(std::string_view cause_key);

// "their HBM bandwidth cases", or "their cases of unmapped families" for UNSPECIFIED: how the
// incident texts name a fleet move's subsystem.
std::string SubsystemCases(v1::GpuSubsystem subsystem);

// The subsystem (server/gpu_health/subsystem_map.h) that most of `findings` stress, by their
// families; ties go to the lower enum value; GPU_SUBSYSTEM_UNSPECIFIED when none is mapped.
v1::GpuSubsystem MainSubsystem(const std::vector<v1::Regression>& findings);

// The key of a REGRESSION or IMPROVEMENT finding with its explanation set; nullopt for any other
// kind (a fleet OUTLIER joins no incident).
std::optional<IncidentKey> KeyOf(const v1::Regression& finding, const FindingOrigin& origin);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_INCIDENT_KEY_H_
