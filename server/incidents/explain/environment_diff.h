// File: server/incidents/explain/environment_diff.h
// What differs between the environment of a finding's baseline runs and of its new run.
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_ENVIRONMENT_DIFF_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_ENVIRONMENT_DIFF_H_

#include <vector>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::incidents {

// Every RunEnvironment field (and label, and device field) whose value in `now` is not among the
// baseline runs' values, in a fixed order: software first (driver, CUDA runtime and driver API,
// worker version, suite version, built and code architectures, labels), then the device (with
// the links between the node's GPUs: "gpu_links.<src>-<dst>", e.g. "NV18, 18 NVLinks via
// NVSwitch" -> "NV17, 17 NVLinks via NVSwitch", compared when the new run and some baseline run
// recorded links), clocks and conditions. Fields that vary from run to run are compared with a
// tolerance, so a difference means a move: start clocks beyond 2 % of the baseline range,
// temperatures beyond 5 °C, power beyond 10 %. An empty `baseline` gives nothing (there is nothing
// to compare against).
std::vector<v1::EnvironmentDifference> DiffEnvironments(
    const std::vector<v1::RunEnvironment>& baseline, const v1::RunEnvironment& now);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_ENVIRONMENT_DIFF_H_
