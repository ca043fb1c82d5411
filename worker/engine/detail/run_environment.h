// Builds the RunEnvironment of an opened device.
#ifndef WARPWATCH_WORKER_ENGINE_DETAIL_RUN_ENVIRONMENT_H_
#define WARPWATCH_WORKER_ENGINE_DETAIL_RUN_ENVIRONMENT_H_

#include "warpwatch/v1/measurement.pb.h"
#include "worker/device/telemetry.h"

namespace warpwatch::worker::detail {

// Device identity, host name, driver and CUDA versions, worker and suite versions, start clocks,
// temperature and power, clock source, the architectures the worker was built for, the device's
// and the one whose code it runs. Labels are the caller's to add, except build_test_codegen, which
// a build with test-only code generation carries (kernels/core/build_test_codegen.h).
v1::RunEnvironment BuildRunEnvironment(const v1::Device& device, Telemetry& telemetry);

}  // namespace warpwatch::worker::detail

#endif  // WARPWATCH_WORKER_ENGINE_DETAIL_RUN_ENVIRONMENT_H_
